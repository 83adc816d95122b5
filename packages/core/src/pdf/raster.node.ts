/** The converter's pixel work in Node, with sharp (an optional peer dependency). */
import sharp from 'sharp';
import { decodeBmp } from './bmp.js';
import type { RasterPort } from './raster.js';

/**
 * A {@link RasterPort} backed by sharp: EXIF orientation applied by `autoOrient()`, Lanczos
 * downscale, alpha flattened onto white. BMP, which sharp cannot read, is decoded here first.
 */
export function createSharpRaster(): RasterPort {
  return {
    async toJpeg({ file, format, maxSide, quality, rotate = 0 }) {
      const bytes = new Uint8Array(await file.arrayBuffer());
      let input: sharp.Sharp;
      if (format === 'bmp') {
        const bmp = decodeBmp(bytes);
        input = sharp(bmp.data, { raw: { width: bmp.width, height: bmp.height, channels: 4 } });
      } else {
        input = sharp(bytes, { failOn: 'error' });
      }
      // EXIF orientation first, then the person's turn: sharp allows exactly this pair.
      const { data, info } = await input
        .autoOrient()
        .rotate(rotate)
        .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: Math.round(quality * 100) })
        .toBuffer({ resolveWithObject: true });
      return { bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
    },
  };
}
