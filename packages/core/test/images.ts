/**
 * Test photos made with sharp: an upright scene with a coloured marker in three corners (red top-left,
 * green top-right, blue bottom-left), stored rotated/mirrored so that applying its EXIF orientation
 * shows it upright again. BMP, which sharp cannot write, is encoded here.
 */
import sharp from 'sharp';

export type PhotoFormat = 'jpeg' | 'png' | 'webp' | 'bmp';
export const MIME: Record<PhotoFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  bmp: 'image/bmp',
};
export const EXTENSION: Record<PhotoFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', bmp: 'bmp' };

export const RED = [220, 30, 30] as const;
export const GREEN = [30, 200, 60] as const;
export const BLUE = [30, 60, 220] as const;

/**
 * The upright scene as raw RGB: a soft gradient with a little texture, and the three corner markers.
 * `grain` adds sensor-like noise so a JPEG of it is as large as a real phone photo.
 */
function scene(width: number, height: number, grain = false): Buffer {
  let seed = 12345;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return ((seed >> 16) % 25) - 12;
  };
  const data = Buffer.alloc(width * height * 3);
  const marker = Math.max(4, Math.round(Math.min(width, height) / 5));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      let pixel: readonly number[];
      if (x < marker && y < marker) pixel = RED;
      else if (x >= width - marker && y < marker) pixel = GREEN;
      else if (x < marker && y >= height - marker) pixel = BLUE;
      else {
        const v =
          110 +
          Math.round((40 * (x + y)) / (width + height)) +
          ((x * 7 + y * 13) % 9) +
          (grain ? noise() : 0);
        pixel = [v, v, v + 8];
      }
      data[at] = pixel[0]!;
      data[at + 1] = pixel[1]!;
      data[at + 2] = pixel[2]!;
    }
  }
  return data;
}

/** The dihedral transform (rotation, then optional mirror) that stores an upright image for each orientation. */
const STORE: Record<number, { rotate: number; flop: boolean }> = {
  1: { rotate: 0, flop: false },
  2: { rotate: 0, flop: true },
  3: { rotate: 180, flop: false },
  4: { rotate: 180, flop: true },
  5: { rotate: 90, flop: true },
  6: { rotate: 270, flop: false },
  7: { rotate: 270, flop: true },
  8: { rotate: 90, flop: false },
};

/** A BMP (24-bit, bottom-up, BI_RGB) of raw RGB pixels. */
export function encodeBmp(rgb: Uint8Array, width: number, height: number): Uint8Array {
  const stride = Math.ceil((width * 3) / 4) * 4;
  const size = 54 + stride * height;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set([0x42, 0x4d]);
  view.setUint32(2, size, true);
  view.setUint32(10, 54, true);
  view.setUint32(14, 40, true);
  view.setInt32(18, width, true);
  view.setInt32(22, height, true);
  view.setUint16(26, 1, true);
  view.setUint16(28, 24, true);
  view.setUint32(34, stride * height, true);
  view.setInt32(38, 2835, true);
  view.setInt32(42, 2835, true);
  for (let y = 0; y < height; y++) {
    const row = 54 + (height - 1 - y) * stride;
    for (let x = 0; x < width; x++) {
      const src = (y * width + x) * 3;
      out.set([rgb[src + 2]!, rgb[src + 1]!, rgb[src]!], row + x * 3);
    }
  }
  return out;
}

/**
 * A photo whose upright size is `width`×`height`, stored with EXIF `orientation` (JPEG, PNG, WebP;
 * BMP has no EXIF and is always upright).
 */
export async function makePhoto(
  format: PhotoFormat,
  width: number,
  height: number,
  orientation = 1,
  { grain = false } = {},
): Promise<Uint8Array> {
  const upright = sharp(scene(width, height, grain), { raw: { width, height, channels: 3 } });
  if (format === 'bmp') {
    if (orientation !== 1) throw new Error('BMP has no EXIF orientation');
    return encodeBmp(scene(width, height, grain), width, height);
  }
  const { rotate, flop } = STORE[orientation]!;
  // Separate passes: sharp would otherwise reorder rotate and flop.
  const rotated = await upright.rotate(rotate).raw().toBuffer({ resolveWithObject: true });
  let stored = sharp(rotated.data, { raw: rotated.info });
  if (flop) stored = sharp(await stored.flop().raw().toBuffer(), { raw: rotated.info });
  const encoded =
    format === 'jpeg'
      ? stored.jpeg({ quality: 90 })
      : format === 'png'
        ? stored.png()
        : stored.webp({ quality: 90 });
  return new Uint8Array(await encoded.withMetadata({ orientation }).toBuffer());
}

/** A HEIC-looking file (ISO-BMFF `ftypheic` header and filler); nothing in core may decode it. */
export function fakeHeic(): Uint8Array {
  const bytes = new Uint8Array(4096);
  bytes.set([0, 0, 0, 24, ...Buffer.from('ftypheic'), 0, 0, 0, 0, ...Buffer.from('mif1heic')]);
  for (let i = 24; i < bytes.length; i++) bytes[i] = (i * 31) & 0xff;
  return bytes;
}
