/**
 * The straightened page, platform-free: the outline found in a grey copy (as shares of the photo's
 * sides, so any size of the same photo can be cropped by it), the grey copy straightened for the
 * quality check, and the glare on it.
 */
import { findPage } from './find-page.js';
import { scaleQuad, straightenedSize } from './geometry.js';
import type { KeepWholeReason, Quad } from './geometry.js';
import { warpPerspective } from './warp.js';
import type { Pixels } from './warp.js';

/**
 * Which part of a photo becomes the page: `find` the page's edges, the `whole` photo, or the given
 * `corners` (top-left, top-right, bottom-right, bottom-left, as shares 0–1 of the upright photo's
 * width and height, e.g. from `Adjust corners`).
 */
export type PageCrop = { mode: 'find' } | { mode: 'whole' } | { mode: 'corners'; corners: Quad };

/** The outline a photo was cropped by. */
export interface PageOutline {
  /** The page's corners as shares of the photo's sides (0–1); null when the whole photo was kept. */
  corners: Quad | null;
  /** Why the whole photo was kept (`null` when it was cropped, or the person chose). */
  reason: KeepWholeReason | null;
}

/** Finds the page in a grey copy and gives its outline as shares of the copy's sides. */
export function findOutline(gray: Uint8Array, width: number, height: number): PageOutline {
  const search = findPage(gray, width, height);
  return {
    corners: search.quad ? scaleQuad(search.quad, 1 / width, 1 / height) : null,
    reason: search.reason,
  };
}

/** The corners a crop asks for, in shares of the photo (null: the whole photo), finding them in `gray` if asked. */
export function resolveCrop(
  crop: PageCrop | undefined,
  gray: () => { gray: Uint8Array; width: number; height: number },
): PageOutline {
  if (!crop || crop.mode === 'whole') return { corners: null, reason: null };
  if (crop.mode === 'corners') return { corners: crop.corners, reason: null };
  const copy = gray();
  return findOutline(copy.gray, copy.width, copy.height);
}

/**
 * The page of `source` inside `corners` (shares of its sides) straightened, its longest side at
 * most `maxSide` and never longer than the page is in the source; `source` itself when `corners` is
 * null and it fits.
 */
export function straightenPixels(source: Pixels, corners: Quad | null, maxSide: number): Pixels {
  if (!corners) return source;
  const quad = scaleQuad(corners, source.width, source.height);
  const [tl, tr, br, bl] = quad;
  const longestSide = Math.max(
    Math.hypot(tr.x - tl.x, tr.y - tl.y),
    Math.hypot(br.x - bl.x, br.y - bl.y),
    Math.hypot(bl.x - tl.x, bl.y - tl.y),
    Math.hypot(br.x - tr.x, br.y - tr.y),
  );
  const size = straightenedSize(quad, Math.min(maxSide, longestSide));
  return warpPerspective(source, quad, size.width, size.height);
}

/** A pixel is glare at or above this grey level (blown out: no ink shows through it). */
const GLARE_LEVEL = 248;
/** ...and this far above the paper's own level, so a page shot bright all over is not glare. */
const GLARE_ABOVE_PAPER = 6;
/** Paper this bright all over is blown out as a whole (washed out), with no patch to tell apart. */
const GLARE_PAPER_LIMIT = 249;

/**
 * The share of the page covered by its largest blown-out patch: grey at least {@link GLARE_LEVEL}
 * and clearly brighter than the paper around it (its median). `inside` marks the page's pixels; all
 * of them without it.
 */
export function glareShare(gray: Uint8Array, width: number, height: number, inside?: Uint8Array): number {
  const histogram = new Uint32Array(256);
  let count = 0;
  for (let i = 0; i < width * height; i++) {
    if (inside && !inside[i]) continue;
    const value = gray[i] ?? 0;
    histogram[value] = (histogram[value] ?? 0) + 1;
    count++;
  }
  let seen = 0;
  let median = 255;
  for (let level = 0; level < 256; level++) {
    seen += histogram[level] ?? 0;
    if (seen >= count / 2) {
      median = level;
      break;
    }
  }
  const level = Math.max(GLARE_LEVEL, median + GLARE_ABOVE_PAPER);
  if (median >= GLARE_PAPER_LIMIT || count === 0) return 0;
  const bright = (i: number) => (gray[i] ?? 0) >= level && (!inside || inside[i] === 1);
  const visited = new Uint8Array(gray.length);
  const stack = new Int32Array(gray.length);
  let largest = 0;
  for (let start = 0; start < width * height; start++) {
    if (visited[start] || !bright(start)) continue;
    let top = 0;
    let size = 0;
    stack[top++] = start;
    visited[start] = 1;
    while (top > 0) {
      const at = stack[--top] ?? 0;
      size++;
      const x = at % width;
      for (const n of [x > 0 ? at - 1 : -1, x < width - 1 ? at + 1 : -1, at - width, at + width]) {
        if (n < 0 || n >= width * height || visited[n] || !bright(n)) continue;
        visited[n] = 1;
        stack[top++] = n;
      }
    }
    largest = Math.max(largest, size);
  }
  return largest / count;
}

/** 1 for each pixel of a `width`×`height` image whose centre lies inside the (clockwise, convex) quad. */
export function quadMask(quad: Quad, width: number, height: number): Uint8Array {
  const mask = new Uint8Array(width * height);
  const sides = quad.map((a, i) => {
    const b = quad[(i + 1) % 4] ?? a;
    return { ax: a.x, ay: a.y, dx: b.x - a.x, dy: b.y - a.y };
  });
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const px = x + 0.5;
      const py = y + 0.5;
      if (sides.every((s) => s.dx * (py - s.ay) - s.dy * (px - s.ax) >= 0)) mask[y * width + x] = 1;
    }
  return mask;
}

/**
 * The share of a page a glare patch must cover to be warned of: about a paragraph of a Letter page
 * (a patch a sixth of the page wide).
 */
export const GLARE_MIN_SHARE = 0.012;
