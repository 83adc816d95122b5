// The quality metrics over grey pixels made here, without any decoder.
import { describe, expect, it } from 'vitest';
import { copySize, grayFromPixels, measureGray, measurePixels, shrinkGray } from './metrics.js';

const W = 320;
const H = 240;

function fill(value: number, width = W, height = H): Uint8Array {
  return new Uint8Array(width * height).fill(value);
}

/** Letter-like marks: short strokes in all directions and small rings, in lines like text. */
function textLike(ink = 30, paper = 240, seed = 7): Uint8Array {
  const gray = fill(paper);
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const dot = (x: number, y: number) => {
    if (x >= 0 && y >= 0 && x < W && y < H) gray[Math.round(y) * W + Math.round(x)] = ink;
  };
  for (let base = 14; base < H - 8; base += 10) {
    for (let x = 8; x < W - 12; x += 5) {
      if (random() < 0.15) continue; // a space between words
      const kind = Math.floor(random() * 3);
      for (let t = 0; t <= 1; t += 0.1) {
        if (kind === 0)
          dot(x + 1, base - 6 * t); // a stem
        else if (kind === 1)
          dot(x + 3 * t, base - 5 * t); // a diagonal
        else dot(x + 1.5 + 1.5 * Math.cos(t * 2 * Math.PI), base - 2.5 + 2.5 * Math.sin(t * 2 * Math.PI)); // a bowl
      }
    }
  }
  return gray;
}

/** Three box blurs of radius r: close to a Gaussian of σ ≈ r. */
function blur(gray: Uint8Array, radius: number): Uint8Array {
  let current = Float64Array.from(gray);
  for (let pass = 0; pass < 6; pass++) {
    const horizontal = pass % 2 === 0;
    const next = new Float64Array(current.length);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        let sum = 0;
        let n = 0;
        for (let d = -radius; d <= radius; d++) {
          const sx = horizontal ? x + d : x;
          const sy = horizontal ? y : y + d;
          if (sx < 0 || sy < 0 || sx >= W || sy >= H) continue;
          sum += current[sy * W + sx]!;
          n++;
        }
        next[y * W + x] = sum / n;
      }
    }
    current = next;
  }
  return Uint8Array.from(current, Math.round);
}

describe('measureGray', () => {
  it('a flat grey has no detail, no Laplacian and paper = ink = mean', () => {
    expect(measureGray(fill(200), W, H)).toEqual({
      meanLuminance: 200,
      paperLevel: 200,
      inkLevel: 200,
      laplacianVariance: 0,
      detail: 0,
      sharpness: 0,
    });
  });

  it('paper is the 95th percentile, ink the 0.1st, from the histogram', () => {
    const gray = fill(230);
    gray.fill(20, 0, Math.round(W * H * 0.01)); // 1 % ink
    gray.fill(255, W * H - Math.round(W * H * 0.02)); // 2 % glare
    const metrics = measureGray(gray, W, H);
    expect(metrics.inkLevel).toBe(20);
    expect(metrics.paperLevel).toBe(230);
    expect(metrics.meanLuminance).toBeCloseTo(0.01 * 20 + 0.97 * 230 + 0.02 * 255, 0);
  });

  it('text has detail; one straight edge, like a sheet on a desk, has none', () => {
    expect(measureGray(textLike(), W, H).detail).toBeGreaterThan(0.5);
    // The sheet's edge, tilted by about 17° and anti-aliased as a camera sees it.
    const sheet = new Uint8Array(W * H);
    const [nx, ny] = [-0.29, 0.957];
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const inside = Math.min(1, Math.max(0, nx * x + ny * (y - 60) + 0.5));
        sheet[y * W + x] = Math.round(60 + 175 * inside);
      }
    }
    const desk = measureGray(sheet, W, H);
    expect(desk.detail).toBe(0);
    expect(desk.laplacianVariance).toBeGreaterThan(0);
  });

  it('sharpness falls as the text is blurred, and does not depend on contrast', () => {
    const sharp = measureGray(textLike(), W, H).sharpness;
    const soft = measureGray(blur(textLike(), 1), W, H).sharpness;
    const blurred = measureGray(blur(textLike(), 2), W, H).sharpness;
    expect(sharp).toBeGreaterThan(soft);
    expect(soft).toBeGreaterThan(blurred);
    expect(sharp / blurred).toBeGreaterThan(3);
    // Half the contrast: a quarter of the Laplacian's variance, the same sharpness.
    const strong = measureGray(textLike(30, 240), W, H);
    const faint = measureGray(textLike(135, 240), W, H);
    expect(faint.laplacianVariance / strong.laplacianVariance).toBeCloseTo(0.25, 1);
    expect(faint.sharpness / strong.sharpness).toBeCloseTo(1, 1);
  });

  it('needs at least 3×3 pixels', () => {
    expect(() => measureGray(fill(0, 2, 2), 2, 2)).toThrow(RangeError);
    expect(() => measureGray(new Uint8Array(5), 3, 3)).toThrow(RangeError);
    expect(measureGray(fill(9, 3, 3), 3, 3)).toMatchObject({ detail: 0, sharpness: 0, inkLevel: 9 });
  });
});

