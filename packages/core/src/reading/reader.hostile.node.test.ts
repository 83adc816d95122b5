import { afterAll, expect, it } from 'vitest';
import { PDFDocument, PDFName } from 'pdf-lib';
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

/** The longest time the event loop could not run a 10 ms timer while `work` ran. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let longest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 10);
    last = now;
  }, 10);
  try {
    await work().catch(() => undefined);
  } finally {
    clearInterval(timer);
  }
  // A stall right before `work` settled shows only here: the timer has not run since.
  longest = Math.max(longest, performance.now() - last - 10);
  return longest;
}

it('reading a hostile PDF never holds the calling thread for long', { timeout: 60_000 }, async () => {
  // Loaded first so the stall measured is the file's, not the modules' first import.
  await reader.readDocument(await manyInlineImages(1));
  const hostile = await manyInlineImages(200_000);
  const stall = await longestStall(() => reader.readDocument(hostile));
  console.info(`hostile PDF: the calling thread stalled at most ${Math.round(stall)} ms`);
  // A legitimate letter-size 300 dpi scan stalls the loop some 200 ms on this machine.
  expect(stall).toBeLessThan(500);
});
