// The converter with the Node raster (sharp). The same rules in real Chromium: test/browser/converter.test.ts.
import { describe, expect, it } from 'vitest';
import { EXTENSION, MIME, fakeHeic, makePhoto } from '../../test/images.js';
import type { PhotoFormat } from '../../test/images.js';
import { inspectPdf } from '../../test/pdf-inspect.js';
import { expectLetterPdf } from '../../test/pdf-expect.js';
import { createRecordingLogger, createTestFile } from '../testing/index.js';
import type { FileLike } from '../ports.js';
import { imageToLetterPdf, letterLayout } from './letter-pdf.js';
import { createSharpRaster } from './raster.node.js';
import type { RasterPort } from './raster.js';

function countingRaster(): RasterPort & { calls: number } {
  const inner = createSharpRaster();
  const raster = {
    calls: 0,
    toJpeg(request: Parameters<RasterPort['toJpeg']>[0]) {
      raster.calls += 1;
      return inner.toJpeg(request);
    },
  };
  return raster;
}

async function convert(
  file: FileLike,
  raster: RasterPort = createSharpRaster(),
  rotate?: 0 | 90 | 180 | 270,
) {
  const logger = createRecordingLogger();
  const result = await imageToLetterPdf(file, { raster, logger }, { rotate });
  return { result, bytes: new Uint8Array(await result.arrayBuffer()), warnings: logger.warnings };
}

const photoFile = async (
  format: PhotoFormat,
  width: number,
  height: number,
  orientation = 1,
  name = 'photo',
) =>
  createTestFile(
    `${name}.${EXTENSION[format]}`,
    await makePhoto(format, width, height, orientation),
    MIME[format],
  );

describe('letterLayout', () => {
  it('portrait Letter for tall and square images, landscape when wider than tall, 36 pt margins', () => {
    expect(letterLayout(1000, 2000)).toEqual({
      pageWidth: 612,
      pageHeight: 792,
      x: 126,
      y: 36,
      width: 360,
      height: 720,
    });
    expect(letterLayout(500, 500)).toMatchObject({
      pageWidth: 612,
      pageHeight: 792,
      x: 36,
      width: 540,
      height: 540,
      y: 126,
    });
    expect(letterLayout(2000, 1000)).toEqual({
      pageWidth: 792,
      pageHeight: 612,
      x: 36,
      y: 126,
      width: 720,
      height: 360,
    });
  });

  it('fits small images up to the margins too', () => {
    expect(letterLayout(60, 80)).toMatchObject({ width: 540, height: 720, x: 36, y: 36 });
  });
});

