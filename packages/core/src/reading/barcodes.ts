/**
 * PDF417 barcodes (an ID's back) read by zxing-wasm from pixels, for both readers. A card held a few
 * degrees turned slants the symbol's rows; zxing then finds the symbol but cannot decode it (a
 * third of the labelled set's ID backs), so such a symbol is read again from a level copy of its
 * area, turned a step at a time. A symbol zxing does not even find is not searched for blindly:
 * that would cost every page without a barcode (most of them) several more passes.
 */
import type { ReaderOptions, ReadResult } from 'zxing-wasm/reader';
import { warpPerspective, type Pixels } from '../straighten/warp.js';

/** What is asked of zxing: PDF417 only, the harder look, and symbols found but not decoded. */
export const PDF417_OPTIONS: ReaderOptions = {
  formats: ['PDF417'],
  tryHarder: true,
  textMode: 'Plain',
  returnErrors: true,
};

/** The turns tried, in degrees, nearest first: a symbol zxing finds is turned less than ten. */
const TURNS = [1.5, -1.5, 3, -3, 4.5, -4.5, 6, -6, 7.5, -7.5, 9, -9];
/** The area read again, around the symbol found: room for its quiet zone when turned. */
const MARGIN = { across: 1.15, down: 1.6 };
/** The level copy is enlarged: the turn's interpolation keeps thin modules apart. */
const ENLARGE = 2;

type Position = ReadResult['position'];
type Point = Position['topLeft'];

/**
 * The area around a symbol zxing found, with its margin, as seen from `pivot`: `before` and `after`
 * along its rows, `half` across them; and the slant (degrees) of a side zxing found whole. zxing
 * leaves a corner it did not find at 0,0 (a symbol whose right side it lost): the area then turns
 * about the side it has and reaches the picture's edge the other way. Undefined when too little
 * was found.
 */
function areaOf(position: Position, pixels: { width: number; height: number }) {
  const { topLeft, topRight, bottomRight, bottomLeft } = position;
  const found = (p: Point) => p.x !== 0 || p.y !== 0;
  const left = [topLeft, bottomLeft].every(found);
  const right = [topRight, bottomRight].every(found);
  if (!left && !right) return undefined;
  const mid = (a: Point, b: Point) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
  const [top, bottom] = left ? [topLeft, bottomLeft] : [topRight, bottomRight];
  // A found side runs down the rows' ends: its slant is the symbol's.
  const slant = (Math.atan2(bottom.x - top.x, bottom.y - top.y) * 180) / Math.PI;
  const half = (Math.hypot(bottom.x - top.x, bottom.y - top.y) / 2) * MARGIN.down;
  if (half < 2) return undefined;
  if (left && right) {
    const pivot = mid(mid(topLeft, bottomLeft), mid(topRight, bottomRight));
    const length = Math.hypot(topRight.x - topLeft.x, topRight.y - topLeft.y);
    const along = (length / 2) * MARGIN.across;
    return { pivot, before: along, after: along, half, slant };
  }
  const pivot = mid(top, bottom);
  const margin = half * (MARGIN.across - 1) * 4;
  return left
    ? { pivot, before: margin, after: pixels.width - pivot.x, half, slant }
    : { pivot, before: pivot.x, after: margin, half, slant };
}

/** zxing's reading of RGBA pixels, as the platform hands them to it. */
export type ReadPixels = (pixels: Pixels) => Promise<ReadResult[]>;

/** The texts of the PDF417 symbols in `pixels` (RGBA), read again level where slanted. */
export async function readPdf417(pixels: Pixels, read: ReadPixels): Promise<string[]> {
  const found = await read(pixels);
  const texts = found.filter((b) => b.isValid).map((b) => b.text);
  if (texts.length > 0) return texts;
  for (const symbol of found) {
    const area = areaOf(symbol.position, pixels);
    if (!area) continue;
    const { pivot, before, after, half, slant } = area;
    const width = Math.round((before + after) * ENLARGE);
    const height = Math.round(2 * half * ENLARGE);
    // The slant of the side zxing found first (either way: which way levels it depends on how the
    // side was measured); then the steps.
    const turns = Math.abs(slant) >= 1 ? [slant, -slant, ...TURNS] : TURNS;
    for (const degrees of turns) {
      const r = (degrees * Math.PI) / 180;
      const at = (dx: number, dy: number) => ({
        x: pivot.x + dx * Math.cos(r) - dy * Math.sin(r),
        y: pivot.y + dx * Math.sin(r) + dy * Math.cos(r),
      });
      const quad = [at(-before, -half), at(after, -half), at(after, half), at(-before, half)] as const;
      const level = await read(warpPerspective(pixels, quad, width, height));
      const texts = level.filter((b) => b.isValid).map((b) => b.text);
      if (texts.length > 0) return texts;
    }
  }
  return [];
}
