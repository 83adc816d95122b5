/** The pixel work of the converter, behind a port so a Worker, Node or anything else can do it. */
import type { FileLike } from '../ports.js';
import type { ImageFormat } from './image-info.js';

/** A turn clockwise, in degrees: how a person puts a photo the right way up. */
export type QuarterTurn = 0 | 90 | 180 | 270;

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
  /** Turned clockwise by this much after the EXIF orientation is applied; 0 when absent. */
  rotate?: QuarterTurn;
  /** The longest side of the result, at most (never scaled up). */
  maxSide: number;
  /** JPEG quality, 0–1. */
  quality: number;
}

/** An upright JPEG. */
export interface RasterResult {
  bytes: Uint8Array;
  width: number;
  height: number;
}

/**
 * Decodes an image, turns it upright per its EXIF orientation (then by `rotate`), scales it down so
 * its longest side is at most `maxSide`, flattens transparency onto white and encodes it as JPEG at
 * `quality`.
 */
export interface RasterPort {
  toJpeg(request: RasterRequest): Promise<RasterResult>;
}
