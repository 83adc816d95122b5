// Capture in real Chromium with the worker port: the multi-page scan and the quarter turn, the quality
// check (the same warnings as the Node port, close metrics), and the HEIC question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePhoto } from '../page-photos.js';
import { fakeHeic, makePhoto } from '../images.js';
import { inspectPdfPages } from '../pdf-inspect.js';
import { expectLetterPage, expectLetterPdf } from '../pdf-expect.js';
import { createSharpRaster } from '../../src/pdf/raster.node.js';
import { assessImage } from '../../src/quality/assess.js';
import type { ImageAssessment } from '../../src/quality/assess.js';
import { createTestFile } from '../../src/testing/index.js';
import { startBrowserHarness } from './harness.js';
import type { BrowserHarness } from './harness.js';

type Turn = 0 | 90 | 180 | 270;
interface Page {
  vita: {
    convert(name: string, type: string, rotate?: Turn): Promise<{ base64: string }>;
    scan(pages: [string, string, Turn][]): Promise<{ name: string; base64: string }>;
    assess(name: string, type: string): Promise<ImageAssessment>;
    canConvert(name: string, type: string): Promise<boolean>;
  };
}

let harness: BrowserHarness;
beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(async () => {
  await harness?.close();
});

const bytesOf = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'));

describe('capture in Chromium (worker port)', () => {
  it('one PDF of several photos, in order, each page turned by its own quarter turn', async () => {
    harness.fixtures.set('wide.jpg', await makePhoto('jpeg', 2000, 1500, 6));
    harness.fixtures.set('tall.png', await makePhoto('png', 900, 1400));
    harness.fixtures.set('small.jpg', await makePhoto('jpeg', 1200, 800));
    const result = await harness.page.evaluate((pages) => (window as unknown as Page).vita.scan(pages), [
      ['wide.jpg', 'image/jpeg', 90],
      ['tall.png', 'image/png', 0],
      ['small.jpg', 'image/jpeg', 270],
      ['small.jpg', 'image/jpeg', 0],
    ] as [string, string, Turn][]);
    expect(result.name).toBe('wide.pdf');
    const pages = await inspectPdfPages(bytesOf(result.base64));
    expect(pages).toHaveLength(4);
    await expectLetterPage(pages[0]!, { width: 2000, height: 1500 }, 90);
    await expectLetterPage(pages[1]!, { width: 900, height: 1400 });
    await expectLetterPage(pages[2]!, { width: 1200, height: 800 }, 270);
    await expectLetterPage(pages[3]!, { width: 1200, height: 800 });
    // A landscape photo turned a quarter is a portrait page.
    expect([pages[0]!.pageWidth, pages[0]!.pageHeight]).toEqual([612, 792]);
  });

  it('turns a single photo too, after its EXIF orientation (WebP, whose orientation Chromium ignores)', async () => {
    harness.fixtures.set('sideways.webp', await makePhoto('webp', 1800, 1200, 8));
    const result = await harness.page.evaluate(() =>
      (window as unknown as Page).vita.convert('sideways.webp', 'image/webp', 180),
    );
    await expectLetterPdf(bytesOf(result.base64), { width: 1800, height: 1200 }, 180);
  });

  it('the quality check in the worker gives the warnings the Node port gives, on close numbers', async () => {
    const raster = createSharpRaster();
    const photos = [
      ['ok.jpg', await samplePhoto('ok', 4032, 3024), 'image/jpeg'],
      ['dark.jpg', await samplePhoto('dark', 3024, 4032, 2), 'image/jpeg'],
      ['washed.jpg', await samplePhoto('washedOut', 2048, 1536, 3), 'image/jpeg'],
      ['blurry.jpg', await samplePhoto('blurry', 4032, 3024, 4), 'image/jpeg'],
      ['blank.jpg', await samplePhoto('blank', 1600, 1200, 5), 'image/jpeg'],
      ['small.jpg', await samplePhoto('ok', 960, 720, 6), 'image/jpeg'],
    ] as const;
    // Through createImageBitmap rather than the JPEG decoder's own downscale.
    const { default: sharp } = await import('sharp');
    const png = new Uint8Array(await sharp(photos[0][1]).resize(1800).png().toBuffer());
    for (const [name, bytes, type] of [...photos, ['ok.png', png, 'image/png'] as const]) {
      harness.fixtures.set(name, bytes);
      const browser = await harness.page.evaluate(([n, t]) => (window as unknown as Page).vita.assess(n, t), [
        name,
        type,
      ] as const);
      const node = await assessImage(createTestFile(name, bytes, type), { raster });
      expect([name, browser.warnings]).toEqual([name, node.warnings]);
      expect(browser.metrics.width).toBe(node.metrics.width);
      expect(Math.abs(browser.metrics.paperLevel - node.metrics.paperLevel), name).toBeLessThanOrEqual(8);
      expect(Math.abs(browser.metrics.inkLevel - node.metrics.inkLevel), name).toBeLessThanOrEqual(25);
      if (node.metrics.detail > 0.05) {
        expect(browser.metrics.sharpness / node.metrics.sharpness, name).toBeGreaterThan(0.75);
        expect(browser.metrics.sharpness / node.metrics.sharpness, name).toBeLessThan(1.33);
      }
    }
  });

  it('Chromium cannot convert HEIC: the photo is uploaded as is', async () => {
    harness.fixtures.set('IMG_0001.HEIC', fakeHeic());
    harness.fixtures.set('page.png', await makePhoto('png', 40, 30));
    const canConvert = (name: string, type: string) =>
      harness.page.evaluate(([n, t]) => (window as unknown as Page).vita.canConvert(n, t), [
        name,
        type,
      ] as const);
    expect(await canConvert('IMG_0001.HEIC', 'image/heic')).toBe(false);
    expect(await canConvert('page.png', 'image/png')).toBe(true);
  });
});
