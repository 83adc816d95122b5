/**
 * The page the Chromium tests and the benchmark drive: the real converter with the real worker,
 * bundled by Vite like an app would bundle it. Fixtures are fetched from the test server.
 */
import { createInlineRaster, createWorkerRaster } from '../../src/browser/index.js';
import { canConvertImage } from '../../src/pdf/can-convert.js';
import { imageToLetterPdf, readImageSource } from '../../src/pdf/letter-pdf.js';
import type { PageCrop } from '../../src/straighten/page.js';
import type { QuarterTurn } from '../../src/pdf/raster.js';
import { imagesToLetterPdf } from '../../src/pdf/scan-pdf.js';
import type { FileLike } from '../../src/ports.js';
import { assessImage } from '../../src/quality/assess.js';
import { measurePixels, QUALITY_SAMPLE_SIDE } from '../../src/quality/metrics.js';

const raster = createWorkerRaster();
const warnings: string[] = [];
const logger = { warn: (message: string) => void warnings.push(message) };

async function fixture(name: string, type: string): Promise<File> {
  const response = await fetch(`/fixtures/${encodeURIComponent(name)}`);
  if (!response.ok) throw new Error(`fixture ${name}: ${response.status}`);
  return new File([await response.arrayBuffer()], name, { type });
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

async function describe(file: FileLike, original: File) {
  return {
    same: file === original,
    name: file.name,
    type: file.type,
    base64: toBase64(new Uint8Array(await file.arrayBuffer())),
  };
}

/** Converts a fixture with the real worker raster. */
async function convert(name: string, type: string, rotate?: QuarterTurn) {
  warnings.length = 0;
  const original = await fixture(name, type);
  const result = await imageToLetterPdf(original, { raster, logger }, { rotate });
  return { ...(await describe(result, original)), warnings: [...warnings] };
}

/** Builds one PDF of several fixtures (name, type, turn). */
async function scan(pages: [name: string, type: string, rotate: QuarterTurn][]) {
  const files = await Promise.all(
    pages.map(async ([name, type, rotate]) => ({ file: await fixture(name, type), rotate })),
  );
  const pdf = await imagesToLetterPdf(files, { raster });
  return { name: pdf.name, base64: toBase64(new Uint8Array(await pdf.arrayBuffer())) };
}

/** The quality check of a fixture, in the worker. */
async function assess(name: string, type: string) {
  return assessImage(await fixture(name, type), { raster });
}

/** Whether the fixture could become a PDF page in this browser. */
async function canConvert(name: string, type: string) {
  return canConvertImage(await fixture(name, type), { raster });
}

/** Time of one call, in ms. */
async function time(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/**
 * The bare floor: decode + resize + JPEG encode on an OffscreenCanvas, no worker, no PDF. `high` is
 * the resize quality the converter uses (small print on forms stays legible); `low` is the cheapest.
 */
async function floor(file: File, quality: ImageSmoothingQuality): Promise<void> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, 1700 / Math.max(bitmap.width, bitmap.height));
  const width = Math.round(bitmap.width * scale);
  const height = Math.round(bitmap.height * scale);
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d')!;
  context.imageSmoothingQuality = quality;
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.82 });
}

/** Longest gap between main-thread ticks and long tasks while `run` goes on. */
async function watchMainThread<T>(
  run: () => Promise<T>,
): Promise<{ result: T; ms: number; maxGap: number; longTasks: number[] }> {
  const longTasks: number[] = [];
  const observer = new PerformanceObserver((list) =>
    longTasks.push(...list.getEntries().map((e) => e.duration)),
  );
  observer.observe({ type: 'longtask', buffered: false });
  let maxGap = 0;
  let last = 0;
  let ticking = true;
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    const now = performance.now();
    if (last) maxGap = Math.max(maxGap, now - last);
    last = now;
    if (ticking) setTimeout(() => channel.port2.postMessage(0), 0);
  };
  channel.port2.postMessage(0);
  const start = performance.now();
  const result = await run();
  const ms = performance.now() - start;
  ticking = false;
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer.disconnect();
  return { result, ms, maxGap, longTasks };
}

/** Time of one `ImageDecoder` decode of a JPEG at about `width`×`height` (an n/8 of its size), nothing else. */
async function timeDecode(file: File, width: number, height: number): Promise<number> {
  const start = performance.now();
  const decoder = new ImageDecoder({
    data: file.stream(),
    type: 'image/jpeg',
    desiredWidth: width,
    desiredHeight: height,
  });
  (await decoder.decode()).image.close();
  decoder.close();
  return performance.now() - start;
}

/**
 * The capture benchmark: the quality check of a 12 MP photo (the whole call from the page, the same
 * work on this thread, the metrics alone, and the floor: the decoder's 1/8 decode alone), then one
 * scan of the `pages` photos, watching the page's main thread meanwhile.
 */
