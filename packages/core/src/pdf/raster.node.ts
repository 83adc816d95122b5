/** The converter's and the quality check's pixel work in Node, with sharp (an optional peer dependency). */
import sharp from 'sharp';
import type { FileLike } from '../ports.js';
import {
  copySize,
  grayFromPixels,
  measurePixels,
  QUALITY_SAMPLE_SIDE,
  shrinkGray,
} from '../quality/metrics.js';
import { measurePagePixels } from '../quality/page-metrics.js';
import { resolveCrop, straightenPixels } from '../straighten/page.js';
import { decodeBmp } from './bmp.js';
import type { ImageFormat } from './image-info.js';
import type { ImageCheckPort, PagePixelsPort, RasterPort, RasterRequest } from './raster.js';

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
 * The page straightened as the request's `crop` asks, RGBA, upright and not yet turned: the same
 * detector and warp as in browsers, on sharp's pixels.
 */
async function straightenedPage({ file, format, maxSide, crop }: RasterRequest) {
  const input = await open(file, format);
  const { data, info } = await input
    .autoOrient()
    .resize({ width: 2 * maxSide, height: 2 * maxSide, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const outline = resolveCrop(crop ?? { mode: 'find' }, () =>
    shrinkGray(grayFromPixels(data, 4), info.width, info.height, QUALITY_SAMPLE_SIDE),
  );
  const page = straightenPixels(
    { data, width: info.width, height: info.height, channels: 4 },
    outline.corners,
    maxSide,
  );
  return { page, outline };
}

/**
 * The ports backed by sharp. Converter: EXIF orientation applied by `autoOrient()`, then the turn,
 * Lanczos downscale, alpha flattened onto white. Quality check: a grey copy by sharp's
 * shrink-on-load and Lanczos, measured by the same code as in browsers.
 */
export function createSharpRaster(): RasterPort & ImageCheckPort & PagePixelsPort {
  return {
    async toJpeg(request) {
      const { file, format, maxSide, quality, rotate = 0, crop } = request;
      if (crop && crop.mode !== 'whole') {
        const { page, outline } = await straightenedPage(request);
        const { data, info } = await sharp(page.data, {
          raw: { width: page.width, height: page.height, channels: 4 },
        })
          .rotate(rotate)
          .removeAlpha()
          .jpeg({ quality: Math.round(quality * 100) })
          .toBuffer({ resolveWithObject: true });
        return {
          bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
          width: info.width,
          height: info.height,
          outline,
        };
      }
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

    async pagePixels(request) {
      const { page, outline } = await straightenedPage(request);
      const { data, info } = await sharp(page.data, {
        raw: { width: page.width, height: page.height, channels: 4 },
      })
        .rotate(request.rotate ?? 0)
        .raw()
        .toBuffer({ resolveWithObject: true });
      return {
        data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength),
        width: info.width,
        height: info.height,
        outline,
      };
    },

    async measure({ file, format, maxSide, page }) {
      const input = await open(file, format);
      const { width, height } = await input.metadata();
      // The copy at an exact half, quarter or eighth: a JPEG then comes straight from shrink-on-load,
      // the same pixels a browser's ImageDecoder gives.
      const copy = copySize(width, height, maxSide);
      const { data, info } = await input
        .resize({ width: copy.width, height: copy.height, fit: 'fill' })
        .raw({ depth: 'uchar' })
        .toBuffer({ resolveWithObject: true });
      const measured = page
        ? measurePagePixels(data, info.channels, info.width, info.height, maxSide)
        : measurePixels(data, info.channels, info.width, info.height, maxSide);
      return { ...measured, width, height };
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
