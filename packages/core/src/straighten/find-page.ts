/**
 * Finds a photographed page's four corners in a small grey copy of the photo (the quality check's
 * ~512 px sample). Our own detector rather than `scanic`: it runs on the grey copy the worker and
 * sharp already make for the quality check, the same code in both (scanic wants Node 22, we support
 * 20), adds a few KB where scanic's WebAssembly adds about 100, and it is the same pass that tells
 * whether the page can be told apart at all, which decides the crop.
 *
 * How: a light blur, Otsu's threshold between paper and what it lies on, the bright region most like
 * a page, its convex hull, the largest quadrilateral in that hull, then each side refitted to the
 * region's edge points along it and the corners taken where the sides meet.
 */
import { keepWholeReason, orderCorners, polygonArea } from './geometry.js';
import type { KeepWholeReason, Point, Quad } from './geometry.js';

/** What was found in the grey copy. */
export interface PageSearch {
  /** The page's corners in pixels of the copy; null when the whole photo is to be kept. */
  quad: Quad | null;
  /** Why the whole photo is kept; null when `quad` is the page. */
  reason: KeepWholeReason | null;
  /** Grey levels between the paper and what it lies on. */
  contrast: number;
}

/** A box blur of radius `r`, by running sums (rows, then columns). */
function boxBlur(gray: Uint8Array, width: number, height: number, r: number): Uint8Array {
  const tmp = new Uint8Array(width * height);
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let sum = 0;
    for (let x = -r; x <= r; x++) sum += gray[row + Math.min(width - 1, Math.max(0, x))] ?? 0;
    for (let x = 0; x < width; x++) {
      tmp[row + x] = sum / (2 * r + 1);
      sum += (gray[row + Math.min(width - 1, x + r + 1)] ?? 0) - (gray[row + Math.max(0, x - r)] ?? 0);
    }
  }
  for (let x = 0; x < width; x++) {
    let sum = 0;
    for (let y = -r; y <= r; y++) sum += tmp[Math.min(height - 1, Math.max(0, y)) * width + x] ?? 0;
    for (let y = 0; y < height; y++) {
      out[y * width + x] = sum / (2 * r + 1);
      sum +=
        (tmp[Math.min(height - 1, y + r + 1) * width + x] ?? 0) - (tmp[Math.max(0, y - r) * width + x] ?? 0);
    }
  }
  return out;
}

/** Otsu's threshold of a histogram, and the means of the two classes it splits. */
function otsu(gray: Uint8Array): { threshold: number; low: number; high: number } {
  const histogram = new Float64Array(256);
  for (const value of gray) histogram[value] = (histogram[value] ?? 0) + 1;
  const total = gray.length;
  let sumAll = 0;
  for (let i = 0; i < 256; i++) sumAll += i * (histogram[i] ?? 0);
  let weightLow = 0;
  let sumLow = 0;
  let best = { threshold: 127, between: -1, low: 0, high: 255 };
  for (let t = 0; t < 255; t++) {
    weightLow += histogram[t] ?? 0;
    sumLow += t * (histogram[t] ?? 0);
    const weightHigh = total - weightLow;
    if (weightLow === 0 || weightHigh === 0) continue;
    const low = sumLow / weightLow;
    const high = (sumAll - sumLow) / weightHigh;
    const between = weightLow * weightHigh * (low - high) ** 2;
    if (between > best.between) best = { threshold: t, between, low, high };
  }
  return best;
}

/** A connected bright region: its pixels (indices) and whether it touches the frame. */
interface Region {
  pixels: Int32Array;
  size: number;
}

/** The bright regions (4-connected) of a mask, the largest first, at most `keep` of them. */
function regions(mask: Uint8Array, width: number, height: number, keep: number): Region[] {
  const label = new Int32Array(width * height);
  const stack = new Int32Array(width * height);
  const found: Region[] = [];
  let next = 1;
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || label[start]) continue;
    let top = 0;
    let size = 0;
    stack[top++] = start;
    label[start] = next;
    const members: number[] = [];
    while (top > 0) {
      const at = stack[--top] ?? 0;
      members.push(at);
      size++;
      const x = at % width;
      const neighbours = [x > 0 ? at - 1 : -1, x < width - 1 ? at + 1 : -1, at - width, at + width];
      for (const n of neighbours) {
        if (n < 0 || n >= mask.length || !mask[n] || label[n]) continue;
        label[n] = next;
        stack[top++] = n;
      }
    }
    next++;
    found.push({ pixels: Int32Array.from(members), size });
  }
  found.sort((a, b) => b.size - a.size);
  return found.slice(0, keep);
}

/**
 * The region with its holes filled (text, form boxes and rules are holes in the paper): the pixels
 * not reachable from the frame's edge without crossing it. Its size, and its outer edge pixels
 * (those with a 4-neighbour outside, or on the frame's edge).
 */