async function benchCapture(photo: string, pages: string[], runs: number) {
  const file = await fixture(photo, 'image/jpeg');
  const scanFiles = await Promise.all(pages.map((name) => fixture(name, 'image/jpeg')));
  const idle = () => new Promise((resolve) => setTimeout(resolve, 200));
  await assessImage(file, { raster }); // warm-up: worker start
  await imagesToLetterPdf([{ file }, { file }], { raster });
  const inline = createInlineRaster();
  await assessImage(file, { raster: inline });
  const assess: number[] = [];
  const sameWorkHere: number[] = [];
  const metricsOnly: number[] = [];
  const decodeFloor: number[] = [];
  const pdfDecode: number[] = [];
  // A 12 MP photo's copy as the worker reads it off the decoder: 504×378 BGRX, measured as it is.
  const copy = new Uint8ClampedArray(504 * 378 * 4).map((_, i) =>
    i % 4 === 3 ? 255 : (i * 2654435761) >>> 24,
  );
  for (let i = 0; i < runs; i++) {
    await idle();
    let start = performance.now();
    await assessImage(file, { raster });
    assess.push(performance.now() - start);
    await idle();
    start = performance.now();
    await assessImage(file, { raster: inline });
    sameWorkHere.push(performance.now() - start);
    start = performance.now();
    measurePixels(copy, 4, 504, 378, QUALITY_SAMPLE_SIDE, { blueFirst: true, opaque: true });
    metricsOnly.push(performance.now() - start);
    // The floor: the JPEG decoder's own 1/8 decode, nothing else.
    await idle();
    decodeFloor.push(await timeDecode(file, 504, 378));
    // The decode the PDF conversion of the same photo makes (1/2: its page is 1700 px long).
    await idle();
    pdfDecode.push(await timeDecode(file, 2016, 1512));
  }
  const scans: { ms: number; maxGap: number; longTasks: number[] }[] = [];
  for (let i = 0; i < Math.max(1, Math.round(runs / 2)); i++) {
    await idle();
    const { ms, maxGap, longTasks } = await watchMainThread(() =>
      imagesToLetterPdf(
        scanFiles.map((page) => ({ file: page })),
        { raster },
      ),
    );
    scans.push({ ms, maxGap, longTasks });
  }
  return { assess, sameWorkHere, metricsOnly, decodeFloor, pdfDecode, scans };
}

/** Runs the benchmark of the issue inside the page; see bench/. */
async function bench(photo: string, small: string, runs: number) {
  const photoFile = await fixture(photo, 'image/jpeg');
  const smallFile = await fixture(small, 'image/jpeg');
  const idle = () => new Promise((resolve) => setTimeout(resolve, 300));

  // Warm-up: worker start, decoder and pdf-lib first use.
  await imageToLetterPdf(photoFile, { raster });
  await floor(photoFile, 'high');

  const floors: number[] = [];
  const lowFloors: number[] = [];
  // Long tasks are reported late and in batches: keep those that started inside a conversion.
  const windows: [number, number][] = [];
  const longTasks: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => longTasks.push(...list.getEntries()));
  observer.observe({ type: 'longtask', buffered: false });

  // Longest gap between main-thread ticks: catches blocking below the 50 ms long-task threshold too.
  let maxGap = 0;
  let ticking = false;
  let last = 0;
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    const now = performance.now();
    if (last) maxGap = Math.max(maxGap, now - last);
    last = now;
    if (ticking) setTimeout(() => channel.port2.postMessage(0), 0);
  };

  // Interleaved, so a busy machine slows floor and converter alike; the floors' own long tasks
  // (drawImage on this thread) fall outside the conversion windows and are not counted.
  const converter: number[] = [];
  for (let i = 0; i < runs; i++) {
    await idle();
    floors.push(await time(() => floor(photoFile, 'high')));
    await idle();
    lowFloors.push(await time(() => floor(photoFile, 'low')));
    await idle();
    ticking = true;
    last = 0;
    channel.port2.postMessage(0);
    const start = performance.now();
    await imageToLetterPdf(photoFile, { raster });
    const end = performance.now();
    ticking = false;
    converter.push(end - start);
    windows.push([start, end]);
  }
  const passThrough: number[] = [];
  for (let i = 0; i < runs; i++) passThrough.push(await time(() => imageToLetterPdf(smallFile, { raster })));
  await idle();
  observer.disconnect();
  const inside = longTasks
    .filter((task) => windows.some(([start, end]) => task.startTime >= start && task.startTime < end))
    .map((task) => task.duration);
  return { converter, floors, lowFloors, passThrough, longTasks: inside, maxGap };
}

/** Converts a fixture with the page found and straightened (or the given crop). */
async function convertPage(name: string, type: string, crop: PageCrop = { mode: 'find' }) {
  warnings.length = 0;
  const original = await fixture(name, type);
  const result = await imageToLetterPdf(original, { raster, logger }, { crop });
  return { ...(await describe(result, original)), warnings: [...warnings] };
}

/** The outline found in each fixture (shares of the photo), and its quality warnings with the page found. */
async function findPages(names: string[]) {
  const results = [];
  for (const name of names) {
    const file = await fixture(name, 'image/jpeg');
    const { info } = await readImageSource(file);
    const page = await raster.pagePixels({
      file,
      format: info.format,
      orientation: info.orientation,
      width: info.width,
      height: info.height,
      maxSide: 400,
      quality: 0.82,
    });
    const { warnings: found } = await assessImage(file, { raster }, { page: true });
    results.push({ name, outline: page.outline, warnings: found });
  }
  return results;
}

/**
 * Find + straighten a photo into its PDF against the same photo's PDF without it, interleaved,
 * `runs` times each after a warm-up.
 */
async function benchStraighten(photo: string, runs: number) {
  const file = await fixture(photo, 'image/jpeg');
  const idle = () => new Promise((resolve) => setTimeout(resolve, 200));
  await imageToLetterPdf(file, { raster });
  await imageToLetterPdf(file, { raster }, { crop: { mode: 'find' } });
  const plain: number[] = [];
  const straightened: number[] = [];
  for (let i = 0; i < runs; i++) {
    await idle();
    plain.push(await time(() => imageToLetterPdf(file, { raster })));
    await idle();
    straightened.push(await time(() => imageToLetterPdf(file, { raster }, { crop: { mode: 'find' } })));
  }
  return { plain, straightened };
}

Object.assign(window, {
  vita: { convert, convertPage, bench, scan, assess, canConvert, benchCapture, findPages, benchStraighten },
});
document.title = 'ready';
