import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeBmp } from '../../test/images.js';
import { decodeBmp } from './bmp.js';

function bmp32(
  width: number,
  height: number,
  pixel: (x: number, y: number) => [number, number, number, number],
) {
  const out = new Uint8Array(54 + width * height * 4);
  const view = new DataView(out.buffer);
  out.set([0x42, 0x4d]);
  view.setUint32(2, out.length, true);
  view.setUint32(10, 54, true);
  view.setUint32(14, 40, true);
  view.setInt32(18, width, true);
  view.setInt32(22, -height, true); // top-down
  view.setUint16(26, 1, true);
  view.setUint16(28, 32, true);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b, a] = pixel(x, y);
      out.set([b, g, r, a], 54 + (y * width + x) * 4);
    }
  }
  return out;
}

describe('decodeBmp', () => {
  it('decodes 24-bit bottom-up rows with padding', async () => {
    const width = 5; // 15 bytes a row: padded to 16
    const height = 3;
    const rgb = new Uint8Array(width * height * 3).map((_, i) => (i * 37) % 256);
    const image = decodeBmp(encodeBmp(rgb, width, height));
    expect([image.width, image.height]).toEqual([width, height]);
    const back = await sharp(image.data, { raw: { width, height, channels: 4 } })
      .removeAlpha()
      .raw()
      .toBuffer();
    expect(new Uint8Array(back)).toEqual(rgb);
  });

  it('decodes 32-bit top-down, treating an all-zero alpha byte as opaque', () => {
    const image = decodeBmp(bmp32(2, 2, (x, y) => [x * 100, y * 100, 7, 0]));
    expect([...image.data]).toEqual([0, 0, 7, 255, 100, 0, 7, 255, 0, 100, 7, 255, 100, 100, 7, 255]);
  });

  it('refuses what it does not support', () => {
    const rle = encodeBmp(new Uint8Array(3), 1, 1);
    new DataView(rle.buffer).setUint32(30, 1, true); // BI_RLE8
    expect(() => decodeBmp(rle)).toThrow(/compression/);
    expect(() => decodeBmp(new Uint8Array([1, 2, 3]))).toThrow(/Not a BMP/);
  });
});
