/**
 * A scanned PDF's first page as an image for OCR, without a canvas, for the Node reader and the
 * browser's reading worker alike (each hands in the pdf.js it loaded). A scanner writes each page as
 * one large image with no text: that image, decoded by pdf.js itself (JPEG, JBIG2, CCITT, Flate in
 * JavaScript), is the page. Drawing the page would need a native canvas in Node, which the packaged
 * kiosk cannot carry; taking the image needs none, in either.
 */
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFRef,
  PDFStream,
  type PDFObject,
} from 'pdf-lib';
import type * as PdfjsModule from 'pdfjs-dist';
import { pgmOf, type GrayImage } from './page-image.js';

/** What is used of pdf.js: its Node (legacy) build and its browser build both give it. */
type Pdfjs = Pick<typeof PdfjsModule, 'getDocument' | 'OPS'>;

/** The longest side handed to OCR: a letter page at some 300 dpi, plenty for print. */
const MAX_SIDE = 2500;
/** pdf.js decodes no image larger (in pixels; its RGBA copy is four bytes each): memory stays sane. */
const MAX_IMAGE_PIXELS = 60_000_000;

/**
 * The most pixels page 1's images may declare in all: a letter page at 600 dpi is 34 MP. pdf.js
 * decodes every image a page paints, at once and four bytes a pixel (more while decoding): a file
 * of a few hundred KB whose page paints a dozen 25 MP images (each under its cap) asked for
 * gigabytes. Such a page is left unread before anything decodes.
 */
const MAX_PAGE_IMAGE_PIXELS = 100_000_000;

/** pdf.js's `ImageKind`: how a decoded image's bytes are laid out. */
const GRAYSCALE_1BPP = 1;
const RGB_24BPP = 2;
const RGBA_32BPP = 3;

/**
 * A decoded image as pdf.js hands it over when told not to use OffscreenCanvas or ImageDecoder (a
 * browser's worker has both, and would otherwise hand over an ImageBitmap, whose pixels only a canvas
 * gives back).
 */
interface DecodedImage {
  width: number;
  height: number;
  kind: number;
  data: Uint8Array | Uint8ClampedArray;
}

function isDecoded(value: unknown): value is DecodedImage {
  const v = value as Partial<DecodedImage> | null | undefined;
  return (
    typeof v?.width === 'number' &&
    typeof v.height === 'number' &&
    typeof v.kind === 'number' &&
    (v.data instanceof Uint8Array || v.data instanceof Uint8ClampedArray)
  );
}

/** The decoded image's pixels as grey, transparency over white paper. */
function grayOf(image: DecodedImage): GrayImage {
  const { width, height, kind, data } = image;
  const gray = new Uint8Array(width * height);
  if (kind === GRAYSCALE_1BPP) {
    // One bit a pixel, 1 white, each row padded to a whole byte.
    const rowBytes = (width + 7) >> 3;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const bit = (data[y * rowBytes + (x >> 3)] ?? 0) & (0x80 >> (x & 7));
        gray[y * width + x] = bit ? 255 : 0;
      }
    }
  } else {
    const channels = kind === RGBA_32BPP ? 4 : kind === RGB_24BPP ? 3 : 0;
    if (channels === 0) throw new Error(`Unknown image kind ${kind}`);
    for (let i = 0, p = 0; i < gray.length; i++, p += channels) {
      // BT.601 luma in integers.
      const luma = ((data[p] ?? 0) * 299 + (data[p + 1] ?? 0) * 587 + (data[p + 2] ?? 0) * 114) / 1000;
      const alpha = channels === 4 ? (data[p + 3] ?? 255) : 255;
      gray[i] = Math.round((luma * alpha + 255 * (255 - alpha)) / 255);
    }
  }
  return { gray, width, height };
}

/**
 * `image` with its longest side at most `maxSide`, each pixel the mean of the block it stands for:
 * an average keeps thin strokes of a 1-bit scan grey where sampling single pixels would drop them.
 */
function shrunk(image: GrayImage, maxSide: number): GrayImage {
  const scale = maxSide / Math.max(image.width, image.height);
  if (scale >= 1) return image;
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const gray = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor((y * image.height) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * image.height) / height));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor((x * image.width) / width);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * image.width) / width));
      let sum = 0;
      for (let sy = y0; sy < y1; sy++) {
        for (let sx = x0; sx < x1; sx++) sum += image.gray[sy * image.width + sx] ?? 255;
      }
      gray[y * width + x] = Math.round(sum / ((y1 - y0) * (x1 - x0)));
    }
  }
  return { gray, width, height };
}

