import { expect } from 'vitest';
import { cornerMarkers, inspectPdf, TURNED } from './pdf-inspect.js';
import type { PdfImage } from './pdf-inspect.js';

const MARGIN = 36;
const EPSILON = 0.01;

/**
 * Asserts the Image to PDF rules (docs/behaviour.md#image-to-pdf) on a converted PDF of a photo
 * whose upright size is width×height: one Letter page in the right orientation, the image fitted and
 * centred inside 36 pt margins, at most 1700 px, and upright (marker corners), or turned clockwise
 * by `rotate`.
 */
export async function expectLetterPdf(
  bytes: Uint8Array,
  upright: { width: number; height: number },
  rotate: 0 | 90 | 180 | 270 = 0,
): Promise<PdfImage> {
  const pdf = await inspectPdf(bytes);
  expect(pdf.pages).toBe(1);
  await expectLetterPage(pdf, upright, rotate);
  return pdf;
}

/** The same rules for one page of a PDF (see {@link inspectPdfPages}). */
export async function expectLetterPage(
  pdf: PdfImage,
  upright: { width: number; height: number },
  rotate: 0 | 90 | 180 | 270 = 0,
): Promise<void> {
  const sideways = rotate === 90 || rotate === 270;
  const shown = sideways ? { width: upright.height, height: upright.width } : upright;
  const landscape = shown.width > shown.height;
  expect([pdf.pageWidth, pdf.pageHeight]).toEqual(landscape ? [792, 612] : [612, 792]);
  expect(pdf.filter).toBe('/DCTDecode');

  const longest = Math.max(shown.width, shown.height);
  const expectedScale = Math.min(1, 1700 / longest);
  expect(Math.max(pdf.pixelWidth, pdf.pixelHeight)).toBeLessThanOrEqual(1700);
  expect(Math.max(pdf.pixelWidth, pdf.pixelHeight)).toBe(Math.round(longest * expectedScale));
  // Aspect ratio kept (to rounding of whole pixels).
  expect(pdf.pixelWidth / pdf.pixelHeight).toBeCloseTo(shown.width / shown.height, 1);

  expect(pdf.x).toBeGreaterThanOrEqual(MARGIN - EPSILON);
  expect(pdf.y).toBeGreaterThanOrEqual(MARGIN - EPSILON);
  expect(pdf.x + pdf.width).toBeLessThanOrEqual(pdf.pageWidth - MARGIN + EPSILON);
  expect(pdf.y + pdf.height).toBeLessThanOrEqual(pdf.pageHeight - MARGIN + EPSILON);
  expect(pdf.x).toBeCloseTo(pdf.pageWidth - pdf.x - pdf.width, 2);
  expect(pdf.y).toBeCloseTo(pdf.pageHeight - pdf.y - pdf.height, 2);
  const fitsWidth = Math.abs(pdf.width - (pdf.pageWidth - 2 * MARGIN)) < EPSILON;
  const fitsHeight = Math.abs(pdf.height - (pdf.pageHeight - 2 * MARGIN)) < EPSILON;
  expect(fitsWidth || fitsHeight).toBe(true);
  expect(pdf.width / pdf.height).toBeCloseTo(pdf.pixelWidth / pdf.pixelHeight, 3);

  expect(await cornerMarkers(pdf.jpeg)).toEqual(TURNED[rotate]);
}
