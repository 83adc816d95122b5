/**
 * The packaged kiosk reads documents: the desktop build is made in a folder outside the repo, where
 * no node_modules can be found by walking up (the package ships none), laid out as electron-builder
 * lays it (dist/ in `app.asar`, dist/reader/ moved to `app.asar.unpacked`; a folder stands in for the
 * archive, which plain Node cannot open). A plain Node child loads the reader as main does
 * (dist/main/reader.js) and reads a photographed W-2 (OCR), a W-2 PDF (pdf.js), the barcode on the
 * back of a license (zxing) and a scanned W-2 PDF, its page only an image (pdf.js decodes it, OCR),
 * then a hostile PDF (200 000 inline images), read in the reader's own thread while the child's event
 * loop stays free. Those files lie outside the integrity-checked archive: one changed
 * byte in a copy of the layout and the reader refuses that file (reads nothing with it, says which),
 * and the child still reads what needs no such file and exits cleanly.
 */
import { execFile } from 'node:child_process';
import { access, cp, mkdir, mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import bwipjs from 'bwip-js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  manyInlineImagesPdf,
  removeFolder,
  scannedPage,
  scannedPdf,
} from '../src/main/inbox/test-support.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
let folder: string;
/** The package's `resources/app.asar`, holding dist/. */
let app: string;

/**
 * Reads each file with the built reader in a child Node; its readings (or the error a reading
 * failed with, as main's scan readings would swallow it), times and the longest its event loop was
 * busy at a time during each (`longestBusySpell`, loaded by its file's URL: the child has no
 * node_modules), in order.
 */
const CHILD = `
import { readFile } from 'node:fs/promises';
const [main, eventLoop, ...files] = process.argv.slice(2);
const { createKioskReader } = await import(new URL('dist/main/reader.js', main).href);
const { longestBusySpell } = await import(eventLoop);
const reader = createKioskReader();
const results = [];
try {
  for (const file of files) {
    const bytes = new Uint8Array(await readFile(file));
    const started = performance.now();
    let reading;
    const busyMs = await longestBusySpell(async () => {
      reading = await reader.readDocument(bytes).catch((error) => ({ failed: String(error) }));
    });
    results.push({ reading, ms: Math.round(performance.now() - started), busyMs: Math.round(busyMs) });
  }
} finally {
  await reader.close();
}
console.log(JSON.stringify(results));
`;

/**
 * The documents read: a photographed W-2 (OCR), a W-2 PDF (pdf.js), a license's back (barcode), the
 * same W-2 page scanned to a PDF with no text (pdf.js's image, OCR).
 */
const DOCS = ['w2.jpg', 'w2.pdf', 'license-back.png', 'w2-scanned.pdf'];
/** What an attacker who can write the scanner folder drops: page 1 paints 200 000 inline images. */
const HOSTILE = 'hostile.pdf';
const W2_LINES = ['Form W-2 Wage and Tax Statement', '2025', '1 Wages, tips, other compensation'];

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/** True when `dir` or a folder above it holds node_modules (the package's code would find packages there). */
async function nodeModulesAbove(dir: string): Promise<boolean> {
  for (let at = dir; ; at = dirname(at)) {
    if (await exists(join(at, 'node_modules'))) return true;
    if (dirname(at) === at) return false;
  }
}

async function w2Pdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 792]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText('Form W-2 Wage and Tax Statement 2025', { x: 50, y: 700, size: 14, font });
  page.drawText('1 Wages, tips, other compensation', { x: 50, y: 670, size: 10, font });
  return pdf.save();
}

/** The back of a Michigan license: its PDF417 barcode (AAMVA data, expiry 2025-03-15). */
function licenseBack(): Promise<Buffer> {
  const data =
    '@\n\x1e\rANSI 636032080002DL00410278ZM03190008DLDAQ123456789\nDCSDOE\nDACJANE\nDBB01021980\nDBA03152025\nDBD03152018\nDAJMI\n';
  return bwipjs.toBuffer({ bcid: 'pdf417', text: data, scale: 3, padding: 20, backgroundcolor: 'FFFFFF' });
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'vita-packaged-reader-'));
  expect(await nodeModulesAbove(folder)).toBe(false);
  app = join(folder, 'resources', 'app.asar');
  await run(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--out', join(app, 'dist')], {
    cwd: root,
  });
  // What electron-builder's asarUnpack (electron-builder.yml) does with dist/reader/.
  await mkdir(join(folder, 'resources', 'app.asar.unpacked', 'dist'), { recursive: true });
  await rename(join(app, 'dist', 'reader'), join(folder, 'resources', 'app.asar.unpacked', 'dist', 'reader'));
  const docs: Record<string, Uint8Array> = {
    'w2.jpg': await scannedPage(W2_LINES),
    'w2.pdf': await w2Pdf(),
    'license-back.png': await licenseBack(),
    'w2-scanned.pdf': await scannedPdf(W2_LINES),
    [HOSTILE]: await manyInlineImagesPdf(200_000),
  };
  for (const [name, bytes] of Object.entries(docs)) await writeFile(join(folder, name), bytes);
  await writeFile(join(folder, 'read.mjs'), CHILD);
}, 60_000);

