/**
 * The page as OCR reads it: found in the photo, straightened, grey, and written as a PGM. The
 * browser cannot hand tesseract raw pixels, only an image file; a PGM is a header before the grey
 * bytes, so writing one costs nothing beside encoding a PNG, and leptonica reads it without a codec.
 */
import { findOutline, straightenPixels } from '../straighten/page.js';

/** A grey picture: one byte a pixel, row by row. */
export interface GrayImage {
  gray: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}

/** `image` as a binary PGM (`P5`). */
export function pgmOf(image: GrayImage): Uint8Array {
  const head = new TextEncoder().encode(`P5\n${image.width} ${image.height}\n255\n`);
  const out = new Uint8Array(head.length + image.width * image.height);
  out.set(head, 0);
  out.set(image.gray.subarray(0, image.width * image.height), head.length);
  return out;
}

/**
 * The page of `photo` straightened (the whole photo when no page is found in `small`, a grey copy
 * of the same photo of the quality check's size), its longest side at most `maxSide`. A page
 * photographed at an angle is read far worse than the same page flat: its lines are not straight.
 */
export function straightenedGray(
  photo: GrayImage,
  small: GrayImage & { gray: Uint8Array },
  maxSide: number,
): GrayImage {
  const { corners } = findOutline(small.gray, small.width, small.height);
  const page = straightenPixels(
    { data: photo.gray, width: photo.width, height: photo.height, channels: 1 },
    corners,
    maxSide,
  );
  return { gray: page.data, width: page.width, height: page.height };
}
