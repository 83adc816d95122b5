import { describe, expect, it } from 'vitest';
import { fakeHeic, makePhoto } from '../../test/images.js';
import { readImageInfo, sniffFormat } from './image-info.js';

describe('readImageInfo', () => {
  it.each([1, 3, 6, 8])('reads EXIF orientation %i from JPEG, PNG and WebP', async (orientation) => {
    for (const format of ['jpeg', 'png', 'webp'] as const) {
      const info = readImageInfo(await makePhoto(format, 300, 200, orientation));
      expect([format, info.format, info.orientation]).toEqual([format, format, orientation]);
    }
  });

  it('reads the stored size of a JPEG (before orientation)', async () => {
    expect(readImageInfo(await makePhoto('jpeg', 300, 200, 6))).toMatchObject({ width: 200, height: 300 });
    expect(readImageInfo(await makePhoto('jpeg', 300, 200))).toMatchObject({
      width: 300,
      height: 200,
      orientation: 1,
    });
  });

  it('recognises BMP and HEIF by their bytes and survives truncated or foreign input', async () => {
    expect(sniffFormat(await makePhoto('bmp', 10, 10))).toBe('bmp');
    expect(sniffFormat(fakeHeic())).toBe('heif');
    const jpeg = await makePhoto('jpeg', 300, 200, 6);
    expect(readImageInfo(jpeg.subarray(0, 40))).toMatchObject({
      format: 'jpeg',
      orientation: 6,
      width: null,
    });
    expect(readImageInfo(jpeg.subarray(0, 12))).toMatchObject({
      format: 'jpeg',
      orientation: 1,
      width: null,
    });
    expect(readImageInfo(new Uint8Array([1, 2, 3]))).toEqual({
      format: 'unknown',
      width: null,
      height: null,
      orientation: 1,
    });
  });
});
