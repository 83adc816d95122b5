// Helpers of the document journeys: real fixture files (sharp, pdf-lib), the category screen's parts,
// and the stored bytes of a document read the way the app reads them (presigned URL).
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { request } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';

/** A file as `setInputFiles` takes it. */
export interface Fixture {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A real one-page PDF with text on it. */
export async function pdfFixture(name: string, text = name): Promise<Fixture> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.drawText(text, { x: 72, y: 700, size: 18, font: await doc.embedFont(StandardFonts.Helvetica) });
  return { name, mimeType: 'application/pdf', buffer: Buffer.from(await doc.save()) };
}

/** A photo: a gradient-ish picture `width`×`height` as stored, with an optional EXIF orientation. */
export async function photoFixture(
  name: string,
  width: number,
  height: number,
  options: { orientation?: number; format?: 'jpeg' | 'tiff' } = {},
): Promise<Fixture> {
  const band = await sharp({
    create: { width: Math.round(width / 3), height, channels: 3, background: '#1d4ed8' },
  })
    .png()
    .toBuffer();
  let image = sharp({ create: { width, height, channels: 3, background: '#f4efe6' } }).composite([
    { input: band, left: 0, top: 0 },
  ]);
  if (options.format === 'tiff') {
    return { name, mimeType: 'image/tiff', buffer: await image.tiff().toBuffer() };
  }
  image = image.jpeg({ quality: 85 });
  if (options.orientation) image = image.withMetadata({ orientation: options.orientation });
  return { name, mimeType: 'image/jpeg', buffer: await image.toBuffer() };
}

/**
 * A photographed page: light paper with lines of dark "text", `width`×`height` as stored. `paper` sets
 * the paper's grey level, so a dark photo is the same page in a dim room; `blur` (a Gaussian sigma in
 * pixels) makes it a shaken one; `lineHeight` (pixels) sets its text's size (small print reads as sharp).
 */
export async function pagePhoto(
  name: string,
  width: number,
  height: number,
  paper = 236,
  options: { blur?: number; lineHeight?: number } = {},
): Promise<Fixture> {
  const ink = Math.round(paper * 0.12);
  const lineHeight = options.lineHeight ?? Math.max(6, Math.round(Math.min(width, height) / 90));
  // Painted as raw pixels: one overlay per word (thousands at small print) took sharp ~15 s a page.
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 3) pixels.set([paper, paper, paper - 6], i);
  for (let y = Math.round(height * 0.08); y < height * 0.92; y += lineHeight * 3) {
    for (let x = Math.round(width * 0.08); x < width * 0.88; x += lineHeight * 7) {
      const right = Math.min(x + lineHeight * 5, width);
      for (let row = y; row < Math.min(y + lineHeight, height); row++) {
        pixels.fill(ink, (row * width + x) * 3, (row * width + right) * 3);
      }
    }
  }
  const painted = sharp(pixels, { raw: { width, height, channels: 3 } });
  const photo = options.blur ? painted.blur(options.blur) : painted;
  const buffer = await photo.jpeg({ quality: 88 }).toBuffer();
  return { name, mimeType: 'image/jpeg', buffer };
}

/** The size of each page of a PDF, in points. */
export async function pageSizes(bytes: Uint8Array): Promise<{ width: number; height: number }[]> {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((p) => {
    const { width, height } = p.getSize();
    return { width: Math.round(width), height: Math.round(height) };
  });
}

/** The parts of the category screen a test drives. */
export function categoryScreen(page: Page) {
  const uploaded = page.getByRole('region', { name: 'Uploaded' });
  const addFiles = page.getByRole('region', { name: 'Add files' });
  return {
    addFiles,
    uploaded,
    queue: addFiles.getByRole('list', { name: 'Queued files' }),
    uploadFiles: addFiles.getByLabel('Upload files', { exact: true }),
    takePhoto: addFiles.getByLabel('Take Photo', { exact: true }),
    convert: addFiles.getByLabel('Convert images to PDF (fit to Letter)'),
    uploadButton: addFiles.getByRole('button', { name: /^Upload \(\d+\)$/ }),
    row: (filename: string): Locator => uploaded.getByRole('listitem', { name: filename, exact: true }),
    queued: (filename: string): Locator => addFiles.getByRole('listitem', { name: filename, exact: true }),
  };
}

/** Adds a category to a client through Client Documents' `Add document type`. */
export async function addCategory(page: Page, clientId: string, docType: string): Promise<void> {
  await page.goto(`/clients/${clientId}/docs`);
  await page.getByRole('button', { name: 'Add document type' }).click();
  const modal = page.getByRole('dialog', { name: 'Add additional document' });
  await modal.getByLabel('Document type').selectOption(docType);
  await modal.getByRole('button', { name: 'Add', exact: true }).click();
  await modal.waitFor({ state: 'detached' });
}

