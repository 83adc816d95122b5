/**
 * A BMP decoder for the common uncompressed kinds (1/4/8-bit palette, 16/24/32-bit, BI_RGB and
 * BI_BITFIELDS), for decoders without BMP support (sharp). Returns RGBA, top row first.
 */

/** Decoded pixels. */
export interface RgbaImage {
  width: number;
  height: number;
  /** width × height × 4 bytes. */
  data: Uint8Array;
}

function maskShift(mask: number): { shift: number; max: number } {
  if (!mask) return { shift: 0, max: 0 };
  let shift = 0;
  while (!((mask >>> shift) & 1)) shift++;
  return { shift, max: mask >>> shift };
}

/** Decodes a BMP. Throws on kinds it does not support (RLE, JPEG/PNG-in-BMP). */
export function decodeBmp(bytes: Uint8Array): RgbaImage {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[0] !== 0x42 || bytes[1] !== 0x4d) throw new Error('Not a BMP file');
  const dataOffset = view.getUint32(10, true);
  const headerSize = view.getUint32(14, true);
  const core = headerSize === 12;
  const width = core ? view.getUint16(18, true) : view.getInt32(18, true);
  const rawHeight = core ? view.getInt16(20, true) : view.getInt32(22, true);
  const bpp = core ? view.getUint16(24, true) : view.getUint16(28, true);
  const compression = core ? 0 : view.getUint32(30, true);
  const height = Math.abs(rawHeight);
  const topDown = rawHeight < 0;
  if (width <= 0 || height <= 0 || width * height > 100_000_000) throw new Error('Unsupported BMP size');
  if (compression !== 0 && compression !== 3) throw new Error(`Unsupported BMP compression ${compression}`);

  let masks = bpp === 16 ? [0x7c00, 0x03e0, 0x001f, 0] : [0xff0000, 0xff00, 0xff, 0];
  if (compression === 3) {
    const at = headerSize >= 52 ? 54 : 14 + headerSize;
    masks = [view.getUint32(at, true), view.getUint32(at + 4, true), view.getUint32(at + 8, true)];
    masks.push(headerSize >= 56 ? view.getUint32(54 + 12, true) : 0);
  }
  const channels = masks.map(maskShift);

  const paletteAt = 14 + headerSize;
  const paletteEntry = core ? 3 : 4;
  const palette = (index: number) => {
    const at = paletteAt + index * paletteEntry;
    return [bytes[at + 2] ?? 0, bytes[at + 1] ?? 0, bytes[at] ?? 0];
  };

  const stride = Math.floor((bpp * width + 31) / 32) * 4;
  const data = new Uint8Array(width * height * 4);
  for (let row = 0; row < height; row++) {
    const src = dataOffset + (topDown ? row : height - 1 - row) * stride;
    for (let x = 0; x < width; x++) {
      const out = (row * width + x) * 4;
      let r: number,
        g: number,
        b: number,
        a = 255;
      if (bpp <= 8) {
        const bit = x * bpp;
        // Past the end of a truncated file reads as 0, as the palette lookup does.
        const index = ((bytes[src + (bit >> 3)] ?? 0) >> (8 - bpp - (bit & 7))) & ((1 << bpp) - 1);
        [r, g, b] = palette(index) as [number, number, number];
      } else if (bpp === 24 && compression === 0) {
        const at = src + x * 3;
        [b, g, r] = [bytes[at] ?? 0, bytes[at + 1] ?? 0, bytes[at + 2] ?? 0];
      } else if (bpp === 16 || bpp === 32) {
        const value = bpp === 16 ? view.getUint16(src + x * 2, true) : view.getUint32(src + x * 4, true);
        const [cr, cg, cb, ca] = channels.map(({ shift, max }) =>
          max ? Math.round((((value >>> shift) & max) * 255) / max) : -1,
        ) as [number, number, number, number];
        [r, g, b] = [cr, cg, cb];
        a = ca < 0 ? 255 : ca;
      } else {
        throw new Error(`Unsupported BMP depth ${bpp}`);
      }
      data.set([r, g, b, a], out);
    }
  }
  // 32-bit BI_RGB files usually leave the fourth byte zero: treat all-transparent as opaque.
  if (bpp === 32 && compression === 0) {
    let anyAlpha = false;
    for (let i = 3; i < data.length && !anyAlpha; i += 4) anyAlpha = data[i] !== 0;
    if (!anyAlpha) for (let i = 3; i < data.length; i += 4) data[i] = 255;
  }
  return { width, height, data };
}
