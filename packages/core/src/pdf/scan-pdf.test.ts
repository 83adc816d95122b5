// Several photos → one Letter PDF, with the Node raster (sharp). The worker raster: test/browser/capture.test.ts.
import { describe, expect, it } from 'vitest';
import { EXTENSION, MIME, makePhoto } from '../../test/images.js';
import type { PhotoFormat } from '../../test/images.js';
import { inspectPdfPages } from '../../test/pdf-inspect.js';
import { expectLetterPage } from '../../test/pdf-expect.js';
import { createTestFile } from '../testing/index.js';
import { createSharpRaster } from './raster.node.js';
import type { RasterPort } from './raster.js';
import { imagesToLetterPdf, ScanPageError } from './scan-pdf.js';
import { MAX_SCAN_PAGES } from './scan-page.js';
import type { ScanPage } from './scan-page.js';

const raster = createSharpRaster();

const photoFile = async (name: string, format: PhotoFormat, width: number, height: number, orientation = 1) =>
  createTestFile(
    `${name}.${EXTENSION[format]}`,
    await makePhoto(format, width, height, orientation),
    MIME[format],
  );

async function scan(pages: ScanPage[], port: Pick<RasterPort, 'toJpeg'> = raster) {
  const pdf = await imagesToLetterPdf(pages, { raster: port });
  return { pdf, pages: await inspectPdfPages(new Uint8Array(await pdf.arrayBuffer())) };
}

describe('imagesToLetterPdf (Node raster)', () => {
  it('makes one Letter page per photo, in the given order, each oriented by its own aspect', async () => {
    // Upright sizes tell the pages apart: the order must be kept even when a later page is quicker.
    const uprights = [
      { width: 2400, height: 1800 },
      { width: 900, height: 1400 },
      { width: 1200, height: 800 },
      { width: 1600, height: 2600 },
    ];
    const files = [
      await photoFile('page-1', 'jpeg', 2400, 1800, 6),
      await photoFile('page-2', 'png', 900, 1400),
      await photoFile('page-3', 'jpeg', 1200, 800),
      await photoFile('page-4', 'webp', 1600, 2600, 3),
    ];
    const { pdf, pages } = await scan(files.map((file) => ({ file })));
    expect(pdf.name).toBe('page-1.pdf');
    expect(pdf.type).toBe('application/pdf');
    expect(pages).toHaveLength(4);
    for (const [index, page] of pages.entries()) await expectLetterPage(page, uprights[index]!);
    expect(pages.map((page) => [page.pageWidth, page.pageHeight])).toEqual([
      [792, 612],
      [612, 792],
      [792, 612],
      [612, 792],
    ]);
  });

  it('turns each page by its own quarter turn, after its EXIF orientation', async () => {
    const landscape = await photoFile('wide', 'jpeg', 1200, 800);
    const sideways = await photoFile('sideways', 'jpeg', 1200, 800, 8);
    const { pages } = await scan([
      { file: landscape, rotate: 90 },
      { file: landscape, rotate: 180 },
      { file: sideways, rotate: 270 },
      { file: landscape },
    ]);
    // A landscape photo turned a quarter is a portrait page.
    expect([pages[0]!.pageWidth, pages[0]!.pageHeight]).toEqual([612, 792]);
    await expectLetterPage(pages[0]!, { width: 1200, height: 800 }, 90);
    await expectLetterPage(pages[1]!, { width: 1200, height: 800 }, 180);
    await expectLetterPage(pages[2]!, { width: 1200, height: 800 }, 270);
    await expectLetterPage(pages[3]!, { width: 1200, height: 800 });
  });

  it('embeds an unturned, upright JPEG within 1700 px as it is and re-encodes the rest', async () => {
    const original = await makePhoto('jpeg', 1700, 1200);
    const file = createTestFile('receipt.jpg', original, 'image/jpeg');
    let calls = 0;
    const counting = {
      toJpeg: (request: Parameters<RasterPort['toJpeg']>[0]) => (calls++, raster.toJpeg(request)),
    };
    const { pages } = await scan(
      [{ file }, { file, rotate: 90 }, { file: await photoFile('big', 'jpeg', 2000, 1500) }],
      counting,
    );
    expect(Buffer.from(pages[0]!.jpeg).equals(Buffer.from(original))).toBe(true);
    expect(calls).toBe(2);
  });

  it('takes the name it is given, with .pdf', async () => {
    const file = await photoFile('IMG_0001', 'png', 300, 400);
    expect((await imagesToLetterPdf([{ file }], { raster }, { name: 'W-2 Ada' })).name).toBe('W-2 Ada.pdf');
    expect((await imagesToLetterPdf([{ file }], { raster }, { name: 'scan.PDF' })).name).toBe('scan.PDF');
  });

  it(`takes 1 to ${MAX_SCAN_PAGES} pages`, async () => {
    const file = await photoFile('tiny', 'png', 40, 60);
    await expect(imagesToLetterPdf([], { raster })).rejects.toThrow(RangeError);
    const most = Array.from({ length: MAX_SCAN_PAGES }, () => ({ file }));
    expect((await scan(most)).pages).toHaveLength(MAX_SCAN_PAGES);
    await expect(imagesToLetterPdf([...most, { file }], { raster })).rejects.toThrow(RangeError);
    await expect(imagesToLetterPdf([{ file, rotate: 45 as 90 }], { raster })).rejects.toThrow(RangeError);
  });

  it('rejects with the first page that could not be converted', async () => {
    const good = await photoFile('good', 'png', 300, 200);
    const broken = createTestFile(
      'broken.png',
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]),
      'image/png',
    );
    const error = await imagesToLetterPdf(
      [{ file: good }, { file: broken }, { file: good }, { file: broken }],
      { raster },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScanPageError);
    expect(error).toMatchObject({ page: 2, file: broken });
    expect((error as Error).message).toMatch(/^Page 2 \(broken\.png\) could not be converted: /);
  });

  it('adds the pages of a PDF among the photos as they are, turned by its quarter turn', async () => {
    const { PDFDocument } = await import('pdf-lib');
    const scanned = await PDFDocument.create();
    scanned.addPage([612, 792]);
    scanned.addPage([612, 792]);
    const scannedFile = createTestFile('scanner-0001.pdf', await scanned.save(), 'application/pdf');
    const photo = await photoFile('page-3', 'jpeg', 900, 1200);
    const pdf = await imagesToLetterPdf([{ file: scannedFile, rotate: 90 }, { file: photo }], { raster });
    const doc = await PDFDocument.load(new Uint8Array(await pdf.arrayBuffer()));
    expect(
      doc.getPages().map((p) => [p.getRotation().angle, Math.round(p.getWidth()), Math.round(p.getHeight())]),
    ).toEqual([
      [90, 612, 792],
      [90, 612, 792],
      [0, 612, 792],
    ]);
  });

  it('names the failing page when a PDF among them cannot be read', async () => {
    const broken = createTestFile('broken.pdf', '%PDF-1.7 not really', 'application/pdf');
    const photo = await photoFile('page-1', 'jpeg', 900, 1200);
    await expect(imagesToLetterPdf([{ file: photo }, { file: broken }], { raster })).rejects.toMatchObject({
      name: 'ScanPageError',
      page: 2,
    });
  });
});
