// The converter with the browser raster (Web Worker + createImageBitmap + OffscreenCanvas) in real Chromium.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION, MIME, fakeHeic, makePhoto } from '../images.js';
import type { PhotoFormat } from '../images.js';
import { inspectPdf } from '../pdf-inspect.js';
import { expectLetterPdf } from '../pdf-expect.js';
import { startBrowserHarness } from './harness.js';
import type { BrowserHarness } from './harness.js';

interface Converted {
  same: boolean;
  name: string;
  type: string;
  base64: string;
  warnings: string[];
}

let harness: BrowserHarness;
beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(async () => {
  await harness?.close();
});

async function convert(
  name: string,
  bytes: Uint8Array,
  type: string,
): Promise<Converted & { bytes: Uint8Array }> {
  harness.fixtures.set(name, bytes);
  const result = await harness.page.evaluate(
    ([n, t]) =>
      (window as unknown as { vita: { convert(n: string, t: string): Promise<Converted> } }).vita.convert(
        n,
        t,
      ),
    [name, type] as const,
  );
  return { ...result, bytes: new Uint8Array(Buffer.from(result.base64, 'base64')) };
}

async function convertPhoto(format: PhotoFormat, width: number, height: number, orientation = 1) {
  const name = `${format}-${width}x${height}-o${orientation}.${EXTENSION[format]}`;
  return convert(name, await makePhoto(format, width, height, orientation), MIME[format]);
}

describe('imageToLetterPdf in Chromium (worker raster)', () => {
  it.each([
    ['jpeg', 4032, 3024],
    ['jpeg', 1080, 1920],
    ['png', 2400, 1800],
    ['png', 320, 240],
    ['webp', 1800, 2600],
    ['webp', 640, 480],
    ['bmp', 1000, 700],
    ['bmp', 1900, 2100],
  ] as const)('%s %i×%i → one fitted, centred Letter page, ≤ 1700 px', async (format, width, height) => {
    const result = await convertPhoto(format, width, height);
    expect(result).toMatchObject({ same: false, type: 'application/pdf', warnings: [] });
    expect(result.name).toBe(`${format}-${width}x${height}-o1.pdf`);
    await expectLetterPdf(result.bytes, { width, height });
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('honours EXIF orientation %i (JPEG, PNG, WebP)', async (orientation) => {
    // How an orientation is read depends on the format (Chromium's decoder for each), not on the
    // size; the scaling down of a photo over 1700 px and its turn meet once, on the camera's format:
    // three formats at a small size and one at a large one find what all six did in about half the time.
    for (const format of ['jpeg', 'png', 'webp'] as const) {
      const small = await convertPhoto(format, 600, 900, orientation);
      await expectLetterPdf(small.bytes, { width: 600, height: 900 });
    }
    const large = await convertPhoto('jpeg', 2000, 1500, orientation);
    await expectLetterPdf(large.bytes, { width: 2000, height: 1500 });
  });

  it('embeds a small upright JPEG as it is', async () => {
    const original = await makePhoto('jpeg', 1600, 1200);
    const result = await convert('small.jpg', original, 'image/jpeg');
    await expectLetterPdf(result.bytes, { width: 1600, height: 1200 });
    expect(Buffer.from((await inspectPdf(result.bytes)).jpeg).equals(Buffer.from(original))).toBe(true);
  });

  it('passes HEIC through untouched', async () => {
    const heic = fakeHeic();
    for (const [name, type] of [
      ['IMG_0001.HEIC', 'image/heic'],
      ['IMG_0002.heif', 'image/heif'],
      ['IMG_0003.jpg', 'image/jpeg'],
    ] as const) {
      const result = await convert(name, heic, type);
      expect(result).toMatchObject({ same: true, name, type, warnings: [] });
      expect(Buffer.from(result.bytes).equals(Buffer.from(heic))).toBe(true);
    }
  });

  it('a file Chromium cannot decode is returned as it was, with a warning', async () => {
    const broken = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const result = await convert('broken.png', broken, 'image/png');
    expect(result).toMatchObject({ same: true, name: 'broken.png' });
    expect(result.warnings).toHaveLength(1);
    // The worker survives a failure.
    await expectLetterPdf((await convertPhoto('png', 400, 300)).bytes, { width: 400, height: 300 });
  });
});