function filledOutline(region: Region, width: number, height: number): { size: number; edges: Point[] } {
  const total = width * height;
  const inside = new Uint8Array(total);
  for (const at of region.pixels) inside[at] = 1;
  // 2: outside, reached from the frame's edge over pixels that are not the region.
  const stack = new Int32Array(total);
  let top = 0;
  const seed = (at: number) => {
    if (!inside[at]) {
      inside[at] = 2;
      stack[top++] = at;
    }
  };
  for (let x = 0; x < width; x++) {
    seed(x);
    seed((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    seed(y * width);
    seed(y * width + width - 1);
  }
  while (top > 0) {
    const at = stack[--top] ?? 0;
    const x = at % width;
    for (const n of [x > 0 ? at - 1 : -1, x < width - 1 ? at + 1 : -1, at - width, at + width])
      if (n >= 0 && n < total && !inside[n]) {
        inside[n] = 2;
        stack[top++] = n;
      }
  }
  const points: Point[] = [];
  let size = 0;
  for (let at = 0; at < total; at++) {
    if (inside[at] === 2) continue;
    size++;
    const x = at % width;
    const y = (at - x) / width;
    if (
      x === 0 ||
      y === 0 ||
      x === width - 1 ||
      y === height - 1 ||
      inside[at - 1] === 2 ||
      inside[at + 1] === 2 ||
      inside[at - width] === 2 ||
      inside[at + width] === 2
    )
      points.push({ x: x + 0.5, y: y + 0.5 });
  }
  return { size, edges: points };
}

/** Andrew's monotone chain: the convex hull, clockwise on screen. */
function convexHull(points: Point[]): Point[] {
  const sorted = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (sorted.length < 3) return sorted;
  const cross = (o: Point, a: Point, b: Point) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const lower: Point[] = [];
  for (const p of sorted) {
    while (lower.length >= 2 && cross(lower[lower.length - 2] ?? p, lower[lower.length - 1] ?? p, p) <= 0)
      lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (const p of sorted.reverse()) {
    while (upper.length >= 2 && cross(upper[upper.length - 2] ?? p, upper[upper.length - 1] ?? p, p) <= 0)
      upper.pop();
    upper.push(p);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

/** The largest quadrilateral with its corners among the hull's points: started at the extremes, then each corner moved while the area grows. */
function largestQuad(hull: Point[]): Point[] {
  const extreme = (dx: number, dy: number) =>
    hull.reduce((best, p) => (p.x * dx + p.y * dy > best.x * dx + best.y * dy ? p : best));
  const corners = [extreme(-1, -1), extreme(1, -1), extreme(1, 1), extreme(-1, 1)];
  for (let round = 0; round < 8; round++) {
    let moved = false;
    for (let i = 0; i < 4; i++) {
      let best = corners[i] ?? hull[0];
      let bestArea = polygonArea(corners);
      for (const p of hull) {
        const trial = corners.map((c, j) => (j === i ? p : c));
        const area = polygonArea(trial);
        if (area > bestArea + 1e-6) {
          bestArea = area;
          best = p;
        }
      }
      if (best && best !== corners[i]) {
        corners[i] = best;
        moved = true;
      }
    }
    if (!moved) break;
  }
  return corners;
}

/** A line through points (total least squares): a point on it and its unit direction. */
interface Line {
  px: number;
  py: number;
  dx: number;
  dy: number;
}

function fitLine(points: Point[]): Line | null {
  if (points.length < 6) return null;
  let mx = 0;
  let my = 0;
  for (const p of points) {
    mx += p.x;
    my += p.y;
  }
  mx /= points.length;
  my /= points.length;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (const p of points) {
    sxx += (p.x - mx) ** 2;
    syy += (p.y - my) ** 2;
    sxy += (p.x - mx) * (p.y - my);
  }
  const angle = Math.atan2(2 * sxy, sxx - syy) / 2;
  return { px: mx, py: my, dx: Math.cos(angle), dy: Math.sin(angle) };
}

function intersect(a: Line, b: Line): Point | null {
  const det = a.dx * b.dy - a.dy * b.dx;
  if (Math.abs(det) < 1e-6) return null;
  const t = ((b.px - a.px) * b.dy - (b.py - a.py) * b.dx) / det;
  return { x: a.px + t * a.dx, y: a.py + t * a.dy };
}

/**
 * Each side refitted to the edge points near it (away from the corners, where the blur rounds
 * them), twice, the second time closer in; the corners where the fitted sides meet. Where a side
 * cannot be fitted the corners stay as they were.
 */
function refine(quad: Quad, edges: Point[], width: number, height: number): Quad {
  let current: Quad = quad;
  for (const band of [0.02, 0.008]) {
    const reach = band * Math.hypot(width, height);
    const lines: Line[] = [];
    for (let i = 0; i < 4; i++) {
      const a = current[i] ?? current[0];
      const b = current[(i + 1) % 4] ?? current[0];
      const length = Math.hypot(b.x - a.x, b.y - a.y);
      const ux = (b.x - a.x) / length;
      const uy = (b.y - a.y) / length;
      const near = edges.filter((p) => {
        const along = ((p.x - a.x) * ux + (p.y - a.y) * uy) / length;
        const across = Math.abs((p.x - a.x) * uy - (p.y - a.y) * ux);
        // Points on the frame's edge are where the photo ends, not where the page does.
        const onFrame = p.x < 1 || p.y < 1 || p.x > width - 1 || p.y > height - 1;
        return along > 0.12 && along < 0.88 && across <= reach && !onFrame;
      });
      const line = fitLine(near);
      if (!line) return current;
      lines.push(line);
    }
    const corners: Point[] = [];
    for (let i = 0; i < 4; i++) {
      const corner = intersect(lines[(i + 3) % 4] ?? lines[0] ?? ({} as Line), lines[i] ?? ({} as Line));
      const before = current[i] ?? current[0];
      // A corner that jumps far is a fit gone wrong (a side with few points): keep the old one.
      if (!corner || Math.hypot(corner.x - before.x, corner.y - before.y) > 0.05 * Math.hypot(width, height))
        return current;
      corners.push(corner);
    }
    current = orderCorners(corners);
  }
  return current;
}

/** The share of its quad a region (holes filled) covers when it is a page. */
const MIN_FILL = 0.9;
/** How much larger than its quad a region's hull may be: a page's hull is its quad. */
const MAX_HULL_OVER_QUAD = 1.06;

/**
 * Finds the page in a grey copy `width`×`height` (row by row): its corners, or why the whole photo is
 * kept. Only a bright page on a darker ground can be found; a white page on a white desk cannot.
 */
export function findPage(gray: Uint8Array, width: number, height: number): PageSearch {
  const blurred = boxBlur(gray, width, height, Math.max(1, Math.round(Math.max(width, height) / 256)));
  const { threshold, low, high } = otsu(blurred);
  const contrast = high - low;
  // Otsu's split first; then splits nearer the paper's own level, for grounds with light patches
  // (a checked cloth, a pale wood grain) that Otsu joins to the page.
  const paper = levelAt(blurred, 0.97);
  const thresholds = [threshold, (threshold + paper) / 2, paper - 24].filter(
    (t, i, all) => t > low && all.indexOf(t) === i,
  );
  // The first split that gives a page wins: a higher one only shrinks it.
  let best: { quad: Quad; area: number; edges: Point[] } | null = null;
  for (const t of thresholds) {
    best = pageRegion(blurred, width, height, t);
    if (best) break;
  }
  if (!best) return { quad: null, reason: 'notFound', contrast };
  const quad = refine(best.quad, best.edges, width, height);
  // A region along three sides of the frame is the ground around a page, or the page seen too close.
  const reason = keepWholeReason(quad, width, height, contrast) ?? touchesFrame(best.edges, width, height);
  return { quad: reason ? null : quad, reason, contrast };
}

/** The grey level below which `fraction` of the pixels lie. */
function levelAt(gray: Uint8Array, fraction: number): number {
  const histogram = new Uint32Array(256);
  for (const value of gray) histogram[value] = (histogram[value] ?? 0) + 1;
  let seen = 0;
  for (let level = 0; level < 256; level++) {
    seen += histogram[level] ?? 0;
    if (seen >= fraction * gray.length) return level;
  }
  return 255;
}

/** The bright region above `threshold` most like a page (filled, its hull its quad), the largest such. */
function pageRegion(
  blurred: Uint8Array,
  width: number,
  height: number,
  threshold: number,
): { quad: Quad; area: number; edges: Point[] } | null {
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) mask[i] = (blurred[i] ?? 0) > threshold ? 1 : 0;
  let best: { quad: Quad; area: number; edges: Point[] } | null = null;
  for (const region of regions(mask, width, height, 3)) {
    if (region.size < 0.05 * width * height) break;
    const { size, edges } = filledOutline(region, width, height);
    const hull = convexHull(edges);
    if (hull.length < 4) continue;
    const quad = orderCorners(largestQuad(hull));
    const area = polygonArea(quad);
    if (area <= 0 || size < MIN_FILL * area || polygonArea(hull) > MAX_HULL_OVER_QUAD * area) continue;
    if (!best || area > best.area) best = { quad, area, edges };
  }
  return best;
}

/** `notAPage` when the region runs along three or more sides of the frame for a quarter of their length. */
function touchesFrame(edges: Point[], width: number, height: number): KeepWholeReason | null {
  const counts = [
    edges.filter((p) => p.x < 1).length,
    edges.filter((p) => p.x > width - 1).length,
    edges.filter((p) => p.y < 1).length,
    edges.filter((p) => p.y > height - 1).length,
  ];
  const sides = [height, height, width, width].filter((length, i) => (counts[i] ?? 0) >= 0.25 * length);
  return sides.length >= 3 ? 'notAPage' : null;
}