/** `image` turned clockwise by `degrees` (a multiple of 90), as the page's /Rotate shows it. */
function rotated(image: GrayImage, degrees: number): GrayImage {
  const turn = (((degrees / 90) % 4) + 4) % 4;
  if (turn === 0) return image;
  const { width: w, height: h, gray: src } = image;
  const out = new Uint8Array(w * h);
  const width = turn === 2 ? w : h;
  const height = turn === 2 ? h : w;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const v = src[y * w + x] ?? 255;
      if (turn === 1) out[x * width + (h - 1 - y)] = v;
      else if (turn === 2) out[(h - 1 - y) * width + (w - 1 - x)] = v;
      else out[(w - 1 - x) * width + y] = v;
    }
  }
  return { gray: out, width, height };
}

/** The decoded image named `id`, from the page's objects or the document's shared ones. */
function decodedImage(page: PdfjsModule.PDFPageProxy, id: string): Promise<unknown> {
  const objs = id.startsWith('g_') ? page.commonObjs : page.objs;
  return new Promise((resolve) => {
    objs.get(id, resolve);
  });
}

const Type = PDFName.of('Type');
const Subtype = PDFName.of('Subtype');
const Image = PDFName.of('Image');
const Width = PDFName.of('Width');
const Height = PDFName.of('Height');
const OTHER_PAGES = new Set([PDFName.of('Page'), PDFName.of('Pages')]);

/**
 * The pixels that page 1's images declare (their /Width × /Height, masks included), read by pdf-lib
 * without decoding any: every image reachable from the page's resources (through forms, patterns,
 * Type 3 fonts and soft masks alike) and its annotations' appearances, never from another page.
 * Inline images are not counted: each is bounded by pdf.js's own cap, and the reader's time limit.
 */
async function declaredImagePixels(bytes: Uint8Array): Promise<number> {
  const doc = await PDFDocument.load(bytes, {
    ignoreEncryption: true,
    updateMetadata: false,
    throwOnInvalidObject: false,
  });
  const page = doc.getPage(0).node;
  const number = (value: PDFObject | undefined) => {
    const n = value instanceof PDFRef ? doc.context.lookup(value) : value;
    return n instanceof PDFNumber ? Math.max(0, n.asNumber()) : 0;
  };
  const seen = new Set<PDFObject>();
  const todo: PDFObject[] = [page.Resources(), page.Annots()].filter((o) => o !== undefined);
  let pixels = 0;
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    const obj = next instanceof PDFRef ? doc.context.lookup(next) : next;
    if (obj === undefined || seen.has(obj)) continue;
    seen.add(obj);
    if (obj instanceof PDFArray) {
      todo.push(...obj.asArray());
      continue;
    }
    const dict = obj instanceof PDFStream ? obj.dict : obj instanceof PDFDict ? obj : undefined;
    const type = dict?.get(Type);
    if (dict === undefined || (type instanceof PDFName && OTHER_PAGES.has(type))) continue;
    if (obj instanceof PDFStream && dict.get(Subtype) === Image) {
      pixels += number(dict.get(Width)) * number(dict.get(Height));
    }
    for (const [, value] of dict.entries()) todo.push(value);
  }
  return pixels;
}

/**
 * Page 1 of the PDF `bytes` as a grey PGM of its largest image, turned as the page is shown and at
 * most {@link MAX_SIDE} on its longest side; undefined when the page paints no image, when its
 * images declare more than {@link MAX_PAGE_IMAGE_PIXELS}, or on any failure (reading then says
 * nothing rather than fail the file).
 */
export async function pdfPageImage(pdfjs: Pdfjs, bytes: Uint8Array): Promise<Uint8Array | undefined> {
  try {
    if ((await declaredImagePixels(bytes)) > MAX_PAGE_IMAGE_PIXELS) return undefined;
    const doc = await pdfjs.getDocument({
      data: bytes.slice(),
      isEvalSupported: false,
      isOffscreenCanvasSupported: false,
      isImageDecoderSupported: false,
      maxImageSize: MAX_IMAGE_PIXELS,
      verbosity: 0,
    }).promise;
    try {
      const page = await doc.getPage(1);
      const ops = await page.getOperatorList();
      let largest: DecodedImage | undefined;
      for (let i = 0; i < ops.fnArray.length; i++) {
        const fn = ops.fnArray[i];
        const args = ops.argsArray[i] as unknown[] | undefined;
        let image: unknown;
        if (fn === pdfjs.OPS.paintImageXObject && typeof args?.[0] === 'string') {
          image = await decodedImage(page, args[0]);
        } else if (fn === pdfjs.OPS.paintInlineImageXObject) {
          image = args?.[0];
        }
        if (isDecoded(image) && (!largest || image.width * image.height > largest.width * largest.height)) {
          largest = image;
        }
      }
      if (!largest) return undefined;
      // Grey as a PGM: tesseract.js takes an image file, not pixels, and a PGM is a header before
      // the grey bytes, which leptonica reads without a codec; no image library is needed to write it.
      return pgmOf(rotated(shrunk(grayOf(largest), MAX_SIDE), page.rotate));
    } finally {
      await doc.destroy();
    }
  } catch {
    return undefined;
  }
}
