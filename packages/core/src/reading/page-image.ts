/**
 * The page as OCR reads it: found in the photo, straightened, grey, and written as a PGM. The
 * browser cannot hand tesseract raw pixels, only an image file; a PGM is a header before the grey
 * bytes, so writing one costs nothing beside encoding a PNG, and leptonica reads it without a codec.
 */
import { scaleQuad, straightenedSize } from '../straighten/geometry.js';
import { findOutline, straightenPixels } from '../straighten/page.js';
import { warpPerspective } from '../straighten/warp.js';

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

/** RGBA pixels (opaque), as the barcode reader takes them. */
interface Rgba {
  data: Uint8ClampedArray<ArrayBuffer>;
  width: number;
  height: number;
}

/** `image`'s grey as opaque RGBA pixels, for the barcode reader. */
function grayRgba(image: GrayImage): Rgba {
  const { width, height, gray } = image;
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0, p = 0; i < width * height; i++, p += 4) {
    const v = gray[i] ?? 255;
    data[p] = v;
    data[p + 1] = v;
    data[p + 2] = v;
    data[p + 3] = 255;
  }
  return { data, width, height };
}

/**
 * The RGBA pixels of a PGM that {@link pgmOf} wrote (a scanned PDF's page), for the barcode reader:
 * neither the browser nor zxing decodes a PGM itself. Undefined for anything else.
 */
export function pgmRgba(pgm: Uint8Array): Rgba | undefined {
  const head = /^P5\n(\d+) (\d+)\n255\n/.exec(new TextDecoder().decode(pgm.subarray(0, 32)));
  if (!head) return undefined;
  const width = Number(head[1]);
  const height = Number(head[2]);
  // Only a PGM whose bytes are all there, as pgmOf writes one: a file dropped for reading that
  // starts like one would otherwise have its header's size allocated, four bytes a pixel.
  if (pgm.length !== head[0].length + width * height) return undefined;
  return grayRgba({ gray: pgm.subarray(head[0].length, head[0].length + width * height), width, height });
}

/**
 * The page of `photo` straightened (the whole photo when no page is found in `small`, a grey copy
 * of the same photo of the quality check's size), its longest side between `minSide` and `maxSide`.
 * A page photographed at an angle is read far worse than the same page flat: its lines are not
 * straight. A small page (a card photographed whole, a page from afar) is enlarged: OCR reads print
 * best with letters some 20 pixels high, and the warp's interpolation gives it that for free.
 */
export function straightenedGray(
  photo: GrayImage,
  small: GrayImage & { gray: Uint8Array },
  sides: { minSide: number; maxSide: number },
): GrayImage {
  const { corners } = findOutline(small.gray, small.width, small.height);
  const source = { data: photo.gray, width: photo.width, height: photo.height, channels: 1 } as const;
  if (!corners) {
    const page = straightenPixels(source, null, sides.maxSide);
    return { gray: page.data, width: page.width, height: page.height };
  }
  const quad = scaleQuad(corners, photo.width, photo.height);
  const longest = Math.max(
    ...quad.map((p, i) => {
      const q = quad[(i + 1) % 4] ?? p;
      return Math.hypot(q.x - p.x, q.y - p.y);
    }),
  );
  const size = straightenedSize(quad, Math.min(sides.maxSide, Math.max(sides.minSide, longest)));
  const page = warpPerspective(source, quad, size.width, size.height);
  return { gray: page.data, width: page.width, height: page.height };
}
