import { expect, it } from 'vitest';
import sharp from 'sharp';
import { declaredPixels } from './declared-size.js';
import { pgmOf } from './page-image.js';

const photo = () => sharp({ create: { width: 300, height: 200, channels: 3, background: '#abc' } });

it.each(['jpeg', 'png', 'webp', 'tiff', 'gif'] as const)('reads the size a %s declares', async (format) => {
  const bytes = new Uint8Array(await photo().toFormat(format).toBuffer());
  expect(declaredPixels(bytes)).toBe(300 * 200);
});

it('reads the size of a lossless WebP, a PGM and a BMP', async () => {
  const lossless = new Uint8Array(await photo().webp({ lossless: true }).toBuffer());
  expect(declaredPixels(lossless)).toBe(300 * 200);
  expect(declaredPixels(pgmOf({ gray: new Uint8Array(6), width: 3, height: 2 }))).toBe(6);
  const bmp = Buffer.alloc(54);
  bmp.write('BM', 0, 'latin1');
  bmp.writeUInt32LE(40, 14);
  bmp.writeInt32LE(300, 18);
  bmp.writeInt32LE(-200, 22);
  expect(declaredPixels(new Uint8Array(bmp))).toBe(300 * 200);
});

it('counts an image whose size is not where its format puts it as over any cap', () => {
  expect(declaredPixels(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0]))).toBe(Infinity);
  expect(declaredPixels(new TextEncoder().encode('P5\nabc'))).toBe(Infinity);
  expect(declaredPixels(new TextEncoder().encode('not an image'))).toBe(0);
});
