/**
 * The quality check's numbers of the page rather than of the whole photo: the page found in the grey
 * sample, then only its pixels measured (the table around it is neither dark nor blank paper), and
 * the glare on it. The page is measured where it lies, not warped: resampling would soften the
 * strokes the sharpness measure reads.
 */
import { findOutline, glareShare, quadMask } from '../straighten/page.js';
import type { PageOutline } from '../straighten/page.js';
import { scaleQuad } from '../straighten/geometry.js';
import { grayFromPixels, measureGray, shrinkGray } from './metrics.js';
import type { GrayMetrics, PixelOrder } from './metrics.js';

/** The metrics of the page, the outline it was found by and the share of it glare covers. */
export interface PageMetrics extends GrayMetrics {
  outline: PageOutline;
  glare: number;
}

/** Like `measurePixels`, but of the page found in the sample (the whole sample when none is found). */
export function measurePagePixels(
  pixels: Uint8Array | Uint8ClampedArray,
  channels: number,
  width: number,
  height: number,
  maxSide: number,
  order: PixelOrder = {},
): PageMetrics {
  const sample = shrinkGray(grayFromPixels(pixels, channels, order), width, height, maxSide);
  const outline = findOutline(sample.gray, sample.width, sample.height);
  const inside = outline.corners
    ? quadMask(scaleQuad(outline.corners, sample.width, sample.height), sample.width, sample.height)
    : undefined;
  return {
    ...measureGray(sample.gray, sample.width, sample.height, inside),
    outline,
    glare: glareShare(sample.gray, sample.width, sample.height, inside),
  };
}
