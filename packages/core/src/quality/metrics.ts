/**
 * What the quality check measures, in plain TypeScript over a small grey sample of a photo, so the
 * browser worker and Node compute the same numbers: the ports only decode a copy (see `copySize`);
 * turning it grey, shrinking it and measuring happen here. Everything is relative to 0–255 grey
 * levels on a sample whose longest side is at most {@link QUALITY_SAMPLE_SIDE} pixels.
 */

/**
 * The longest side of the grey sample the metrics are computed on. A copy a little smaller (see
 * {@link SAMPLE_SLACK}) is measured as it is: a 12 MP photo decoded at 1/8 in the JPEG decoder's DCT
 * (504×378), the cheapest decode there is, with no shrinking after it.
 */
export const QUALITY_SAMPLE_SIDE = 512;

/**
 * A copy this much under the sample side is measured as it is, not decoded at twice the size and
 * shrunk: 4032×3024 and 4000×3000 photos (504 and 500 px at 1/8) go the fast way, and the sample's
 * scale varies by at most 3 %, well inside what the thresholds tolerate.
 */
const SAMPLE_SLACK = 0.97;

/** Side of the square tiles detail is judged in, in pixels of the sample (a few lines of body text). */
const TILE = 16;
/** A tile holds detail when its mean squared gradient exceeds this (an rms step of 4 grey levels). */
const TILE_ENERGY = 16;
/**
 * A tile whose gradients all point one way (coherence above this) holds a single straight edge: the
 * border of a sheet on a desk, a fold, a shadow. Text has strokes in every direction.
 */
const TILE_LINE_COHERENCE = 0.6;

/** The numbers the quality warnings are decided on. */
export interface GrayMetrics {
  /** Mean grey level. */
  meanLuminance: number;
  /** The paper's grey level: the 95th percentile. Low when the photo is too dark. */
  paperLevel: number;
  /** The ink's grey level: the 0.1st percentile. High when the photo is washed out. */
  inkLevel: number;
  /** Variance of the (4-neighbour) Laplacian over the whole sample: the textbook blur measure. */
  laplacianVariance: number;
  /**
   * Edge density: the share of tiles with text-like edges (strong, in several directions). Near 0
   * for a blank sheet, even one photographed on a desk with its border in view.
   */
  detail: number;
  /**
   * Variance of the Laplacian over the gradient energy, in the tiles with detail. Unlike the bare
   * variance it does not depend on contrast or on how much text the page has; it falls as the photo
   * gets blurrier. 0 when nothing has detail.
   */
  sharpness: number;
}

/** Percentiles of a 256-bin histogram of `count` values. */
function percentile(histogram: Uint32Array, count: number, fraction: number): number {
  const target = Math.max(1, Math.ceil(fraction * count));
  let seen = 0;
  for (let level = 0; level < 256; level++) {
    seen += histogram[level] ?? 0;
    if (seen >= target) return level;
  }
  return 255;
}

/**
 * Measures a grey image, `width`×`height` bytes, top row first; with `inside` (1 for each pixel of
 * the page) only the page's pixels and the tiles wholly on it count.
 */