afterAll(() => removeFolder(folder));

/** `longestBusySpell`'s module, for the child to load by URL. */
const EVENT_LOOP = import.meta.resolve('@vita-docs/test-server/event-loop');

interface ChildRun {
  readings: unknown[];
  ms: number[];
  busyMs: number[];
  stderr: string;
}

/**
 * Reads {@link DOCS} in a child Node with the package whose `app.asar` is `asar`. The child must
 * exit cleanly: an uncaught exception or a non-zero exit rejects.
 */
async function readWithPackage(asar: string, docs: readonly string[] = DOCS): Promise<ChildRun> {
  const { stdout, stderr } = await run(
    process.execPath,
    ['read.mjs', `${pathToFileURL(asar).href}/`, EVENT_LOOP, ...docs],
    {
      cwd: folder,
      // Nothing from this process's environment may point the child at the repo's packages.
      env: { PATH: process.env['PATH'] ?? '' },
    },
  );
  const results = JSON.parse(stdout.trim().split('\n').at(-1) ?? '[]') as Array<{
    reading: unknown;
    ms: number;
    busyMs: number;
  }>;
  return {
    readings: results.map((r) => r.reading),
    ms: results.map((r) => r.ms),
    busyMs: results.map((r) => r.busyMs),
    stderr,
  };
}

/**
 * A copy of the built package with one byte of one unpacked reader file changed where the file
 * still works (a comment of the worker script, the data of zxing's wasm): only its check can tell.
 */
async function tamperedPackage(file: string, at: (bytes: Buffer) => number): Promise<string> {
  const copy = await mkdtemp(join(folder, 'tampered-'));
  await cp(join(folder, 'resources'), join(copy, 'resources'), { recursive: true });
  const path = join(copy, 'resources', 'app.asar.unpacked', 'dist', 'reader', file);
  const bytes = await readFile(path);
  const i = at(bytes);
  expect(i).toBeGreaterThanOrEqual(0);
  bytes[i] = bytes[i] === 0x61 ? 0x62 : 0x61;
  await writeFile(path, bytes);
  return join(copy, 'resources', 'app.asar');
}

describe('the packaged reader', () => {
  it('reads a photo, a PDF, an ID barcode and a scanned PDF with the files the package ships, a hostile PDF off its thread', async () => {
    const { readings, ms, busyMs, stderr } = await readWithPackage(app, [...DOCS, HOSTILE]);
    expect(readings).toEqual([
      { form: 'W-2', year: 2025 },
      { form: 'W-2', year: 2025 },
      { form: 'License/Other Identification', idExpiry: '2025-03-15' },
      { form: 'W-2', year: 2025 },
      {},
    ]);
    expect(stderr).not.toMatch(/does not match/);
    // Read in the reader's host thread: the caller's loop (main's, in the kiosk) never waits on it.
    expect(busyMs[4]).toBeLessThan(500);
    console.info(
      `packaged reader: photo ${ms[0]} ms (OCR worker start and file checks included), PDF ${ms[1]} ms, barcode ${ms[2]} ms, scanned PDF ${ms[3]} ms, hostile PDF ${ms[4]} ms; longest the caller's loop was busy at a time per reading ${busyMs.join(', ')} ms`,
    );
  }, 40_000);

  it('runs no OCR worker script changed after the build, and says which file it refused', async () => {
    // A byte of the bundler's comment on its second line: the script runs the same either way.
    const asar = await tamperedPackage('tesseract-worker.cjs', (bytes) => bytes.indexOf('rolldown/runtime'));
    const { readings, stderr } = await readWithPackage(asar);
    expect(readings).toEqual([
      expect.objectContaining({ failed: expect.stringContaining('tesseract-worker.cjs') }),
      { form: 'W-2', year: 2025 },
      { form: 'License/Other Identification', idExpiry: '2025-03-15' },
      expect.objectContaining({ failed: expect.stringContaining('tesseract-worker.cjs') }),
    ]);
    expect(stderr.match(/Document reading: \S+tesseract-worker\.cjs does not match/g)).toHaveLength(1);
  }, 20_000);

  it('loads no barcode wasm changed after the build, and says which file it refused', async () => {
    // The wasm's last byte lies in its data section: the module still compiles.
    const asar = await tamperedPackage('zxing_reader.wasm', (bytes) => bytes.length - 1);
    const { readings, stderr } = await readWithPackage(asar);
    expect(readings).toEqual([
      { form: 'W-2', year: 2025 },
      { form: 'W-2', year: 2025 },
      {},
      { form: 'W-2', year: 2025 },
    ]);
    expect(stderr.match(/Document reading: \S+zxing_reader\.wasm does not match/g)).toHaveLength(1);
  }, 20_000);
});
