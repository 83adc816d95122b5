import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createNodeReader } from './reader.node.js';

const require = createRequire(import.meta.url);

/**
 * An OCR worker thread that dies (its heap full, say: tesseract.js spreads a BMP's bytes into an
 * object, a property a byte, at some 1.5 s a MB). A worker script that throws as it starts stands
 * in for any such death: tesseract.js then never settles its start.
 */
let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'ocr-crash-'));
  await writeFile(
    join(folder, 'tesseract-worker.cjs'),
    "setImmediate(() => { throw new Error('OCR thread died'); });",
  );
  await writeFile(join(folder, 'eng.traineddata.gz'), '');
  await copyFile(require.resolve('zxing-wasm/reader/zxing_reader.wasm'), join(folder, 'zxing_reader.wasm'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

const photo = async () =>
  new Uint8Array(
    await sharp({ create: { width: 64, height: 64, channels: 3, background: '#fff' } })
      .png()
      .toBuffer(),
  );

/** Runs `work`, noting the uncaught errors of this thread meanwhile (which would end a kiosk's main). */
async function uncaughtDuring(work: () => Promise<void>): Promise<unknown[]> {
  const uncaught: unknown[] = [];
  const note = (error: unknown) => uncaught.push(error);
  process.on('uncaughtException', note);
  try {
    await work();
  } finally {
    process.off('uncaughtException', note);
  }
  return uncaught;
}

it('after its OCR thread died, the next reading starts OCR anew, and the reader closes', async () => {
  const reader = createNodeReader({ files: folder, verify: () => true, limitMs: 2_000 });
  await uncaughtDuring(async () => {
    // The death ends the host that started the worker: that reading fails, at once.
    await expect(reader.readDocument(await photo())).rejects.toThrow(/OCR thread died/);
    // A new host starts a new OCR worker (which dies too), rather than waiting on the dead one.
    await expect(reader.readDocument(await photo())).rejects.toThrow(/OCR thread died/);
    // Closing waited for ever on the dead worker's start (tesseract.js never settles it).
    await reader.close();
  });
}, 20_000);

// tesseract.js's Node worker has no 'error' listener, so its thread's death is thrown in the thread
// that started it: the reader host's, which ends (failing the reading), never the caller's.
it('an OCR worker thread that dies fails only its reading, never the calling thread', async () => {
  const reader = createNodeReader({ files: folder, verify: () => true, limitMs: 2_000 });
  const uncaught = await uncaughtDuring(async () => {
    await reader.readDocument(await photo()).catch(() => undefined);
    await reader.close();
  });
  expect(uncaught.map(String)).toEqual([]);
}, 20_000);
