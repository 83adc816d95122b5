import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import bwipjs from 'bwip-js';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { PDF417_OPTIONS, readPdf417, type ReadPixels } from './barcodes.js';

const AAMVA =
  '@\n\x1e\rANSI 636032080002DL00410278ZM03190008DLDAQ123456789\nDCSDOE\nDACJANE\nDBB01021980\nDBA03152025\nDBD03152018\nDAJMI\n';

const read: ReadPixels = ({ data, width, height }) =>
  readBarcodes({ data: new Uint8ClampedArray(data), width, height, colorSpace: 'srgb' }, PDF417_OPTIONS);

/** A card's back as a phone sees it: the barcode on a pale card, turned `degrees`, on a desk. */
async function turnedBack(degrees: number) {
  // `columns` is one of the barcode writer's own options, passed through (not in bwip-js's types).
  const options = {
    bcid: 'pdf417',
    text: AAMVA,
    columns: 10,
    scale: 2,
    paddingwidth: 30,
    paddingheight: 40,
    backgroundcolor: 'FBF8F1',
  };
  const barcode = await bwipjs.toBuffer(options);
  const { data, info } = await sharp(barcode)
    .rotate(degrees, { background: '#6b5b4b' })
    .extend({ top: 300, bottom: 300, left: 300, right: 300, background: '#6b5b4b' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data), width: info.width, height: info.height, channels: 4 as const };
}

beforeAll(async () => {
  const wasm = await readFile(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
  await prepareZXingModule({ overrides: { wasmBinary: wasm.buffer }, fireImmediately: true });
});

describe('readPdf417', () => {
  it.each([3, -3, 5, -6, 8, -8])(
    'reads a license barcode turned %i°, which zxing finds but cannot decode as it is',
    async (degrees) => {
      const pixels = await turnedBack(degrees);
      // The plain look finds the symbol, not its text: without the level copy, nothing is read.
      const plain = await read(pixels);
      expect(plain.length).toBeGreaterThan(0);
      expect(plain.filter((b) => b.isValid)).toEqual([]);
      expect(await readPdf417(pixels, read)).toEqual([expect.stringContaining('DBA03152025')]);
    },
  );

  it('looks once where there is no barcode', async () => {
    const pixels = await turnedBack(0);
    // The card without its barcode: the same size, the card's colour throughout.
    pixels.data.fill(0xf0);
    let looks = 0;
    const counted: ReadPixels = (p) => {
      looks++;
      return read(p);
    };
    expect(await readPdf417(pixels, counted)).toEqual([]);
    expect(looks).toBe(1);
  });
});
