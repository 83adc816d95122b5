/**
 * The geometry of straightening a photographed page, plain and platform-free: the order of its four
 * corners, the perspective transform from the page's rectangle to the photo, the size of that
 * rectangle, and the choice to keep the whole photo when a found outline is not a page.
 */

/** A point in pixels of an image (x right, y down). */
export interface Point {
  x: number;
  y: number;
}

/** Four corners in the order top-left, top-right, bottom-right, bottom-left. */
export type Quad = readonly [Point, Point, Point, Point];

/**
 * The four corners of a page ordered top-left, top-right, bottom-right, bottom-left: clockwise around
 * their centre (y points down), starting at the one nearest the image's top-left. A page turned by
 * up to 45° keeps its corners' names.
 */
export function orderCorners(points: readonly Point[]): Quad {
  if (points.length !== 4) throw new RangeError(`a page has 4 corners, not ${points.length}`);
  const cx = points.reduce((sum, p) => sum + p.x, 0) / 4;
  const cy = points.reduce((sum, p) => sum + p.y, 0) / 4;
  // Clockwise on screen is increasing atan2 when y points down.
  const sorted = [...points].sort((a, b) => Math.atan2(a.y - cy, a.x - cx) - Math.atan2(b.y - cy, b.x - cx));
  let first = 0;
  sorted.forEach((p, i) => {
    const best = sorted[first] ?? p;
    if (p.x + p.y < best.x + best.y) first = i;
  });
  const at = (i: number): Point => ({ ...(sorted[(first + i) % 4] ?? { x: 0, y: 0 }) });
  return [at(0), at(1), at(2), at(3)];
}

/** A 3×3 projective transform, row-major, its last entry 1. */
export type Homography = readonly [number, number, number, number, number, number, number, number, number];

/**
 * The perspective transform taking the rectangle `width`×`height` (corners (0,0), (width,0),
 * (width,height), (0,height)) to the quad's corners in the same order: for each pixel of the
 * straightened page, where to read the photo.
 */
export function rectToQuad(quad: Quad, width: number, height: number): Homography {
  const [p0, p1, p2, p3] = quad;
  const dx1 = p1.x - p2.x;
  const dx2 = p3.x - p2.x;
  const dx3 = p0.x - p1.x + p2.x - p3.x;
  const dy1 = p1.y - p2.y;
  const dy2 = p3.y - p2.y;
  const dy3 = p0.y - p1.y + p2.y - p3.y;
  let g = 0;
  let h = 0;
  if (Math.abs(dx3) > 1e-9 || Math.abs(dy3) > 1e-9) {
    const det = dx1 * dy2 - dx2 * dy1;
    if (Math.abs(det) < 1e-12) throw new RangeError('the corners are in a line');
    g = (dx3 * dy2 - dx2 * dy3) / det;
    h = (dx1 * dy3 - dx3 * dy1) / det;
  }
  // Unit square → quad (Heckbert), then scaled from the rectangle to the unit square.
  const a = p1.x - p0.x + g * p1.x;
  const b = p3.x - p0.x + h * p3.x;
  const d = p1.y - p0.y + g * p1.y;
  const e = p3.y - p0.y + h * p3.y;
  return [a / width, b / height, p0.x, d / width, e / height, p0.y, g / width, h / height, 1];
}

/** Where the transform takes a point. */
export function project(m: Homography, x: number, y: number): Point {
  const w = m[6] * x + m[7] * y + m[8];
  return { x: (m[0] * x + m[1] * y + m[2]) / w, y: (m[3] * x + m[4] * y + m[5]) / w };
}

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/** Paper sizes a page's shape is snapped to when its outline is near them (long side over short). */
const PAPER_ASPECTS = [11 / 8.5, 14 / 8.5, 297 / 210] as const;
/** How far (relative) an outline's aspect may be from a paper size's and still be taken for it. */
const ASPECT_SNAP = 0.22;

/**
 * The size of the straightened page, its longest side `longest` pixels. A photo foreshortens the
 * page by its tilt, so the outline's own proportions are off by up to the cosine of the tilt (18 % at
 * 35°); a shape that near a paper size (Letter, Legal, A4) is taken to be that size, anything else
 * (a receipt, a card) keeps the outline's proportions.
 */