/** A category's row on the Client Documents page, found by its link. */
export function categoryRow(page: Page, name: string): Locator {
  return page
    .getByRole('region', { name: 'Required Documents' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
}

/** Waits until the Uploaded list shows exactly these file names, in this order. */
export async function expectFiles(page: Page, names: readonly string[]): Promise<void> {
  await page.waitForFunction(
    (expected) => {
      const region = [...document.querySelectorAll('section')].find(
        (s) => s.querySelector('h2')?.textContent === 'Uploaded',
      );
      if (!region || region.getAttribute('aria-busy') === 'true') return false;
      const shown = [...region.querySelectorAll('li .file-row__name')].map((n) => n.textContent);
      return JSON.stringify(shown) === JSON.stringify(expected);
    },
    [...names],
  );
}

/** The documents of one category as the API lists them (with the page's session). */
export async function listDocs(page: Page, clientId: string, docType: string) {
  const res = await page.request.get(`/api/docs/list/${clientId}?docType=${encodeURIComponent(docType)}`);
  if (!res.ok()) throw new Error(`list ${docType}: ${res.status()} ${await res.text()}`);
  return (
    (await res.json()) as { items: { key: string; filename: string; size: number; contentType: string }[] }
  ).items;
}

/** The stored bytes of a document, fetched through a presigned download URL like the app's links. */
export async function storedBytes(page: Page, key: string): Promise<Buffer> {
  const csrf = (await page.context().cookies()).find((c) => c.name === 'csrf_token')?.value ?? '';
  const presign = await page.request.post('/api/docs/presign-get', {
    headers: { 'x-csrf-token': csrf },
    data: { key },
  });
  if (!presign.ok()) throw new Error(`presign-get: ${presign.status()} ${await presign.text()}`);
  const { url } = (await presign.json()) as { url: string };
  const file = await page.request.get(url);
  if (!file.ok()) throw new Error(`download: ${file.status()}`);
  return file.body();
}

/** Every file stored on disk for a client (the local store keeps them under DATA_DIR/files/{clientId}). */
export async function filesOnDisk(dataDir: string, clientId: string): Promise<string[]> {
  const root = path.join(dataDir, 'files', clientId);
  try {
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Drops files onto the page the way a browser does: dragenter, dragover, drop with a DataTransfer. */
export async function dropFiles(page: Page, files: readonly Fixture[]): Promise<void> {
  const payload = files.map((f) => ({ name: f.name, type: f.mimeType, base64: f.buffer.toString('base64') }));
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      transfer.items.add(new File([bytes], f.name, { type: f.type }));
    }
    return transfer;
  }, payload);
  for (const type of ['dragenter', 'dragover', 'drop']) {
    await page.dispatchEvent('main', type, { dataTransfer });
  }
}

/** Stores a document through the API as a volunteer's script would: presign, then the direct PUT. */
export async function uploadViaApi(
  session: { call<T>(method: 'POST', path: string, body: unknown): Promise<T> },
  baseURL: string,
  clientId: string,
  docType: string,
  file: Fixture,
): Promise<void> {
  const { url } = await session.call<{ url: string }>('POST', `/docs/presign/${clientId}`, {
    docType,
    filename: file.name,
    contentType: file.mimeType,
  });
  const ctx = await request.newContext({ baseURL });
  try {
    const res = await ctx.put(url, { headers: { 'content-type': file.mimeType }, data: file.buffer });
    if (!res.ok()) throw new Error(`PUT ${file.name}: ${res.status()} ${await res.text()}`);
  } finally {
    await ctx.dispose();
  }
}

/** A PDF-typed file of `megabytes` of noise: big enough to watch a download's progress. */
export function bulkyPdf(name: string, megabytes: number): Fixture {
  const body = Buffer.alloc(megabytes * 1024 * 1024);
  for (let i = 0; i < body.length; i += 4) body.writeUInt32LE((i * 2654435761) >>> 0, i);
  return { name, mimeType: 'application/pdf', buffer: Buffer.concat([Buffer.from('%PDF-1.4\n'), body]) };
}

/**
 * A PDF-typed file of `megabytes` on disk, for `setInputFiles(path)`: the browser reads it from its
 * path, where bytes handed over in the call cross the DevTools protocol as base64 (~20 s at 27 MB).
 */
export async function oversizedPdfOnDisk(name: string, megabytes: number): Promise<string> {
  const body = Buffer.alloc(megabytes * 1024 * 1024, 0x20);
  body.write('%PDF-1.7\n');
  // One fixed folder, the same names each run: nothing piles up in the temp folder.
  const folder = path.join(tmpdir(), 'vita-e2e-files');
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, name);
  await writeFile(file, body);
  return file;
}

