/** Opens a converter PDF with pdf-lib and reports what a reader would see. */
import { inflateSync } from 'node:zlib';
import { PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import type { PDFNumber, PDFPage } from 'pdf-lib';
import sharp from 'sharp';
import { BLUE, GREEN, RED } from './images.js';

export interface PdfImage {
  pageWidth: number;
  pageHeight: number;
  pages: number;
  /** Pixel size of the embedded image. */
  pixelWidth: number;
  pixelHeight: number;
  filter: string;
  jpeg: Uint8Array;
  /** Where it is drawn, in points (from the `cm` before `Do`). */
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Every page of a converter PDF, in order: its size and the one image drawn on it. */
export async function inspectPdfPages(bytes: Uint8Array): Promise<PdfImage[]> {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((page) => inspectPage(doc, page, doc.getPageCount()));
}

/** The first page of a converter PDF (the single-photo converter makes exactly one). */
export async function inspectPdf(bytes: Uint8Array): Promise<PdfImage> {
  const [first] = await inspectPdfPages(bytes);
  if (!first) throw new Error('no page in the PDF');
  return first;
}

function inspectPage(doc: PDFDocument, page: PDFPage, pages: number): PdfImage {
  const { width: pageWidth, height: pageHeight } = page.getSize();
  const contents = page.node.Contents();
  const streams = contents instanceof PDFRawStream ? [contents] : [];
  if (!streams.length && contents) {
    for (const ref of (contents as unknown as { asArray(): unknown[] }).asArray()) {
      streams.push(doc.context.lookup(ref as never) as PDFRawStream);
    }
  }
  const text = streams
    .map((s) => {
      const raw = s.getContents();
      return Buffer.from(
        s.dict.get(PDFName.of('Filter')) === PDFName.of('FlateDecode') ? inflateSync(raw) : raw,
      ).toString('latin1');
    })
    .join('\n');
  // pdf-lib draws with several `cm` (translate, rotate, scale, skew): compose them up to the `Do`.
  const draw = /\/(\S+) Do/.exec(text);
  if (!draw) throw new Error(`no image drawn in: ${text}`);
  const xObjects = page.node.Resources()?.lookup(PDFName.of('XObject'), PDFDict);
  const image = xObjects?.lookup(PDFName.of(draw[1]!));
  if (!(image instanceof PDFRawStream)) throw new Error(`no image ${draw[1]} on the page`);
  const number = (key: string) => (image.dict.get(PDFName.of(key)) as PDFNumber).asNumber();
  const drawing = text.slice(0, draw.index);
  let m = [1, 0, 0, 1, 0, 0];
  for (const op of drawing.matchAll(/([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) cm/g)) {
    const [a, b, c, d, e, f] = op.slice(1).map(Number) as [number, number, number, number, number, number];
    const [A, B, C, D, E, F] = m as [number, number, number, number, number, number];
    // new CTM = op × current (PDF row-vector convention)
    m = [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
  }
  const [a, , , d, e, f] = m as [number, number, number, number, number, number];
  return {
    pageWidth,
    pageHeight,
    pages,
    pixelWidth: number('Width'),
    pixelHeight: number('Height'),
    filter: String(image.dict.get(PDFName.of('Filter'))),
    jpeg: image.getContents(),
    x: e,
    y: f,
    width: a,
    height: d,
  };
}

const close = (pixel: readonly number[], colour: readonly number[]) =>
  pixel.every((v, i) => Math.abs(v - colour[i]!) < 45);

/** Which marker colours sit in which corner of the embedded image. */
export async function cornerMarkers(
  jpeg: Uint8Array,
): Promise<{ topLeft: string; topRight: string; bottomLeft: string; bottomRight: string }> {
  const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const sample = (fx: number, fy: number) => {
    const x = Math.floor(fx * (info.width - 1));
    const y = Math.floor(fy * (info.height - 1));
    const at = (y * info.width + x) * info.channels;
    const pixel = [data[at]!, data[at + 1]!, data[at + 2]!];
    return close(pixel, RED) ? 'red' : close(pixel, GREEN) ? 'green' : close(pixel, BLUE) ? 'blue' : 'grey';
  };
  return {
    topLeft: sample(0.04, 0.04),
    topRight: sample(0.96, 0.04),
    bottomLeft: sample(0.04, 0.96),
    bottomRight: sample(0.96, 0.96),
  };
}

/** The corners of an upright test photo. */
export const UPRIGHT = { topLeft: 'red', topRight: 'green', bottomLeft: 'blue', bottomRight: 'grey' };

/** The corners of an upright test photo after a clockwise turn. */
export const TURNED = {
  0: UPRIGHT,
  90: { topLeft: 'blue', topRight: 'red', bottomLeft: 'grey', bottomRight: 'green' },
  180: { topLeft: 'grey', topRight: 'blue', bottomLeft: 'green', bottomRight: 'red' },
  270: { topLeft: 'green', topRight: 'grey', bottomLeft: 'red', bottomRight: 'blue' },
} as const;
