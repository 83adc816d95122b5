import { describe, expect, it } from 'vitest';
import {
  applyRenameRule,
  buildDocKey,
  keyOrder,
  mediaType,
  parseDocKey,
  safeFileName,
  uploadContentType,
  withDocumentExtension,
} from './files.js';

describe('rename rule', () => {
  it('trims, refuses empty, and re-adds the original extension case-insensitively', () => {
    expect(applyRenameRule('W2.pdf', '  ')).toBeNull();
    expect(applyRenameRule('W2.pdf', '  Employer W-2 ')).toBe('Employer W-2.pdf');
    expect(applyRenameRule('W2.pdf', 'Employer.PDF')).toBe('Employer.PDF');
    expect(applyRenameRule('scan', 'renamed')).toBe('renamed');
    expect(applyRenameRule('photo.jpeg', 'front.jpg')).toBe('front.jpg.jpeg');
  });
});

describe('media type', () => {
  it('drops parameters, white space and case', () => {
    expect(mediaType('Image/JPEG; charset=binary')).toBe('image/jpeg');
    expect(mediaType(' application/pdf ')).toBe('application/pdf');
    expect(mediaType(undefined)).toBe('');
  });
});

describe('upload content type', () => {
  it('is application/pdf for .pdf, else the own type, else image/jpeg', () => {
    expect(uploadContentType('a.PDF', 'application/octet-stream')).toBe('application/pdf');
    expect(uploadContentType('a.png', 'image/png')).toBe('image/png');
    expect(uploadContentType('a.heic', '')).toBe('image/jpeg');
  });
});

describe('storage keys', () => {
  it('round-trips category names with slashes and unicode file names', () => {
    const key = buildDocKey('abcDEF123_-xyz', 'Michigan/Locality Intake', 1700000000000, 'Ñandú 1040.pdf');
    expect(key).toBe('abcDEF123_-xyz/Michigan%2FLocality%20Intake/1700000000000_Ñandú 1040.pdf');
    expect(parseDocKey(key)).toEqual({
      clientId: 'abcDEF123_-xyz',
      docType: 'Michigan/Locality Intake',
      order: 1700000000000,
      filename: 'Ñandú 1040.pdf',
    });
  });

  it('rejects traversal and malformed keys', () => {
    for (const bad of [
      '../etc/passwd',
      'abcDEF123_-xyz/W-2/../../x',
      'abcDEF123_-xyz/W-2/1_a/b.pdf',
      'abcDEF123_-xyz/W-2/noprefix.pdf',
      'abcDEF123_-xyz/%E0%A4%A/1_a.pdf',
      'abcDEF123_-xyz/W-2/1_..',
      'short/W-2/1_a.pdf',
      'abcDEF123_-xyz/W-2/1_.hidden',
    ]) {
      expect(parseDocKey(bad), bad).toBeNull();
    }
  });

  it('orders by the numeric prefix', () => {
    const keys = ['c/t/20_b.pdf', 'c/t/3_a.pdf', 'c/t/100_c.pdf'];
    expect([...keys].sort((a, b) => keyOrder(a) - keyOrder(b))).toEqual(['c/t/3_a.pdf', 'c/t/20_b.pdf', 'c/t/100_c.pdf']);
  });
});

describe('safe file names', () => {
  it('removes separators, control characters and leading dots, and is never empty', () => {
    expect(safeFileName('../../etc/passwd')).toBe('_.._etc_passwd');
    expect(safeFileName('a\u0000b\nc.pdf')).toBe('abc.pdf');
    expect(safeFileName('...')).toBe('file');
    expect(safeFileName('  .env ')).toBe('env');
  });

  it('shortens long names to 200 bytes and keeps the extension', () => {
    const long = `${'é'.repeat(200)}.pdf`;
    const safe = safeFileName(long);
    expect(new TextEncoder().encode(safe).length).toBeLessThanOrEqual(200);
    expect(safe.endsWith('.pdf')).toBe(true);
  });
});

describe('document extensions', () => {
  it('keeps document extensions and appends the canonical one to anything else', () => {
    expect(withDocumentExtension('scan.PDF', 'application/pdf')).toBe('scan.PDF');
    expect(withDocumentExtension('IMG_1.HEIC', 'image/jpeg')).toBe('IMG_1.HEIC');
    expect(withDocumentExtension('W2fdp.cmd', 'application/pdf')).toBe('W2fdp.cmd.pdf');
    expect(withDocumentExtension('page', 'image/png')).toBe('page.png');
  });

  it('strips bidi overrides that disguise an extension', () => {
    expect(safeFileName('W2\u202Efdp.cmd')).toBe('W2fdp.cmd');
  });
});