/** The lines of a 1099-INT and of a W-2 (for {@link formPhoto}): the device names each form from them. */
export const FORM_1099_INT = [
  'Form 1099-INT',
  'Interest Income',
  'For calendar year 2025',
  'PAYER: Lakeside Credit Union',
  '1 Interest income   $ 31.20',
];
export const FORM_W2 = [
  'Form W-2 Wage and Tax Statement 2025',
  'b Employer identification number 12-3456789',
  '1 Wages, tips, other compensation  41,250.00',
];

/**
 * A photo of a printed form: its lines of text drawn on paper, turned a few degrees as a hand-held
 * photo is (the device reads it by OCR).
 */
export async function formPhoto(name: string, lines: readonly string[], tilt = 3): Promise<Fixture> {
  const text = lines
    .map((l, i) => `<text x="70" y="${120 + i * 56}" font-family="DejaVu Sans" font-size="34">${l}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1300" height="${200 + lines.length * 56}"><rect width="100%" height="100%" fill="#f6f2ea"/>${text}</svg>`;
  const buffer = await sharp(Buffer.from(svg))
    .rotate(tilt, { background: '#8a8f96' })
    .jpeg({ quality: 88 })
    .toBuffer();
  return { name, mimeType: 'image/jpeg', buffer };
}

/**
 * A scanner's PDF of a printed form: its one page only an image (the form's lines, straight), no
 * text layer, so the device reads it by OCR of that image.
 */
export async function scannedFormPdf(name: string, lines: readonly string[]): Promise<Fixture> {
  const doc = await PDFDocument.create();
  const image = await doc.embedJpg((await formPhoto(name, lines, 0)).buffer);
  const page = doc.addPage([image.width / 2, image.height / 2]);
  page.drawImage(image, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  return { name, mimeType: 'application/pdf', buffer: Buffer.from(await doc.save()) };
}

/**
 * A photo of the back of a driver's license: its PDF417 barcode (bwip-js) holding AAMVA data with
 * invented details and the given expiry (`YYYY-MM-DD`), on a card, turned a little.
 */
export async function licenseBackPhoto(name: string, expiry: string): Promise<Fixture> {
  const mmddyyyy = `${expiry.slice(5, 7)}${expiry.slice(8, 10)}${expiry.slice(0, 4)}`;
  const aamva = `@\n\x1e\rANSI 636032080002DL00410278ZM03190008DLDAQS123456789012\nDCSDOE\nDACJANE\nDBB01021980\nDBA${mmddyyyy}\nDBD03152019\nDAJMI\nDCGUSA\n`;
  const { default: bwipjs } = await import('bwip-js');
  // `columns` is one of the barcode writer's own options, passed through (not in bwip-js's types).
  const options = { bcid: 'pdf417', text: aamva, scale: 3, height: 12, columns: 8 };
  const barcode = await bwipjs.toBuffer(options);
  const buffer = await sharp({ create: { width: 1000, height: 640, channels: 3, background: '#f2efe8' } })
    .composite([{ input: barcode, left: 60, top: 200 }])
    .jpeg({ quality: 90 })
    .toBuffer();
  const turned = await sharp(buffer).rotate(1, { background: '#5a5046' }).jpeg({ quality: 90 }).toBuffer();
  return { name, mimeType: 'image/jpeg', buffer: turned };
}

/**
 * A photo of a passport's data page with an invented US passport's machine-readable zone (ICAO 9303,
 * valid check digits) expiring on 2025-03-15, turned a little.
 */
export async function passportPhoto(name: string): Promise<Fixture> {
  const mrz = [
    'P<USAGONZALEZ<<MARIA<ELENA<<<<<<<<<<<<<<<<<<',
    'A401234567USA8001025F2503158<<<<<<<<<<<<<<02',
  ];
  const zone = mrz
    .map(
      (l, i) =>
        `<text x="50" y="${600 + i * 62}" font-family="DejaVu Sans Mono" font-size="40">${l.replace(/</g, '&lt;')}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="760"><rect width="100%" height="100%" fill="#e9eef6"/><text x="50" y="90" font-family="DejaVu Sans" font-size="36">PASSPORT  UNITED STATES OF AMERICA</text><rect x="50" y="130" width="220" height="280" fill="#9aa7b8"/><text x="310" y="170" font-family="DejaVu Sans" font-size="28">Passport No. A40123456</text><text x="310" y="230" font-family="DejaVu Sans" font-size="28">Surname GONZALEZ</text><text x="310" y="290" font-family="DejaVu Sans" font-size="28">Date of birth 02 Jan 1980</text><text x="310" y="350" font-family="DejaVu Sans" font-size="28">Date of expiration 15 Mar 2025</text>${zone}</svg>`;
  const buffer = await sharp(Buffer.from(svg))
    .rotate(2, { background: '#5a5046' })
    .jpeg({ quality: 90 })
    .toBuffer();
  return { name, mimeType: 'image/jpeg', buffer };
}
