import { describe, expect, it } from 'vitest';
import { isUploadable } from './uploadable';

describe('what the queue takes', () => {
  it('PDFs and images by type or extension; nothing else', () => {
    expect(isUploadable({ name: 'w2.pdf', type: '' })).toBe(true);
    expect(isUploadable({ name: 'scan', type: 'application/pdf' })).toBe(true);
    expect(isUploadable({ name: 'IMG_0001.HEIC', type: '' })).toBe(true);
    expect(isUploadable({ name: 'photo', type: 'image/jpeg' })).toBe(true);
    expect(isUploadable({ name: 'notes.txt', type: 'text/plain' })).toBe(false);
    expect(isUploadable({ name: 'letter.docx', type: '' })).toBe(false);
  });
});
