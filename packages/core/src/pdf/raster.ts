/** The pixel work of the converter, behind a port so a Worker, Node or anything else can do it. */
import type { FileLike } from '../ports.js';
import type { ImageMetrics } from '../quality/assess.js';
import type { PageCrop, PageOutline } from '../straighten/page.js';
import type { ImageFormat } from './image-info.js';

/** A turn clockwise, in degrees: how a person puts a photo the right way up. */
export type QuarterTurn = 0 | 90 | 180 | 270;

/** A turn after another quarter turn clockwise (90) or anticlockwise (-90). */
export function turnBy(rotate: QuarterTurn, by: 90 | -90): QuarterTurn {
  return ((rotate + by + 360) % 360) as QuarterTurn;
}

/** One image to decode, orient, scale and encode. */
export interface RasterRequest {
  /**
   * The image. In browsers a `Blob`/`File`, which a worker receives without copying; other
   * implementations read it with `arrayBuffer()`.
   */
  file: FileLike;
  /** The format found in the file's first bytes (its name and type may say otherwise). */
  format: ImageFormat;
  /** EXIF orientation (1–8) as read from the file, for decoders that do not apply it themselves. */
  orientation: number;
  /**
   * The stored size from the header, when known (JPEG): a decoder that can decode straight to a
   * fraction of the size (JPEG's n/8) then never holds the full 12 MP picture.
   */
  width?: number | null;
  height?: number | null;
  /** Turned clockwise by this much after the EXIF orientation is applied; 0 when absent. */
  rotate?: QuarterTurn;
  /** The longest side of the result, at most (never scaled up). */
  maxSide: number;
  /** JPEG quality, 0–1. */
  quality: number;
  /**
   * Which part of the upright photo becomes the page, straightened (before the turn); the whole
   * photo when absent. `maxSide` then bounds the straightened page.
   */
  crop?: PageCrop;
}

/** An upright JPEG. */
export interface RasterResult {
  bytes: Uint8Array;
  width: number;
  height: number;
  /** With a `crop`: the outline used, in shares of the upright photo (none: the whole photo). */
  outline?: PageOutline;
}

/** The straightened page's pixels, RGBA, upright and turned: what a reader of the page (OCR) wants. */
export interface PagePixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
  outline: PageOutline;
}

/**
 * The straightened page as pixels rather than JPEG, by the same request (`quality` is ignored):
 * for code that reads the page, such as OCR.
 */
export interface PagePixelsPort {
  pagePixels(request: RasterRequest): Promise<PagePixels>;
}

/**
 * Decodes an image, turns it upright per its EXIF orientation (then by `rotate`), scales it down so
 * its longest side is at most `maxSide`, flattens transparency onto white and encodes it as JPEG at
 * `quality`.
 */
export interface RasterPort {
  toJpeg(request: RasterRequest): Promise<RasterResult>;
}

/** One image to measure for the quality check. */
export interface MeasureRequest {
  file: FileLike;
  /** The format found in the file's first bytes. */
  format: ImageFormat;
  /**
   * The stored size from the header, when known (JPEG): a decoder that can decode straight to a
   * fraction of the size (JPEG's 1/2, 1/4, 1/8) then never holds the full 12 MP picture.
   */
  width: number | null;
  height: number | null;
  /** The longest side of the grey sample the metrics are computed on. */
  maxSide: number;
  /** Find the page first and measure only it, and its glare (see `measurePagePixels`). */
  page?: boolean;
}

/** One image the platform may or may not be able to decode. */
export interface DecodeRequest {
  file: FileLike;
  format: ImageFormat;
}

/**
 * The pixel work of the quality check and of the HEIC question, behind a port like {@link RasterPort}.
 * Orientation does not matter to the metrics, so it is not applied.
 */
export interface ImageCheckPort {
  /**
   * Decodes the image to a copy of `copySize` (a half, a quarter or an eighth of it, as a JPEG
   * decoder scales), measures it with `measurePixels` (grey, shrunk to `maxSide`, `measureGray`)
   * and adds the image's own size.
   */
  measure(request: MeasureRequest): Promise<ImageMetrics>;
  /** Whether this platform decodes the image (most browsers cannot decode HEIC). Never rejects. */
  canDecode(request: DecodeRequest): Promise<boolean>;
}
