import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import bwipjs from 'bwip-js';
import { parse } from 'mrz';
import {
  degrees,
  drawObject,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
  concatTransformationMatrix,
  StandardFonts,
} from 'pdf-lib';
import { createNodeReader } from './reader.node.js';

const reader = createNodeReader();
afterAll(() => reader.close());

/** A page of text as a photo-like PNG. */
async function pageImage(lines: string[]): Promise<Uint8Array> {
  const text = lines
    .map((l, i) => `<text x="60" y="${100 + i * 50}" font-family="DejaVu Sans" font-size="30">${l}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"><rect width="100%" height="100%" fill="#f4f1ea"/>${text}</svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}

/** The back of a license: its PDF417 barcode (AAMVA data, expiry 2025-03-15), as a PNG. */
async function licenseBack(): Promise<Uint8Array> {
  const data =
    '@\n\x1e\rANSI 636032080002DL00410278ZM03190008DLDAQ123456789\nDCSDOE\nDACJANE\nDBB01021980\nDBA03152025\nDBD03152018\nDAJMI\n';
  const png = await bwipjs.toBuffer({
    bcid: 'pdf417',
    text: data,
    scale: 3,
    paddingwidth: 20,
    paddingheight: 20,
    backgroundcolor: 'FFFFFF',
  });
  return new Uint8Array(png);
}

/** The W-2 a scanner would write: its page only as an image (`jpeg` or `png`), no text layer. */
async function scannedW2(format: 'jpeg' | 'png', rotate: 0 | 90 = 0): Promise<Uint8Array> {
  const lines = ['Form W-2 Wage and Tax Statement', '2025', '1 Wages, tips, other compensation'];
  let image = sharp(await pageImage(lines));
  // Scanned sideways and shown upright by the page's /Rotate 90: stored turned the other way.
  if (rotate === 90) image = image.rotate(270);
  const bytes = await (format === 'jpeg' ? image.jpeg() : image.png()).toBuffer();
  const pdf = await PDFDocument.create();
  const embedded = format === 'jpeg' ? await pdf.embedJpg(bytes) : await pdf.embedPng(bytes);
  const page = pdf.addPage([embedded.width / 2, embedded.height / 2]);
  page.drawImage(embedded, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  if (rotate) page.setRotation(degrees(rotate));
  return pdf.save();
}

/**
 * A black-and-white scan as a bilevel scanner writes it: one bit a pixel (Flate here; CCITT and
 * JBIG2 decode to the same bits in pdf.js). pdf-lib embeds no such image, so it is made by hand.
 */
async function bilevelW2(): Promise<Uint8Array> {
  const { data, info } = await sharp(
    await pageImage(['Form W-2 Wage and Tax Statement', '2025', '1 Wages, tips, other compensation']),
  )
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const rowBytes = Math.ceil(info.width / 8);
  const bits = new Uint8Array(rowBytes * info.height);
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      if ((data[y * info.width + x] ?? 0) > 128) bits[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  const pdf = await PDFDocument.create();
  const image = pdf.context.register(
    pdf.context.flateStream(bits, {
      Type: 'XObject',
      Subtype: 'Image',
      Width: info.width,
      Height: info.height,
      BitsPerComponent: 1,
      ColorSpace: 'DeviceGray',
    }),
  );
  const page = pdf.addPage([info.width / 2, info.height / 2]);
  const name = page.node.newXObject('Scan', image);
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(page.getWidth(), 0, 0, page.getHeight(), 0, 0),
    drawObject(name),
    popGraphicsState(),
  );
  return pdf.save();
}

describe('the Node reader', () => {
  it('reads a photographed 1099-INT by OCR', async () => {
    const image = await pageImage([
      'Form 1099-INT',
      'Interest Income',
      'For calendar year 2024',
      '1 Interest income  $ 31.20',
    ]);
    expect(await reader.readDocument(image)).toEqual({ form: '1099-INT', year: 2024 });
  }, 60_000);

  it('reads a PDF by its text layer', async () => {
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([612, 792]);
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    page.drawText('Form W-2 Wage and Tax Statement 2025', { x: 50, y: 700, size: 14, font });
    page.drawText('1 Wages, tips, other compensation', { x: 50, y: 670, size: 10, font });
    expect(await reader.readDocument(await pdf.save())).toEqual({ form: 'W-2', year: 2025 });
  });

  it('reads a scanned PDF, its page a JPEG and no text, by OCR of the image', async () => {
    const started = performance.now();
    expect(await reader.readDocument(await scannedW2('jpeg'))).toEqual({ form: 'W-2', year: 2025 });
    const pdfMs = performance.now() - started;
    const jpeg = new Uint8Array(
      await sharp(
        await pageImage(['Form W-2 Wage and Tax Statement', '2025', '1 Wages, tips, other compensation']),
      )
        .jpeg()
        .toBuffer(),
    );
    const again = performance.now();
    expect(await reader.readDocument(jpeg)).toEqual({ form: 'W-2', year: 2025 });
    console.info(
      `scanned PDF ${Math.round(pdfMs)} ms, the same page as a JPEG ${Math.round(performance.now() - again)} ms`,
    );
  }, 60_000);

  it('reads a scanned PDF whose page is a PNG (Flate), and one shown turned by /Rotate 90', async () => {
    expect(await reader.readDocument(await scannedW2('png'))).toEqual({ form: 'W-2', year: 2025 });
    expect(await reader.readDocument(await scannedW2('jpeg', 90))).toEqual({ form: 'W-2', year: 2025 });
  }, 60_000);

  it('reads a black-and-white scan, one bit a pixel', async () => {
    expect(await reader.readDocument(await bilevelW2())).toEqual({ form: 'W-2', year: 2025 });
  }, 60_000);

  it('reads a scan of far more pixels than OCR needs, shrunk first', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="5100" height="6600"><rect width="100%" height="100%" fill="#fff"/><text x="300" y="600" font-family="DejaVu Sans" font-size="140">Form W-2 Wage and Tax Statement</text><text x="300" y="900" font-family="DejaVu Sans" font-size="140">2025</text></svg>`;
    const jpeg = await sharp(Buffer.from(svg)).jpeg().toBuffer();
    const pdf = await PDFDocument.create();
    const embedded = await pdf.embedJpg(jpeg);
    pdf.addPage([612, 792]).drawImage(embedded, { x: 0, y: 0, width: 612, height: 792 });
    const started = performance.now();
    expect(await reader.readDocument(await pdf.save())).toEqual({ form: 'W-2', year: 2025 });
    console.info(`a 600 dpi letter scan (5100 x 6600) read in ${Math.round(performance.now() - started)} ms`);
  }, 60_000);

  it('reads the largest image of a page that has several', async () => {
    const pdf = await PDFDocument.load(await scannedW2('jpeg'));
    const logo = await pdf.embedPng(
      await sharp({ create: { width: 40, height: 40, channels: 3, background: '#c00' } })
        .png()
        .toBuffer(),
    );
    pdf.getPage(0).drawImage(logo, { x: 10, y: 10, width: 20, height: 20 });
    expect(await reader.readDocument(await pdf.save())).toEqual({ form: 'W-2', year: 2025 });
  }, 60_000);

  it('says nothing, and does not fail, about a PDF with neither text nor image', async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage([612, 792]).drawRectangle({ x: 50, y: 50, width: 100, height: 100 });
    expect(await reader.readDocument(await pdf.save())).toEqual({});
  });

  it('keeps only the expiry of a license barcode', async () => {
    expect(await reader.readDocument(await licenseBack())).toEqual({
      form: 'License/Other Identification',
      idExpiry: '2025-03-15',
    });
  }, 30_000);

  it('reads the barcode in a TIFF, which zxing does not decode, through sharp', async () => {
    const tiff = new Uint8Array(
      await sharp(await licenseBack())
        .tiff()
        .toBuffer(),
    );
    expect(await reader.readDocument(tiff)).toMatchObject({ idExpiry: '2025-03-15' });
  }, 30_000);

  it('reads the barcode of a license scanned to a PDF (its page only an image), turned on the glass', async () => {
    // Laid a few degrees askew: zxing finds the symbol but decodes it only once levelled.
    const turned = await sharp(await licenseBack())
      .rotate(4, { background: '#ffffff' })
      .png()
      .toBuffer();
    const pdf = await PDFDocument.create();
    const image = await pdf.embedPng(turned);
    const page = pdf.addPage([image.width / 2, image.height / 2]);
    page.drawImage(image, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
    expect(await reader.readDocument(await pdf.save())).toEqual({
      form: 'License/Other Identification',
      idExpiry: '2025-03-15',
    });
  }, 30_000);

  it("reads the expiry in a passport photo's machine-readable zone", async () => {
    // ICAO 9303 TD3 lines with valid check digits (the parser's own validation says so below).
    const mrz = [
      'P<USAGONZALEZ<<MARIA<ELENA<<<<<<<<<<<<<<<<<<',
      'A401234567USA8001025F2503158<<<<<<<<<<<<<<02',
    ];
    expect(parse(mrz).valid).toBe(true);
    const lines = mrz
      .map(
        (l, i) =>
          `<text x="40" y="${560 + i * 60}" font-family="DejaVu Sans Mono" font-size="40">${l.replace(/</g, '&lt;')}</text>`,
      )
      .join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="700"><rect width="100%" height="100%" fill="#e9eef6"/><text x="40" y="80" font-family="DejaVu Sans" font-size="36">PASSPORT  UNITED STATES OF AMERICA</text><text x="40" y="160" font-family="DejaVu Sans" font-size="28">Passport No. A40123456   Date of birth 02 Jan 1980</text>${lines}</svg>`;
    const photo = new Uint8Array(await sharp(Buffer.from(svg)).jpeg().toBuffer());
    expect(await reader.readDocument(photo)).toEqual({
      form: 'License/Other Identification',
      idExpiry: '2025-03-15',
    });
  }, 60_000);

  it('says nothing about a grocery receipt', async () => {
    const image = await pageImage(['FRESH MART', 'MILK 2%   3.49', 'BREAD     2.99', 'TOTAL     6.48']);
    expect(await reader.readDocument(image)).toEqual({});
  }, 60_000);
});