export function straightenedSize(quad: Quad, longest: number): { width: number; height: number } {
  const [tl, tr, br, bl] = quad;
  const across = (distance(tl, tr) + distance(bl, br)) / 2;
  const down = (distance(tl, bl) + distance(tr, br)) / 2;
  const tall = down >= across;
  let aspect = Math.max(across, down) / Math.max(1e-9, Math.min(across, down));
  const paper = PAPER_ASPECTS.reduce((best, a) =>
    Math.abs(a - aspect) < Math.abs(best - aspect) ? a : best,
  );
  if (Math.abs(paper - aspect) / paper <= ASPECT_SNAP) aspect = paper;
  const long = Math.max(1, Math.round(longest));
  const short = Math.max(1, Math.round(long / aspect));
  return tall ? { width: short, height: long } : { width: long, height: short };
}

/** Twice the signed area of a polygon (positive when clockwise on screen). */
function signedArea2(points: readonly Point[]): number {
  let sum = 0;
  points.forEach((a, i) => {
    const b = points[(i + 1) % points.length] ?? a;
    sum += a.x * b.y - b.x * a.y;
  });
  return sum;
}

/** The area of a quad (or any simple polygon), in square pixels. */
export function polygonArea(points: readonly Point[]): number {
  return Math.abs(signedArea2(points)) / 2;
}

/** The interior angle at each corner, in degrees; NaN-free only for a convex quad. */
function cornerAngles(quad: Quad): number[] {
  return quad.map((p, i) => {
    const prev = quad[(i + 3) % 4] ?? p;
    const next = quad[(i + 1) % 4] ?? p;
    const ax = prev.x - p.x;
    const ay = prev.y - p.y;
    const bx = next.x - p.x;
    const by = next.y - p.y;
    const cos = (ax * bx + ay * by) / Math.max(1e-9, Math.hypot(ax, ay) * Math.hypot(bx, by));
    return (Math.acos(Math.max(-1, Math.min(1, cos))) * 180) / Math.PI;
  });
}

/** Whether the quad is convex and turns one way (clockwise on screen, as `orderCorners` gives it). */
function isConvex(quad: Quad): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const a = quad[i % 4] ?? quad[0];
    const b = quad[(i + 1) % 4] ?? quad[0];
    const c = quad[(i + 2) % 4] ?? quad[0];
    const cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
    if (Math.abs(cross) < 1e-9) return false;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return sign > 0;
}

/**
 * What is asked of an outline before the photo is cropped to it. Each bound keeps a page whose
 * outline was not really found from being cut: a photo whose page tilts 35° and turns 30° still
 * has corners between 45° and 135° and fills at least a tenth of the frame; the page and what it lies
 * on differ by at least `minContrast` grey levels.
 */
const OUTLINE_RULES = {
  minAreaShare: 0.1,
  /** An outline nearly the whole frame is the frame: nothing to crop. */
  maxAreaShare: 0.97,
  minAngle: 45,
  maxAngle: 135,
  /** How far outside the frame a corner may lie, as a share of the frame's side. */
  outside: 0.02,
  minContrast: 24,
} as const;

/** Why the whole photo is kept; `null` when the outline is a page to crop to. */
export type KeepWholeReason = 'notFound' | 'lowContrast' | 'notAPage';

/**
 * Whether to crop to an outline found in a `width`×`height` photo, the page `contrast` grey levels
 * apart from its surroundings: only when everything says it is the page; otherwise the whole photo
 * is kept, never a crop that could cut the page.
 */
export function keepWholeReason(
  quad: Quad | null,
  width: number,
  height: number,
  contrast: number,
): KeepWholeReason | null {
  if (!quad) return 'notFound';
  if (!(contrast >= OUTLINE_RULES.minContrast)) return 'lowContrast';
  if (!isConvex(quad)) return 'notAPage';
  const share = polygonArea(quad) / (width * height);
  if (share < OUTLINE_RULES.minAreaShare || share > OUTLINE_RULES.maxAreaShare) return 'notAPage';
  const angles = cornerAngles(quad);
  if (angles.some((a) => a < OUTLINE_RULES.minAngle || a > OUTLINE_RULES.maxAngle)) return 'notAPage';
  const mx = OUTLINE_RULES.outside * width;
  const my = OUTLINE_RULES.outside * height;
  if (quad.some((p) => p.x < -mx || p.y < -my || p.x > width + mx || p.y > height + my)) return 'notAPage';
  return null;
}

/** The quad scaled from a `width`×`height` image to shares of its sides (0–1), or back with 1/width. */
export function scaleQuad(quad: Quad, sx: number, sy: number): Quad {
  const [a, b, c, d] = quad;
  const at = (p: Point): Point => ({ x: p.x * sx, y: p.y * sy });
  return [at(a), at(b), at(c), at(d)];
}
