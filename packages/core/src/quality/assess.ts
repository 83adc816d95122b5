/**
 * The quality check of a captured page: is it too dark, washed out, blurry, blank or too small to
 * read? The pixel work (decode, a grey sample of at most 512 px, the metrics) runs in the raster
 * port — a Web Worker in browsers, sharp in Node; the decision is made here from the numbers. The thresholds
 * come from the calibration set in `test/calibration-set.ts` (see `calibration-first.test.ts` and `calibration-second.test.ts`).
 */
import type { FileLike } from '../ports.js';
import { readImageSource } from '../pdf/letter-pdf.js';
import type { ImageCheckPort } from '../pdf/raster.js';
import { QUALITY_SAMPLE_SIDE } from './metrics.js';
import type { GrayMetrics } from './metrics.js';
import { GLARE_MIN_SHARE } from '../straighten/page.js';
import type { PageOutline } from '../straighten/page.js';

/** What can be wrong with a photo of a page; `qualityWarningMessage` gives each its text. */
export type QualityWarning =
  'tooDark' | 'washedOut' | 'blurry' | 'blank' | 'tooSmall' | 'glare' | 'edgesNotFound';

/** The metrics of the grey copy and the size of the photo itself (upright or not: only the long side matters). */
export interface ImageMetrics extends GrayMetrics {
  width: number;
  height: number;
  /** When the page was looked for: the outline found in the (stored, not upright) sample. */
  outline?: PageOutline;
  /** When the page was looked for: the share of the page its largest blown-out patch covers. */
  glare?: number;
}

/** The warnings (the most useful first) and the numbers they were decided on. */
export interface ImageAssessment {
  warnings: QualityWarning[];
  metrics: ImageMetrics;
}

/**
 * Where each warning starts, chosen on the calibration set (`calibration-*.test.ts` print the worst
 * good and bad values in Node, `pnpm bench` in Chromium) in the gap between the good photos and the
 * bad ones, grey levels 0–255 on the 512 px sample (a 12 MP photo's 504 px one, see `copySize`):
 * - too dark: dark photos' paper stays below about 105, good photos' paper above 235;
 * - washed out: washed-out ink stays above about 180, good ink below 130;
 * - blurry: text blurred by a quarter of its x-height or more scores at most about 4.7, and a 12 MP
 *   photo, measured at the decoder's 1/8 (means of 8×8 blocks keep a little more of an edge than a
 *   shrink), at most 5.0 in Node and 5.25 in Chromium; sharp text of a whole page at least 6.4 in
 *   Chromium and 6.9 in Node: 5.6 is the middle of that gap. Text twice as large (a half-page form
 *   filling the frame) scores lower even when sharp, down to about 6 and 4.7 when slightly soft:
 *   the measure rewards thin strokes, so a close-up of large print may be called blurry;
 * - blank: a blank sheet has detail in under 1 % of its tiles, the sparsest note in 8 %;
 * - too small: under 1000 px on the long side, body text is a few pixels high once the page fills
 *   the screen.
 */
export const QUALITY_THRESHOLDS = {
  minPaperLevel: 120,
  maxInkLevel: 150,
  minDetail: 0.025,
  minSharpness: 5.6,
  minLongSide: 1000,
} as const;

/**
 * The warnings for a set of metrics. At most one about the picture itself, the one to fix first: too
 * dark hides everything else, a blank page has no text to be blurry or faded, and blur fades ink by
 * itself; too small comes on top of any of them.
 */
export function qualityWarnings(metrics: ImageMetrics): QualityWarning[] {
  const t = QUALITY_THRESHOLDS;
  const warnings: QualityWarning[] = [];
  if (metrics.paperLevel < t.minPaperLevel) warnings.push('tooDark');
  else if (metrics.detail < t.minDetail) warnings.push('blank');
  else if (metrics.sharpness < t.minSharpness) warnings.push('blurry');
  else if (metrics.inkLevel > t.maxInkLevel) warnings.push('washedOut');
  if (Math.max(metrics.width, metrics.height) < t.minLongSide) warnings.push('tooSmall');
  // Glare hides text whatever else is wrong, except on a page too dark to judge.
  if (warnings[0] !== 'tooDark' && (metrics.glare ?? 0) >= GLARE_MIN_SHARE) warnings.unshift('glare');
  if (metrics.outline && !metrics.outline.corners && metrics.outline.reason) warnings.push('edgesNotFound');
  return warnings;
}

/**
 * Checks a photo of a page; with `page`, the page found in it (see `measurePagePixels`), and its
 * glare. Rejects when the image cannot be decoded (not an image, or HEIC where the
 * platform cannot read it — see `canConvertImage`).
 */
export async function assessImage(
  file: FileLike,
  ports: { raster: Pick<ImageCheckPort, 'measure'> },
  options: { page?: boolean } = {},
): Promise<ImageAssessment> {
  const { info } = await readImageSource(file);
  const metrics = await ports.raster.measure({
    file,
    format: info.format,
    width: info.width,
    height: info.height,
    maxSide: QUALITY_SAMPLE_SIDE,
    ...(options.page ? { page: true } : {}),
  });
  return { warnings: qualityWarnings(metrics), metrics };
}