export function measureGray(
  gray: Uint8Array,
  width: number,
  height: number,
  inside?: Uint8Array,
): GrayMetrics {
  if (width < 3 || height < 3 || gray.length < width * height)
    throw new RangeError(`need at least 3×3 grey pixels, got ${width}×${height}`);
  const histogram = new Uint32Array(256);
  let sum = 0;
  let count = 0;
  for (let i = 0; i < width * height; i++) {
    if (inside && !inside[i]) continue;
    const value = gray[i] ?? 0;
    histogram[value] = (histogram[value] ?? 0) + 1;
    sum += value;
    count++;
  }
  if (count === 0) return measureGray(gray, width, height);

  // One pass over the inner pixels: the Laplacian, the gradient, and per tile the structure tensor
  // (gx², gy², gx·gy) that tells text from a single straight edge.
  // Whole tiles only; the few pixels left over at the right and bottom count for the Laplacian alone.
  const tilesX = Math.floor((width - 2) / TILE);
  const tilesY = Math.floor((height - 2) / TILE);
  const tiles = tilesX * tilesY;
  const xx = new Float64Array(tiles);
  const yy = new Float64Array(tiles);
  const xy = new Float64Array(tiles);
  const lap = new Float64Array(tiles);
  let lapSum = 0;
  let lapSquares = 0;
  for (let y = 1; y < height - 1; y++) {
    const tileY = Math.floor((y - 1) / TILE);
    const tileRow = tileY * tilesX;
    for (let x = 1, at = y * width + 1; x < width - 1; x++, at++) {
      if (inside && !inside[at]) continue;
      const centre = gray[at] ?? 0;
      const left = gray[at - 1] ?? 0;
      const right = gray[at + 1] ?? 0;
      const up = gray[at - width] ?? 0;
      const down = gray[at + width] ?? 0;
      const laplacian = left + right + up + down - 4 * centre;
      const gx = (right - left) / 2;
      const gy = (down - up) / 2;
      lapSum += laplacian;
      lapSquares += laplacian * laplacian;
      const tileX = Math.floor((x - 1) / TILE);
      if (tileX >= tilesX || tileY >= tilesY) continue;
      const tile = tileRow + tileX;
      xx[tile] = (xx[tile] ?? 0) + gx * gx;
      yy[tile] = (yy[tile] ?? 0) + gy * gy;
      xy[tile] = (xy[tile] ?? 0) + gx * gy;
      lap[tile] = (lap[tile] ?? 0) + laplacian * laplacian;
    }
  }
  const inner = inside ? Math.max(1, count) : (width - 2) * (height - 2);

  let detailTiles = 0;
  let detailLaplacian = 0;
  let detailGradient = 0;
  for (let tile = 0; tile < tiles; tile++) {
    const a = xx[tile] ?? 0;
    const b = yy[tile] ?? 0;
    const c = xy[tile] ?? 0;
    const energy = a + b;
    if (inside && !tileInside(inside, width, tile, tilesX)) continue;
    if (energy / (TILE * TILE) <= TILE_ENERGY) continue;
    const coherence = ((a - b) * (a - b) + 4 * c * c) / (energy * energy);
    if (coherence > TILE_LINE_COHERENCE) continue;
    detailTiles++;
    detailLaplacian += lap[tile] ?? 0;
    detailGradient += energy;
  }

  const lapMean = lapSum / inner;
  const judged = inside ? countTilesInside(inside, width, tiles, tilesX) : tiles;
  return {
    meanLuminance: sum / count,
    paperLevel: percentile(histogram, count, 0.95),
    inkLevel: percentile(histogram, count, 0.001),
    laplacianVariance: lapSquares / inner - lapMean * lapMean,
    detail: judged ? detailTiles / judged : 0,
    sharpness: detailGradient > 0 ? detailLaplacian / detailGradient : 0,
  };
}

/** Whether a tile's four corners are on the page. */
function tileInside(inside: Uint8Array, width: number, tile: number, tilesX: number): boolean {
  const left = 1 + (tile % tilesX) * TILE;
  const top = 1 + Math.floor(tile / tilesX) * TILE;
  const right = left + TILE - 1;
  const bottom = top + TILE - 1;
  return Boolean(
    inside[top * width + left] &&
    inside[top * width + right] &&
    inside[bottom * width + left] &&
    inside[bottom * width + right],
  );
}

function countTilesInside(inside: Uint8Array, width: number, tiles: number, tilesX: number): number {
  let count = 0;
  for (let tile = 0; tile < tiles; tile++) if (tileInside(inside, width, tile, tilesX)) count++;
  return count;
}

/**
 * How colour pixels are laid out when not RGB(A): a decoder's own frames are often BGRX, blue first
 * and a fourth byte that is padding, not alpha.
 */
export interface PixelOrder {
  /** Blue, green, red (BGR, BGRA, BGRX) rather than red first. */
  blueFirst?: boolean;
  /** The fourth byte is padding (RGBX, BGRX): every pixel is opaque. */
  opaque?: boolean;
}

/**
 * Grey levels (Rec. 601 luma, what JPEG stores) of interleaved pixels with 1 to 4 channels: grey,
 * grey + alpha, RGB or RGBA (or, by `order`, BGR, BGRA, RGBX, BGRX). Transparent pixels count as
 * white paper.
 */
export function grayFromPixels(
  data: Uint8Array | Uint8ClampedArray,
  channels: number,
  order: PixelOrder = {},
): Uint8Array {
  if (!Number.isInteger(channels) || channels < 1 || channels > 4)
    throw new RangeError(`1 to 4 channels, not ${channels}`);
  const count = Math.floor(data.length / channels);
  if (channels === 1) return Uint8Array.from(data.subarray(0, count));
  const gray = new Uint8Array(count);
  const colour = channels >= 3;
  const alpha = (channels === 2 || channels === 4) && !order.opaque;
  const [first, third] = order.blueFirst ? [29, 77] : [77, 29];
  // Integer weights (×256) keep this loop cheap: it runs for every photo checked.
  for (let i = 0, at = 0; i < count; i++, at += channels) {
    const r = data[at] ?? 0;
    let value = colour ? (first * r + 150 * (data[at + 1] ?? 0) + third * (data[at + 2] ?? 0) + 128) >> 8 : r;
    if (alpha) {
      const opacity = data[at + channels - 1] ?? 255;
      if (opacity < 255) value = (value * opacity + 255 * (255 - opacity) + 127) / 255;
    }
    gray[i] = value;
  }
  return gray;
}

