// The photos of the labelled page-photo set, and what a stored PDF's page shows at its edges: the
// straightening journeys read both.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { join } from 'node:path';
import { PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import sharp from 'sharp';
import type { Fixture } from './documents.js';

const SET = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  '..',
  'packages',
  'core',
  'bench',
  'straighten-set',
  'photos',
);

/** A photo of the labelled set: `00-dark.jpg` a W-2 tilted on a dark table, `01-wood.jpg` one with glare. */
export async function setPhoto(name: string, as: string): Promise<Fixture> {
  return { name: as, mimeType: 'image/jpeg', buffer: await readFile(join(SET, name)) };
}

/**
 * Holds every job the page gives its workers from now on (none is ever answered, in workers started
 * later too): a photo's PDF stays "being made" for as long as the page lives.
 */
export async function holdImageWork(page: Page): Promise<void> {
  await page.evaluate(() => {
    Worker.prototype.postMessage = () => undefined;
  });
}

/** The image (JPEG bytes) on the first page of a PDF made from a photo. */
async function pageImage(pdf: Uint8Array): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf);
  const xobjects = doc.getPages()[0]?.node.Resources()?.lookup(PDFName.of('XObject'), PDFDict);
  const ref = xobjects?.values()[0];
  const image = ref ? doc.context.lookup(ref) : undefined;
  if (!(image instanceof PDFRawStream)) throw new Error('no image on the page');
  return Buffer.from(image.contents);
}

/** The width and height of the image on a PDF's first page. */
export async function pageImageSize(pdf: Uint8Array): Promise<{ width: number; height: number }> {
  const { width = 0, height = 0 } = await sharp(await pageImage(pdf)).metadata();
  return { width, height };
}

/**
 * The mean grey of a band just inside each edge of the first page's image (2–3 % in), top, right,
 * bottom, left: paper where the page was straightened, the table where the whole photo was used.
 */
export async function edgeGreys(pdf: Uint8Array): Promise<number[]> {
  const { data, info } = await sharp(await pageImage(pdf))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const mean = (x0: number, y0: number, x1: number, y1: number) => {
    let sum = 0;
    let count = 0;
    for (let y = Math.floor(y0); y < Math.ceil(y1); y++)
      for (let x = Math.floor(x0); x < Math.ceil(x1); x++) {
        sum += data[y * width + x] ?? 0;
        count++;
      }
    return Math.round(sum / count);
  };
  const [a, b] = [0.02, 0.03];
  return [
    mean(0, height * a, width, height * b),
    mean(width * (1 - b), 0, width * (1 - a), height),
    mean(0, height * (1 - b), width, height * (1 - a)),
    mean(width * a, 0, width * b, height),
  ];
}
