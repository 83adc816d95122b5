import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { createRecordingDialogs } from '../../testing/index.js';
import type { DocItem } from '../../api/schemas.js';
import { createFileViewerFlow, previewKind } from './file-viewer.js';

const doc = (filename: string, contentType: string): DocItem => ({
  key: `client-0001/W-2/1700000000000_${filename}`,
  filename,
  size: 10,
  docType: 'W-2',
  contentType,
  lastModified: '2025-01-15T12:00:00.000Z',
});

describe('View modal', () => {
  it('images and PDFs are previewed; HEIC, TIFF and the rest are not', () => {
    expect(previewKind(doc('a.pdf', 'application/pdf'))).toBe('pdf');
    expect(previewKind(doc('a.jpg', 'image/jpeg'))).toBe('image');
    expect(previewKind(doc('a.png', 'image/png; charset=binary'))).toBe('image');
    expect(previewKind(doc('a.heic', 'image/heic'))).toBe('none');
    expect(previewKind(doc('a.tif', 'image/tiff'))).toBe('none');
    expect(previewKind(doc('a.bin', 'application/octet-stream'))).toBe('none');
  });

  it('a preview gets a view URL, anything else a download URL under its own name', async () => {
    const api = {
      presignView: vi.fn(async () => ({ url: '/api/storage/get?view', expiresAt: '' })),
      presignGet: vi.fn(async () => ({ url: '/api/storage/get?download', expiresAt: '' })),
    };
    const flow = createFileViewerFlow({
      api: api,
      platform: createRecordingDialogs(),
    });
    const pdf = doc('w2.pdf', 'application/pdf');
    await flow.send({ type: 'open', item: pdf });
    expect(flow.getState()).toEqual({
      status: 'showing',
      item: pdf,
      kind: 'pdf',
      url: '/api/storage/get?view',
    });
    expect(api.presignView).toHaveBeenCalledWith({ body: { key: pdf.key } });
    const tiff = doc('scan.tif', 'image/tiff');
    await flow.send({ type: 'open', item: tiff });
    expect(flow.getState()).toMatchObject({ kind: 'none', url: '/api/storage/get?download' });
    expect(api.presignGet).toHaveBeenCalledWith({ body: { key: tiff.key, downloadAs: 'scan.tif' } });
    await flow.send({ type: 'close' });
    expect(flow.getState().status).toBe('closed');
  });

  it('a failure closes the modal with the alert', async () => {
    const api = {
      presignView: vi.fn(async () => Promise.reject(new ApiError('http', 404, 'File not found.'))),
      presignGet: vi.fn(),
    };
    const platform = createRecordingDialogs();
    const flow = createFileViewerFlow({ api: api, platform });
    await flow.send({ type: 'open', item: doc('w2.pdf', 'application/pdf') });
    expect(flow.getState().status).toBe('closed');
    expect(platform.alerts).toEqual(['File not found.']);
  });
});
