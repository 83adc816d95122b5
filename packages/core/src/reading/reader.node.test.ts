import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import bwipjs from 'bwip-js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
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

  it('keeps only the expiry of a license barcode', async () => {
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
    expect(await reader.readDocument(new Uint8Array(png))).toEqual({
      form: 'License/Other Identification',
      idExpiry: '2025-03-15',
    });
  }, 30_000);

  it('says nothing about a grocery receipt', async () => {
    const image = await pageImage(['FRESH MART', 'MILK 2%   3.49', 'BREAD     2.99', 'TOTAL     6.48']);
    expect(await reader.readDocument(image)).toEqual({});
  }, 60_000);
});
