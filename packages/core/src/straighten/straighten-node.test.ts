import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createImageConverter, readImageSource } from '../pdf/letter-pdf.js';
import { createSharpRaster } from '../pdf/raster.node.js';
import { assessImage, qualityWarnings } from '../quality/assess.js';
import type { ImageMetrics } from '../quality/assess.js';

const SET = join(import.meta.dirname, '..', '..', 'bench', 'straighten-set', 'photos');
const raster = createSharpRaster();

async function photo(name: string): Promise<File> {
  return new File([await readFile(join(SET, name))], name, { type: 'image/jpeg' });
}

/** Mean grey of a band 2–3 % inside each edge: top, right, bottom, left. */
async function edgeGreys(jpeg: Uint8Array): Promise<number[]> {
  const { data, info } = await sharp(jpeg).greyscale().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const mean = (x0: number, y0: number, x1: number, y1: number) => {
    let sum = 0;
    let count = 0;
    for (let y = Math.floor(y0); y < Math.ceil(y1); y++)
      for (let x = Math.floor(x0); x < Math.ceil(x1); x++, count++) sum += data[y * width + x]!;
    return sum / count;
  };
  return [
    mean(0, height * 0.02, width, height * 0.03),
    mean(width * 0.97, 0, width * 0.98, height),
    mean(0, height * 0.97, width, height * 0.98),
    mean(width * 0.02, 0, width * 0.03, height),
  ];
}

async function straightened(name: string, crop: 'find' | 'whole') {
  const file = await photo(name);
  const { info } = await readImageSource(file);
  return raster.toJpeg({
    file,
    format: info.format,
    orientation: info.orientation,
    width: info.width,
    height: info.height,
    maxSide: 1700,
    quality: 0.82,
    crop: { mode: crop },
  });
}

describe('straightening in Node (sharp), the same detector as in browsers', () => {
  it('crops a page tilted on a dark table to the page alone, Letter-shaped', async () => {
    const result = await straightened('00-dark.jpg', 'find');
    expect(result.outline?.corners).not.toBeNull();
    expect(result.height / result.width).toBeCloseTo(11 / 8.5, 2);
    for (const grey of await edgeGreys(result.bytes)) expect(grey).toBeGreaterThan(170);
  });

  it('keeps the whole photo where the page cannot be told apart, and says why', async () => {
    const result = await straightened('07-white.jpg', 'find');
    expect(result.outline?.corners).toBeNull();
    expect(result.outline?.reason).not.toBeNull();
    expect([result.width, result.height]).toEqual([1280, 960]);
  });

  it('the converter straightens by default when asked to, and the whole photo stays the old behaviour', async () => {
    const file = await photo('00-dark.jpg');
    const found = await createImageConverter({ raster }, { crop: { mode: 'find' } })(file);
    const whole = await createImageConverter({ raster }, { crop: { mode: 'find' } })(file, {
      crop: { mode: 'whole' },
    });
    const plain = await createImageConverter({ raster })(file);
    expect(found.type).toBe('application/pdf');
    expect(whole.size).toBe(plain.size);
    expect(found.size).not.toBe(plain.size);
  });

  it('judges the page found: glare on the glare photo, the notice on the white one, nothing on a clean one', async () => {
    const warnings = async (name: string) =>
      (await assessImage(await photo(name), { raster }, { page: true })).warnings;
    expect(await warnings('01-wood.jpg')).toContain('glare');
    expect(await warnings('07-white.jpg')).toContain('edgesNotFound');
    expect(await warnings('00-dark.jpg')).toEqual([]);
  });

  it('gives the straightened page as pixels, for readers of the page', async () => {
    const file = await photo('00-dark.jpg');
    const { info } = await readImageSource(file);
    const page = await raster.pagePixels({
      file,
      format: info.format,
      orientation: info.orientation,
      width: info.width,
      height: info.height,
      maxSide: 800,
      quality: 1,
    });
    expect(page.data.length).toBe(page.width * page.height * 4);
    expect(Math.max(page.width, page.height)).toBeLessThanOrEqual(800);
    expect(page.outline.corners).not.toBeNull();
  });
});

describe('qualityWarnings of the page', () => {
  const clean: ImageMetrics = {
    meanLuminance: 200,
    paperLevel: 230,
    inkLevel: 30,
    laplacianVariance: 500,
    detail: 0.3,
    sharpness: 8,
    width: 3000,
    height: 4000,
  };

  it('warns of glare first, and notes a photo used whole', () => {
    expect(qualityWarnings({ ...clean, glare: 0.05 })).toEqual(['glare']);
    expect(qualityWarnings({ ...clean, glare: 0.001 })).toEqual([]);
    expect(qualityWarnings({ ...clean, outline: { corners: null, reason: 'lowContrast' } })).toEqual([
      'edgesNotFound',
    ]);
  });
});
