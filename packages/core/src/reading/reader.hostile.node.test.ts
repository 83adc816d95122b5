import { afterAll, expect, it } from 'vitest';
import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName } from 'pdf-lib';
import { longestBusySpell } from '@vita-docs/test-server/event-loop';
import { createNodeReader } from './reader.node.js';

const reader = createNodeReader();
afterAll(() => reader.close());

/**
 * A PDF anyone who can write the scanner folder could drop: page 1 paints `count` one-pixel inline
 * images (some 11 MB for 200 000). pdf.js parses them in the caller's thread, so the kiosk's main
 * process would answer nothing until it is done.
 */
async function manyInlineImages(count: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 792]);
  const content = 'q 1 0 0 1 0 0 cm BI /W 1 /H 1 /CS /G /BPC 8 ID \x00 EI Q\n'.repeat(count);
  page.node.set(PDFName.of('Contents'), pdf.context.register(pdf.context.stream(content)));
  return pdf.save();
}

/**
 * Page 1 paints `count` grey images of 5 000 px square, each 25 MP (under pdf.js's own 60 MP cap)
 * and a few KB compressed: some 300 KB in all, which pdf.js would decode to 100 MB of pixels each.
 */
async function manyLargeImages(count: number): Promise<Uint8Array> {
  const side = 5000;
  const pixels = deflateSync(Buffer.alloc(side * side, 0xff), { level: 9 });
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 792]);
  let content = '';
  for (let i = 0; i < count; i++) {
    const image = pdf.context.stream(pixels, {
      Type: 'XObject',
      Subtype: 'Image',
      Width: side,
      Height: side,
      BitsPerComponent: 8,
      ColorSpace: 'DeviceGray',
      Filter: 'FlateDecode',
    });
    const name = page.node.newXObject(`Im${i}`, pdf.context.register(image));
    content += `q 612 0 0 792 0 0 cm ${name.asString()} Do Q\n`;
  }
  page.node.set(PDFName.of('Contents'), pdf.context.register(pdf.context.stream(content)));
  return pdf.save();
}

it('reading a hostile PDF never holds the calling thread for long', { timeout: 60_000 }, async () => {
  // Loaded first so the stall measured is the file's, not the modules' first import.
  await reader.readDocument(await manyInlineImages(1));
  const hostile = await manyInlineImages(200_000);
  const busy = await longestBusySpell(() => reader.readDocument(hostile));
  console.info(`hostile PDF: the calling thread was busy at most ${Math.round(busy)} ms at a time`);
  // Read in the caller's thread (as before the reader host), it held it 3.4-3.8 s.
  expect(busy).toBeLessThan(500);
});

it('leaves unread a page whose images declare more pixels than any scan, its memory never spent', async () => {
  const pdf = await manyLargeImages(12);
  const kb = Math.round(pdf.length / 1024);
  const before = process.memoryUsage().rss;
  let peak = before;
  const sample = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const started = performance.now();
  try {
    expect(await reader.readDocument(pdf)).toEqual({});
  } finally {
    clearInterval(sample);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  const grewMb = (peak - before) / 2 ** 20;
  console.info(
    `12 images of 25 MP (${kb} KB): read in ${Math.round(performance.now() - started)} ms, RSS grew ${Math.round(grewMb)} MB at most`,
  );
  // A legitimate 600 dpi letter scan (34 MP) decodes to some 140 MB.
  expect(grewMb).toBeLessThan(300);
}, 60_000);

/**
 * A stand-in host that answers each document by its first letter: `c` crashes it (an uncaught
 * error), `m` fills its heap, `h` holds it for ever (a parse that never ends), anything else reads
 * as a W-2 (its year the host's thread id: a new host answers with another).
 */
const CRASHING_HOST = `
const { parentPort, threadId } = require('node:worker_threads');
parentPort.on('message', ({ id, bytes }) => {
  parentPort.postMessage({ type: 'read-started', id });
  const letter = String.fromCharCode(bytes[0]);
  if (letter === 'c') setImmediate(() => { throw new Error('host crashed'); });
  else if (letter === 'm') { const kept = []; for (;;) kept.push(new Array(100_000).fill(kept.length)); }
  else if (letter === 'h') for (;;);
  else parentPort.postMessage({ type: 'read-done', id, reading: { form: 'W-2', year: threadId } });
});
`;
const letter = (c: string) => new TextEncoder().encode(c);

it('gives up a reading over its time limit and reads the next in a new host', async () => {
  // Without the limit the held reading would never settle (the test's own timeout would fail it).
  const limited = createNodeReader({ hostCode: CRASHING_HOST, limitMs: 500 });
  try {
    const first = await limited.readDocument(letter('w'));
    expect(await limited.readDocument(letter('h'))).toEqual({});
    const next = await limited.readDocument(letter('w'));
    expect(next.form).toBe('W-2');
    expect(next.year).not.toBe(first.year);
  } finally {
    await limited.close();
  }
});

it('fails only the reading of a host that crashed or ran out of memory; the next gets a new host', async () => {
  const crashing = createNodeReader({ hostCode: CRASHING_HOST });
  try {
    await expect(crashing.readDocument(letter('c'))).rejects.toThrow(/host crashed/);
    expect(await crashing.readDocument(letter('w'))).toMatchObject({ form: 'W-2' });
    await expect(crashing.readDocument(letter('m'))).rejects.toThrow(/memory/i);
    expect(await crashing.readDocument(letter('w'))).toMatchObject({ form: 'W-2' });
  } finally {
    await crashing.close();
  }
}, 30_000);

it('ends a reading under way when closed, and reads nothing after', async () => {
  const closing = createNodeReader({ hostCode: CRASHING_HOST });
  expect(await closing.readDocument(letter('w'))).toMatchObject({ form: 'W-2' });
  const stuck = closing.readDocument(await manyInlineImages(1));
  await closing.close();
  await expect(stuck).rejects.toThrow(/closed/);
  await expect(closing.readDocument(letter('w'))).rejects.toThrow(/closed/);
});
