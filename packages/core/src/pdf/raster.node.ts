/** The converter's and the quality check's pixel work in Node, with sharp (an optional peer dependency). */
import sharp from 'sharp';
import type { FileLike } from '../ports.js';
import { copySize, measurePixels } from '../quality/metrics.js';
import { decodeBmp } from './bmp.js';
import type { ImageFormat } from './image-info.js';
import type { ImageCheckPort, RasterPort } from './raster.js';

/** sharp reading the image; BMP, which sharp cannot read, decoded here first. */
async function open(file: FileLike, format: ImageFormat): Promise<sharp.Sharp> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (format === 'bmp') {
    const bmp = decodeBmp(bytes);
    return sharp(bmp.data, { raw: { width: bmp.width, height: bmp.height, channels: 4 } });
  }
  return sharp(bytes, { failOn: 'error' });
}

/**
 * Whether this sharp can read HEIF at all. The prebuilt binaries read only its AV1 flavour (AVIF),
 * not the HEVC one phones write; a libvips built with libde265 reads both. Either way the file
 * itself decides.
 */
function readsHeif(): boolean {
  return Boolean(sharp.format.heif?.input.buffer);
}

/**
 * The ports backed by sharp. Converter: EXIF orientation applied by `autoOrient()`, then the turn,
 * Lanczos downscale, alpha flattened onto white. Quality check: a grey copy by sharp's
 * shrink-on-load and Lanczos, measured by the same code as in browsers.
 */
export function createSharpRaster(): RasterPort & ImageCheckPort {
  return {
    async toJpeg({ file, format, maxSide, quality, rotate = 0 }) {
      const input = await open(file, format);
      // EXIF orientation first, then the person's turn: sharp allows exactly this pair.
      const { data, info } = await input
        .autoOrient()
        .rotate(rotate)
        .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: Math.round(quality * 100) })
        .toBuffer({ resolveWithObject: true });
      return {
        bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
        width: info.width,
        height: info.height,
      };
    },

    async measure({ file, format, maxSide }) {
      const input = await open(file, format);
      const { width, height } = await input.metadata();
      // The copy at an exact half, quarter or eighth: a JPEG then comes straight from shrink-on-load,
      // the same pixels a browser's ImageDecoder gives.
      const copy = copySize(width, height, maxSide);
      const { data, info } = await input
        .resize({ width: copy.width, height: copy.height, fit: 'fill' })
        .raw({ depth: 'uchar' })
        .toBuffer({ resolveWithObject: true });
      return { ...measurePixels(data, info.channels, info.width, info.height, maxSide), width, height };
    },

    async canDecode({ file, format }) {
      if (format === 'heif' && !readsHeif()) return false;
      try {
        await (await open(file, format)).resize({ width: 8, height: 8, fit: 'inside' }).raw().toBuffer();
        return true;
      } catch {
        return false;
      }
    },
  };
}