describe('grayFromPixels', () => {
  it('takes grey, grey + alpha, RGB and RGBA; transparency reads as white paper', () => {
    expect([...grayFromPixels(new Uint8Array([0, 128, 255]), 1)]).toEqual([0, 128, 255]);
    expect([...grayFromPixels(new Uint8Array([0, 255, 0, 0]), 2)]).toEqual([0, 255]);
    expect([...grayFromPixels(new Uint8Array([255, 0, 0, 0, 255, 0, 0, 0, 255]), 3)]).toEqual([77, 149, 29]);
    expect([
      ...grayFromPixels(new Uint8ClampedArray([10, 10, 10, 255, 10, 10, 10, 0, 0, 0, 0, 128]), 4),
    ]).toEqual([10, 255, 127]);
    expect(() => grayFromPixels(new Uint8Array(4), 5)).toThrow(RangeError);
  });

  it("reads a decoder's own frames: blue first, and a fourth byte that is padding", () => {
    // Pure red, green, blue, then a grey whose padding byte is 0.
    const bgrx = new Uint8Array([0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 0, 10, 10, 10, 0]);
    expect([...grayFromPixels(bgrx, 4, { blueFirst: true, opaque: true })]).toEqual([77, 149, 29, 10]);
    const rgbx = new Uint8Array([255, 0, 0, 7, 10, 10, 10, 0]);
    expect([...grayFromPixels(rgbx, 4, { opaque: true })]).toEqual([77, 10]);
    const bgra = new Uint8Array([255, 0, 0, 255, 10, 10, 10, 0]);
    expect([...grayFromPixels(bgra, 4, { blueFirst: true })]).toEqual([29, 255]);
  });
});

describe('the copy the ports hand over and its shrinking', () => {
  it('the copy is the photo at 1/8 when that is the sample, else at 1/4, 1/2 or 1 as long as it is 1.5× the sample', () => {
    // 12 MP photos: 1/8 is the sample, measured as it is.
    expect(copySize(4032, 3024)).toEqual({ width: 504, height: 378 });
    expect(copySize(3024, 4032)).toEqual({ width: 378, height: 504 });
    expect(copySize(4000, 3000)).toEqual({ width: 500, height: 375 });
    // 1/4 would be the sample too, but the decoder's 1/4 smooths more than its 1/8 (8×8 means):
    // 1/2, shrunk by 2, as the thresholds were set on.
    expect(copySize(2048, 1536)).toEqual({ width: 1024, height: 768 });
    expect(copySize(1275, 1650)).toEqual({ width: 638, height: 825 });
    expect(copySize(3264, 2448)).toEqual({ width: 816, height: 612 });
    // Not 600 px (a shrink by 1.17 blurs): the whole photo.
    expect(copySize(1200, 900)).toEqual({ width: 1200, height: 900 });
    expect(copySize(480, 360)).toEqual({ width: 480, height: 360 });
    expect(copySize(12000, 9000)).toEqual({ width: 1500, height: 1125 });
  });

  it('shrinks it to 512 px, each new pixel the mean of what it covers', () => {
    const checks = (width: number, height: number) =>
      new Uint8Array(width * height).map((_, i) => (((i % width) + Math.floor(i / width)) % 2 ? 200 : 100));
    const shrunk = shrinkGray(checks(1024, 768), 1024, 768);
    expect([shrunk.width, shrunk.height]).toEqual([512, 384]);
    expect(new Set(shrunk.gray)).toEqual(new Set([150]));
    const odd = shrinkGray(checks(1008, 756), 1008, 756);
    expect([odd.width, odd.height]).toEqual([512, 384]);
    expect(odd.gray.reduce((a, b) => Math.min(a, b))).toBeGreaterThanOrEqual(146);
    expect(odd.gray.reduce((a, b) => Math.max(a, b))).toBeLessThanOrEqual(154);
    expect(shrinkGray(new Uint8Array(500 * 400), 500, 400).width).toBe(500);
  });

  it('measurePixels is grey, shrink and measure in one; a copy no larger than the sample is measured as it is', () => {
    const copy = new Uint8Array(504 * 378 * 4).map(
      (_, i) => ((i * 2654435761) >>> 24) | (i % 4 === 3 ? 255 : 0),
    );
    expect(measurePixels(copy, 4, 504, 378, 512, { blueFirst: true, opaque: true })).toEqual(
      measureGray(grayFromPixels(copy, 4, { blueFirst: true, opaque: true }), 504, 378),
    );
    const rgba = new Uint8ClampedArray(1008 * 756 * 4).map((_, i) => (i % 4 === 3 ? 255 : 180));
    expect(measurePixels(rgba, 4, 1008, 756)).toEqual(
      measureGray(new Uint8Array(512 * 384).fill(180), 512, 384),
    );
  });
});