/**
 * A grey image shrunk so its longest side is at most `maxSide`, each new pixel the mean of the old
 * pixels it covers (those at its edges weighted by how much of them it covers): the last step for the
 * copy a port hands over (see {@link copySize}), shared so that both ports end with the same filter.
 */
export function shrinkGray(
  gray: Uint8Array,
  width: number,
  height: number,
  maxSide = QUALITY_SAMPLE_SIDE,
): { gray: Uint8Array; width: number; height: number } {
  const target = sampleSize(width, height, maxSide);
  if (target.width === width && target.height === height) return { gray, width, height };
  const across = areaWeights(width, target.width);
  const down = areaWeights(height, target.height);
  // Rows first into a float buffer, then columns; flat typed arrays keep both loops tight.
  const rows = new Float32Array(target.width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0, at = 0; x < target.width; x++) {
      let sum = 0;
      for (let k = 0; k < across.taps; k++, at++)
        sum += (gray[row + (across.index[at] ?? 0)] ?? 0) * (across.weight[at] ?? 0);
      rows[y * target.width + x] = sum;
    }
  }
  const out = new Uint8Array(target.width * target.height);
  for (let y = 0; y < target.height; y++) {
    const first = y * down.taps;
    for (let x = 0; x < target.width; x++) {
      let sum = 0;
      for (let k = 0; k < down.taps; k++)
        sum += (rows[(down.index[first + k] ?? 0) * target.width + x] ?? 0) * (down.weight[first + k] ?? 0);
      out[y * target.width + x] = Math.round(sum);
    }
  }
  return { gray: out, ...target };
}

/**
 * For each of `to` new pixels, the `taps` old pixels (of `from`) it covers and their weights, which
 * sum to 1; unused taps point at pixel 0 with weight 0.
 */
function areaWeights(from: number, to: number): { taps: number; index: Int32Array; weight: Float32Array } {
  const scale = from / to;
  const taps = Math.ceil(scale) + 1;
  const index = new Int32Array(to * taps);
  const weight = new Float32Array(to * taps);
  for (let i = 0; i < to; i++) {
    const start = i * scale;
    const end = start + scale;
    for (let j = Math.floor(start), k = 0; j < Math.min(from, Math.ceil(end)) && k < taps; j++, k++) {
      index[i * taps + k] = j;
      weight[i * taps + k] = (Math.min(end, j + 1) - Math.max(start, j)) / scale;
    }
  }
  return { taps, index, weight };
}

/** The size of a `width`×`height` image with its longest side at most `side`, never enlarged. */
function sampleSize(
  width: number,
  height: number,
  side = QUALITY_SAMPLE_SIDE,
): { width: number; height: number } {
  const scale = Math.min(1, side / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * The least a larger copy is shrunk by: shrinking by a little blurs by where each new pixel falls
 * (half-way between two old ones, it is their mean), which reads as blur to the sharpness measure.
 */
const LEAST_SHRINK = 1.5;

/**
 * The size a port hands its copy over at: the photo at 1/8 when that is the sample itself (at most
 * `maxSide`, at least that less {@link SAMPLE_SLACK}), else at the smallest of 1/4, 1/2 or 1 that is
 * at least {@link LEAST_SHRINK} times it — exactly what a JPEG decoder does in its DCT, so sharp's
 * shrink-on-load and a browser's `ImageDecoder` give the same pixels. Only 1/8 is measured as it is:
 * it is the means of 8×8 blocks, as a shrink would make them, while the decoder's 1/4 and 1/2 smooth
 * more (a close-up's sharp text: 5.7 off the decoder's 1/4, 6.4 off its 1/2 shrunk by 2).
 * {@link shrinkGray} then takes a larger copy to the sample size, the same way in both ports.
 */
export function copySize(
  width: number,
  height: number,
  maxSide = QUALITY_SAMPLE_SIDE,
): { width: number; height: number } {
  const least = Math.ceil(maxSide * SAMPLE_SLACK);
  const longest = Math.max(width, height);
  let divisor = 8;
  for (; divisor > 1; divisor /= 2) {
    const side = Math.ceil(longest / divisor);
    if ((divisor === 8 && side >= least && side <= maxSide) || side >= LEAST_SHRINK * maxSide) break;
  }
  return { width: Math.ceil(width / divisor), height: Math.ceil(height / divisor) };
}

/**
 * The shared end of both ports: interleaved pixels (1–4 channels, in `order`) of the copy, made grey,
 * shrunk to the sample size (when larger) and measured.
 */
export function measurePixels(
  pixels: Uint8Array | Uint8ClampedArray,
  channels: number,
  width: number,
  height: number,
  maxSide = QUALITY_SAMPLE_SIDE,
  order: PixelOrder = {},
): GrayMetrics {
  const sample = shrinkGray(grayFromPixels(pixels, channels, order), width, height, maxSide);
  return measureGray(sample.gray, sample.width, sample.height);
}