describe('imageToLetterPdf (Node raster)', () => {
  it.each([
    ['jpeg', 4032, 3024],
    ['jpeg', 900, 1400],
    ['png', 2400, 1800],
    ['png', 300, 200],
    ['webp', 1800, 2600],
    ['bmp', 1000, 700],
    ['bmp', 1900, 2100],
  ] as const)('%s %i×%i → one fitted, centred Letter page, ≤ 1700 px', async (format, width, height) => {
    const { result, bytes } = await convert(await photoFile(format, width, height));
    expect(result.name).toBe('photo.pdf');
    expect(result.type).toBe('application/pdf');
    await expectLetterPdf(bytes, { width, height });
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('honours EXIF orientation %i', async (orientation) => {
    for (const format of ['jpeg', 'png', 'webp'] as const) {
      const { bytes } = await convert(await photoFile(format, 1200, 800, orientation));
      await expectLetterPdf(bytes, { width: 1200, height: 800 });
    }
  });

  it.each([90, 180, 270] as const)(
    'turns the page %i° clockwise after the EXIF orientation',
    async (rotate) => {
      // A landscape photo turned a quarter becomes a portrait page, and the other way round.
      await expectLetterPdf(
        (await convert(await photoFile('png', 1200, 800), undefined, rotate)).bytes,
        { width: 1200, height: 800 },
        rotate,
      );
      for (const orientation of [3, 6, 7]) {
        const { bytes } = await convert(await photoFile('jpeg', 900, 1300, orientation), undefined, rotate);
        await expectLetterPdf(bytes, { width: 900, height: 1300 }, rotate);
      }
    },
  );

  it('re-encodes a small upright JPEG when it is turned', async () => {
    const raster = countingRaster();
    const { bytes } = await convert(await photoFile('jpeg', 1200, 800), raster, 90);
    expect(raster.calls).toBe(1);
    await expectLetterPdf(bytes, { width: 1200, height: 800 }, 90);
  });

  it('a turn that is not a quarter logs a warning and keeps the original', async () => {
    const file = await photoFile('png', 300, 200);
    const logger = createRecordingLogger();
    const result = await imageToLetterPdf(
      file,
      { raster: createSharpRaster(), logger },
      { rotate: 45 as 90 },
    );
    expect(result).toBe(file);
    expect(logger.warnings).toHaveLength(1);
  });

  it('embeds an upright JPEG within 1700 px as it is, without re-encoding', async () => {
    const original = await makePhoto('jpeg', 1700, 1200);
    const raster = countingRaster();
    const { bytes } = await convert(createTestFile('scan.jpg', original, 'image/jpeg'), raster);
    expect(raster.calls).toBe(0);
    expect(Buffer.from((await inspectPdf(bytes)).jpeg).equals(Buffer.from(original))).toBe(true);
  });

  it('re-encodes a small JPEG that is not upright, and one larger than 1700 px', async () => {
    const raster = countingRaster();
    await convert(await photoFile('jpeg', 800, 600, 6), raster);
    await convert(await photoFile('jpeg', 1701, 1000), raster);
    expect(raster.calls).toBe(2);
  });

  it('converts HEIC only where the raster port decodes it', async () => {
    const jpeg = createTestFile('stand-in.jpg', await makePhoto('jpeg', 800, 1000), 'image/jpeg');
    const decodes = (answer: boolean) => ({
      calls: 0,
      canDecode: async () => answer,
      toJpeg(request: Parameters<RasterPort['toJpeg']>[0]) {
        this.calls += 1;
        // A platform that decodes HEIC (Safari) hands back the photo as JPEG.
        return createSharpRaster().toJpeg({ ...request, file: jpeg, format: 'jpeg' });
      },
    });
    const heic = createTestFile('IMG_0001.HEIC', fakeHeic(), 'image/heic');
    const safari = decodes(true);
    const { result, bytes } = await convert(heic, safari);
    expect(result.name).toBe('IMG_0001.pdf');
    await expectLetterPdf(bytes, { width: 800, height: 1000 });
    const chromium = decodes(false);
    expect((await convert(heic, chromium)).result).toBe(heic);
    expect(chromium.calls).toBe(0);
  });

  it('never converts HEIC or HEIF where the raster port cannot say it decodes them', async () => {
    const raster = countingRaster();
    for (const file of [
      createTestFile('IMG_0001.HEIC', fakeHeic(), 'image/heic'),
      createTestFile('IMG_0002.heif', fakeHeic(), ''),
      createTestFile('IMG_0003.jpg', fakeHeic(), 'image/jpeg'),
    ]) {
      const { result, warnings } = await convert(file, raster);
      expect(result).toBe(file);
      expect(warnings).toEqual([]);
    }
    expect(raster.calls).toBe(0);
  });

  it('leaves other files alone', async () => {
    const pdf = createTestFile('form.pdf', '%PDF-1.7', 'application/pdf');
    expect((await convert(pdf)).result).toBe(pdf);
  });

  it('converts by type when the name has no image extension', async () => {
    const { result } = await convert(
      createTestFile('camera-upload', await makePhoto('png', 200, 300), 'image/png'),
    );
    expect(result.name).toBe('camera-upload.pdf');
  });

  it('on failure logs a warning and returns the original file', async () => {
    const broken = createTestFile(
      'broken.png',
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]),
      'image/png',
    );
    const { result, warnings } = await convert(broken);
    expect(result).toBe(broken);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain('broken.png');
  });
});
