import { describe, expect, it } from 'vitest';
import { findPage } from './find-page.js';
import type { Point, Quad } from './geometry.js';
import { GLARE_MIN_SHARE, glareShare, straightenPixels } from './page.js';

const W = 512;
const H = 384;

/** Whether p is inside the clockwise convex quad. */
function inside(quad: Quad, p: Point): boolean {
  return quad.every((a, i) => {
    const b = quad[(i + 1) % 4]!;
    return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) >= 0;
  });
}

/** A grey photo: the ground at `ground`, the page at `paper` inside `quad` with lines of dark "text". */
function photo(quad: Quad, ground: number, paper: number, glare?: Point): Uint8Array {
  const gray = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const p = { x: x + 0.5, y: y + 0.5 };
      let value = ground + ((x * 7 + y * 13) % 9);
      if (inside(quad, p)) {
        value = paper;
        // Text: short dark dashes every few rows, away from the page's edges.
        if (y % 6 < 2 && x % 9 < 6 && quad.every((c) => Math.hypot(c.x - x, c.y - y) > 40)) value = 40;
        if (glare && Math.hypot(x - glare.x, y - glare.y) < 26) value = 255;
      }
      gray[y * W + x] = value;
    }
  return gray;
}

const page: Quad = [
  { x: 150, y: 60 },
  { x: 380, y: 85 },
  { x: 400, y: 350 },
  { x: 110, y: 330 },
];

describe('findPage', () => {
  it('finds a tilted page on a dark table within 1 % of the diagonal', () => {
    const found = findPage(photo(page, 50, 225), W, H);
    expect(found.reason).toBeNull();
    const diagonal = Math.hypot(W, H);
    found.quad!.forEach((corner, i) => {
      expect(Math.hypot(corner.x - page[i]!.x, corner.y - page[i]!.y) / diagonal).toBeLessThan(0.01);
    });
  });

  it('keeps the whole photo of a white page on a white desk', () => {
    const found = findPage(photo(page, 222, 228), W, H);
    expect(found.quad).toBeNull();
    expect(found.reason).not.toBeNull();
  });

  it('keeps the whole photo of a page that fills the frame', () => {
    const full: Quad = [
      { x: 0, y: 0 },
      { x: W, y: 0 },
      { x: W, y: H },
      { x: 0, y: H },
    ];
    expect(findPage(photo(full, 50, 225), W, H).quad).toBeNull();
  });
});

describe('glareShare', () => {
  const straightened = (gray: Uint8Array) => {
    const found = findPage(gray, W, H);
    const corners = found.quad!.map((p) => ({ x: p.x / W, y: p.y / H })) as unknown as Quad;
    return straightenPixels({ data: gray, width: W, height: H, channels: 1 }, corners, 512);
  };

  it('finds a blown-out patch on the page', () => {
    const page2 = straightened(photo(page, 50, 225, { x: 260, y: 200 }));
    expect(glareShare(page2.data as Uint8Array, page2.width, page2.height)).toBeGreaterThan(GLARE_MIN_SHARE);
  });

  it('finds none on an evenly lit page, even a bright one', () => {
    for (const paper of [225, 252]) {
      const page2 = straightened(photo(page, 50, paper));
      expect(glareShare(page2.data as Uint8Array, page2.width, page2.height)).toBeLessThan(GLARE_MIN_SHARE);
    }
  });
});
