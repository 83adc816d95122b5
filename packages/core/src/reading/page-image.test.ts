import { describe, expect, it } from 'vitest';
import { pgmOf, pgmRgba, straightenedGray } from './page-image.js';

/** A grey photo: a light page (x0..x1, y0..y1) with a dark ink bar, on a dark desk. */
function photo(width: number, height: number, page: [number, number, number, number]) {
  const gray = new Uint8Array(width * height).fill(60);
  const [x0, y0, x1, y1] = page;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const ink = y > y0 + (y1 - y0) * 0.3 && y < y0 + (y1 - y0) * 0.35 && x > x0 + 20 && x < x1 - 20;
      gray[y * width + x] = ink ? 20 : 235;
    }
  return { gray, width, height };
}

describe('the page as OCR reads it', () => {
  it('reads back to opaque grey RGBA pixels, and nothing from other bytes', () => {
    const pgm = pgmOf({ gray: Uint8Array.of(0, 128, 255, 7), width: 2, height: 2 });
    const read = pgmRgba(pgm);
    expect(read && { ...read, data: [...read.data] }).toEqual({
      width: 2,
      height: 2,
      data: [0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255, 7, 7, 7, 255],
    });
    expect(pgmRgba(Uint8Array.of(0xff, 0xd8, 0xff))).toBeUndefined();
  });

  it('is a binary PGM of the grey bytes', () => {
    const pgm = pgmOf({ gray: Uint8Array.of(0, 128, 255, 7), width: 2, height: 2 });
    expect(new TextDecoder().decode(pgm.subarray(0, 11))).toBe('P5\n2 2\n255\n');
    expect([...pgm.subarray(11)]).toEqual([0, 128, 255, 7]);
  });

  it('is the page cut out of the desk it was photographed on', () => {
    const big = photo(800, 1000, [160, 150, 640, 850]);
    const small = photo(400, 500, [80, 75, 320, 425]);
    const page = straightenedGray(big, small, { minSide: 0, maxSide: 2000 });
    expect(Math.abs(page.width - 480)).toBeLessThan(20);
    expect(Math.abs(page.height - 700)).toBeLessThan(20);
    // No desk left around it: the corners are paper.
    expect(page.gray[0]).toBeGreaterThan(200);
    expect(page.gray[page.width * page.height - 1]).toBeGreaterThan(200);
  });

  it('is enlarged when small, so its print is big enough to read', () => {
    const page = straightenedGray(
      photo(800, 1000, [160, 150, 640, 850]),
      photo(400, 500, [80, 75, 320, 425]),
      { minSide: 1400, maxSide: 2000 },
    );
    expect(Math.abs(page.height - 1400)).toBeLessThan(2);
  });
});
