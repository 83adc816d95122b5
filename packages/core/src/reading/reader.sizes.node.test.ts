import { expect, it } from 'vitest';
import sharp from 'sharp';
import { createNodeReader } from './reader.node.js';

/**
 * Images a few dozen bytes long whose headers declare `side` px square (256 MP at 16 000, the
 * reader's cap is 100 MP). zxing (stb_image) and tesseract allocate what a header declares before
 * reading any pixel, and the PGM is the form the host hands its own page images around in.
 */
const SIDE = 16_000;

function bmpDeclaring(side: number): Uint8Array {
  const b = Buffer.alloc(54 + 64);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(b.length, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(side, 18);
  b.writeInt32LE(side, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(24, 28);
  return new Uint8Array(b);
}

function gifDeclaring(side: number): Uint8Array {
  const screen = Buffer.alloc(13);
  screen.write('GIF89a', 0, 'latin1');
  screen.writeUInt16LE(side, 6);
  screen.writeUInt16LE(side, 8);
  const frame = Buffer.alloc(10);
  frame[0] = 0x2c;
  frame.writeUInt16LE(side, 5);
  frame.writeUInt16LE(side, 7);
  return new Uint8Array(Buffer.concat([screen, frame, Buffer.from([2, 2, 0x4c, 0x01, 0, 0x3b])]));
}

function pgmDeclaring(side: number): Uint8Array {
  return new Uint8Array(Buffer.concat([Buffer.from(`P5\n${side} ${side}\n255\n`), Buffer.alloc(16, 0xff)]));
}

/** A real JPEG whose frame says `side` px square, one padding byte before it (decoders skip it). */
async function jpegSizeHidden(side: number): Promise<Uint8Array> {
  const jpeg = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#fff' } })
    .jpeg()
    .toBuffer();
  const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
  jpeg.writeUInt16BE(side, sof + 5);
  jpeg.writeUInt16BE(side, sof + 7);
  return new Uint8Array(Buffer.concat([jpeg.subarray(0, sof), Buffer.from([0x00]), jpeg.subarray(sof)]));
}

const files: [string, () => Promise<Uint8Array>][] = [
  ['BMP', async () => bmpDeclaring(SIDE)],
  ['GIF', async () => gifDeclaring(SIDE)],
  ['PGM', async () => pgmDeclaring(SIDE)],
  ['JPEG whose size is behind a padding byte', () => jpegSizeHidden(SIDE)],
];

it.each(files)(
  'leaves unread a %s declaring more pixels than any scan, its memory never spent',
  async (name, make) => {
    const reader = createNodeReader();
    try {
      const file = await make();
      const bytes = file.length;
      const before = process.memoryUsage().rss;
      let peak = before;
      const sample = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 5);
      let reading;
      try {
        reading = await reader.readDocument(file).catch((error: unknown) => ({ error: String(error) }));
      } finally {
        clearInterval(sample);
      }
      const kept = process.memoryUsage().rss;
      peak = Math.max(peak, kept);
      const grewMb = (peak - before) / 2 ** 20;
      console.info(
        `${name} of ${bytes} bytes declaring ${SIDE} px square: RSS grew ${Math.round(grewMb)} MB at most, ${Math.round((kept - before) / 2 ** 20)} MB kept after`,
      );
      expect(reading).toEqual({});
      // A legitimate 600 dpi letter scan (34 MP) decodes to some 140 MB.
      expect(grewMb).toBeLessThan(300);
    } finally {
      await reader.close();
    }
  },
  60_000,
);
