// The quality warnings: the decision over metrics, their texts, and the check through the Node port.
// In Chromium (worker port): test/browser/capture.test.ts. Calibration: calibration-first.test.ts, calibration-second.test.ts.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { samplePhoto } from '../../test/page-photos.js';
import { encodeBmp, fakeHeic } from '../../test/images.js';
import { messages, qualityWarningMessage } from '../domain/messages.js';
import { canConvertImage } from '../pdf/can-convert.js';
import { isHeicFile } from '../pdf/convertible.js';
import { createSharpRaster } from '../pdf/raster.node.js';
import { createTestFile } from '../testing/index.js';
import { assessImage, qualityWarnings } from './assess.js';
import type { ImageMetrics } from './assess.js';

const raster = createSharpRaster();

/** The metrics of a sharp, well-lit 12 MP page. */
const GOOD: ImageMetrics = {
  width: 4032,
  height: 3024,
  meanLuminance: 200,
  paperLevel: 245,
  inkLevel: 40,
  laplacianVariance: 3000,
  detail: 0.3,
  sharpness: 8.5,
};

describe('qualityWarnings', () => {
  it('none for a sharp, well-lit page of 1000 px or more', () => {
    expect(qualityWarnings(GOOD)).toEqual([]);
    expect(qualityWarnings({ ...GOOD, width: 1000, height: 750 })).toEqual([]);
  });

  it('one warning per problem', () => {
    expect(qualityWarnings({ ...GOOD, paperLevel: 90 })).toEqual(['tooDark']);
    expect(qualityWarnings({ ...GOOD, inkLevel: 200 })).toEqual(['washedOut']);
    expect(qualityWarnings({ ...GOOD, sharpness: 3 })).toEqual(['blurry']);
    expect(qualityWarnings({ ...GOOD, detail: 0.004 })).toEqual(['blank']);
    expect(qualityWarnings({ ...GOOD, width: 999, height: 640 })).toEqual(['tooSmall']);
    expect(qualityWarnings({ ...GOOD, width: 640, height: 999 })).toEqual(['tooSmall']);
  });

  it('only the one to fix first about the picture: dark, then blank, then blurry, then washed out; small on top', () => {
    const everything = {
      ...GOOD,
      paperLevel: 90,
      detail: 0.004,
      sharpness: 3,
      inkLevel: 200,
      width: 800,
      height: 600,
    };
    expect(qualityWarnings(everything)).toEqual(['tooDark', 'tooSmall']);
    expect(qualityWarnings({ ...everything, paperLevel: 250 })).toEqual(['blank', 'tooSmall']);
    expect(qualityWarnings({ ...everything, paperLevel: 250, detail: 0.3 })).toEqual(['blurry', 'tooSmall']);
    expect(qualityWarnings({ ...everything, paperLevel: 250, detail: 0.3, sharpness: 8 })).toEqual([
      'washedOut',
      'tooSmall',
    ]);
  });

  it('each warning has its text in core messages', () => {
    expect(qualityWarningMessage('tooDark')).toBe('This photo looks too dark.');
    expect(qualityWarningMessage('washedOut')).toBe('This photo looks washed out.');
    expect(qualityWarningMessage('blurry')).toBe('This photo looks blurry.');
    expect(qualityWarningMessage('blank')).toBe('This page looks blank.');
    expect(qualityWarningMessage('tooSmall')).toBe('This photo is too small to read.');
    expect(messages.heicUploadedAsIs).toBe(
      'This HEIC photo is uploaded as is; this browser cannot convert it.',
    );
  });
});

describe('assessImage (Node port)', () => {
  const check = async (bytes: Uint8Array, name = 'page.jpg', type = 'image/jpeg') =>
    assessImage(createTestFile(name, bytes, type), { raster });

  it.each([
    ['ok', []],
    ['dark', ['tooDark']],
    ['washedOut', ['washedOut']],
    ['blurry', ['blurry']],
    ['blank', ['blank']],
  ] as const)('a %s page photographed at 12 MP gets %j', async (kind, warnings) => {
    const { warnings: got, metrics } = await check(await samplePhoto(kind, 4032, 3024));
    expect(got).toEqual(warnings);
    expect(metrics).toMatchObject({ width: 4032, height: 3024 });
  });

  it('a small photo is too small to read, whatever its orientation', async () => {
    const page = await samplePhoto('ok', 960, 720);
    expect((await check(page)).warnings).toEqual(['tooSmall']);
    const turned = await sharp(page).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    expect((await check(turned)).warnings).toEqual(['tooSmall']);
  });

  it('reads PNG with alpha, 16-bit PNG, WebP and BMP the same way as JPEG', async () => {
    const page = await samplePhoto('ok', 1600, 1200);
    const reference = (await check(page)).metrics;
    const { data, info } = await sharp(page)
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const variants = [
      ['page.png', await sharp(page).ensureAlpha().png().toBuffer(), 'image/png'],
      ['page16.png', await sharp(page).toColourspace('rgb16').png().toBuffer(), 'image/png'],
      ['page.webp', await sharp(page).webp({ quality: 95 }).toBuffer(), 'image/webp'],
      ['page.bmp', encodeBmp(data, info.width, info.height), 'image/bmp'],
    ] as const;
    for (const [name, bytes, type] of variants) {
      const { warnings, metrics } = await check(new Uint8Array(bytes), name, type);
      expect([name, warnings]).toEqual([name, []]);
      expect(metrics.paperLevel).toBeCloseTo(reference.paperLevel, -1);
      expect(metrics.sharpness / reference.sharpness).toBeCloseTo(1, 0);
    }
  });

  it('rejects what it cannot decode', async () => {
    await expect(
      check(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), 'broken.png', 'image/png'),
    ).rejects.toThrow();
    await expect(check(fakeHeic(), 'IMG_0001.HEIC', 'image/heic')).rejects.toThrow();
  });
});

describe('canConvertImage (Node port)', () => {
  it('yes for png, jpg, webp and bmp bytes; no for anything else', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    expect(await canConvertImage(createTestFile('a.png', png, 'image/png'), { raster })).toBe(true);
    expect(await canConvertImage(createTestFile('a.pdf', '%PDF-1.7', 'application/pdf'), { raster })).toBe(
      false,
    );
    expect(await canConvertImage(createTestFile('a.png', 'not a png', 'image/png'), { raster })).toBe(false);
  });

  it('HEIC only when sharp decodes it: the prebuilt binaries read AVIF, not the HEVC kind phones write', async () => {
    const heic = createTestFile('IMG_0001.HEIC', fakeHeic(), 'image/heic');
    expect(isHeicFile(heic)).toBe(true);
    expect(await canConvertImage(heic, { raster })).toBe(false);
    const avif = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#ccc' } })
      .avif()
      .toBuffer();
    const named = createTestFile('IMG_0002.heif', avif, 'image/heif');
    expect(await canConvertImage(named, { raster })).toBe(Boolean(sharp.format.heif?.input.buffer));
  });
});
