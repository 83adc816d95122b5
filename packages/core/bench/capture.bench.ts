/**
 * The capture benchmark. In Chromium (worker port): the quality check of a 12 MP photo, median of 7
 * (goal ≤ 40 ms), with the same work timed on the page's thread, the metrics alone and, in the same
 * run, the floor (the JPEG decoder's 1/8 decode alone) and the check's ratio to it;
 * a scan of ten 12 MP photos built into one PDF (goal ≤ 1.5 s) while the page's main thread is watched
 * (goal: no task over 50 ms). In Node (sharp): the same two. Then the calibration set through the
 * worker port: the confusion matrix the Node test prints, as Chromium decodes and scales. Prints;
 * asserts no timings.
 */
import { availableParallelism, loadavg } from 'node:os';
import { expect, it } from 'vitest';
import { assessImage, imagesToLetterPdf } from '@vita-docs/core';
import { createSharpRaster } from '@vita-docs/core/node';
import { createTestFile } from '@vita-docs/core/testing';
import type { ImageAssessment } from '@vita-docs/core';
import { calibrationSet, scoreCalibration } from '../test/calibration-set.js';
import type { Checked } from '../test/calibration-set.js';
import { samplePhoto } from '../test/page-photos.js';
import { startBrowserHarness } from '../test/browser/harness.js';

const RUNS = 7;
const PAGES = 10;

interface CaptureResult {
  assess: number[];
  sameWorkHere: number[];
  metricsOnly: number[];
  decodeFloor: number[];
  pdfDecode: number[];
  scans: { ms: number; maxGap: number; longTasks: number[] }[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const [low = NaN, high = NaN] = sorted.slice(sorted.length % 2 ? mid : mid - 1, mid + 1);
  return sorted.length % 2 ? low : (low + high) / 2;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;
const table = (title: string, rows: [string, string][]) => {
  const width = Math.max(...rows.map(([label]) => label.length));
  return `\n${title}\n${rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`).join('\n')}\n`;
};

async function time(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

it('capture: quality check and a 10-page scan, in Chromium and in Node', async () => {
  // Text pages photographed on a desk, as a phone takes them: 4032×3024, about 2 MB each.
  const photos = await Promise.all(
    Array.from({ length: PAGES }, (_, i) => samplePhoto('ok', 4032, 3024, i + 1)),
  );
  const names = photos.map((_, i) => `page-${i + 1}.jpg`);
  const [firstPhoto = new Uint8Array()] = photos;
  const machine = `${availableParallelism()} CPUs, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;

  const harness = await startBrowserHarness();
  let browser: CaptureResult;
  const calibration: Checked[] = [];
  try {
    photos.forEach((bytes, i) => harness.fixtures.set(`page-${i + 1}.jpg`, bytes));
    browser = await harness.page.evaluate(
      ([pages, runs]) =>
        (
          window as unknown as {
            vita: { benchCapture(p: string, s: string[], r: number): Promise<CaptureResult> };
          }
        ).vita.benchCapture('page-1.jpg', pages, runs),
      [names, RUNS] as const,
    );
    for (const photo of await calibrationSet()) {
      harness.fixtures.set('calibration.jpg', photo.jpeg);
      const assessment = await harness.page.evaluate(() =>
        (
          window as unknown as { vita: { assess(n: string, t: string): Promise<ImageAssessment> } }
        ).vita.assess('calibration.jpg', 'image/jpeg'),
      );
      calibration.push({ photo, assessment });
    }
  } finally {
    await harness.close();
  }
  console.log(
    table(
      `Capture benchmark, Chromium, worker port (${machine}; photo ${(firstPhoto.length / 1e6).toFixed(1)} MB)`,
      [
        [
          `quality check of a 12 MP photo, from the page (median of ${RUNS}; goal ≤ 40 ms)`,
          ms(median(browser.assess)),
        ],
        [
          '  the same work on the page thread (decode to 1/8, pixels, metrics)',
          ms(median(browser.sameWorkHere)),
        ],
        ['  the shared TypeScript alone (504×378 BGRX → grey → metrics)', ms(median(browser.metricsOnly))],
        ['  floor: ImageDecoder decoding the JPEG at 1/8, nothing else', ms(median(browser.decodeFloor))],
        [
          '  the check over the floor, same run',
          `${(median(browser.assess) / median(browser.decodeFloor)).toFixed(2)}×`,
        ],
        ["  the PDF conversion's own decode of the photo (1/2), nothing else", ms(median(browser.pdfDecode))],
        [
          `${PAGES}-page scan of 12 MP photos → one PDF (goal ≤ 1.5 s)`,
          browser.scans.map((scan) => ms(scan.ms)).join(', '),
        ],
        [
          '  longest main-thread task during each scan (goal ≤ 50 ms)',
          browser.scans
            .map((scan) => (scan.longTasks.length ? ms(Math.max(...scan.longTasks)) : 'none'))
            .join(', '),
        ],
        [
          '  longest gap between main-thread ticks during each scan',
          browser.scans.map((scan) => ms(scan.maxGap)).join(', '),
        ],
        ['  runs of the quality check', browser.assess.map((v) => v.toFixed(0)).join(' ')],
        ['  runs of the floor', browser.decodeFloor.map((v) => v.toFixed(0)).join(' ')],
      ],
    ),
  );

  const raster = createSharpRaster();
  const files = photos.map((bytes, i) => createTestFile(`page-${i + 1}.jpg`, bytes, 'image/jpeg'));
  const first = createTestFile('page-1.jpg', firstPhoto, 'image/jpeg');
  await assessImage(first, { raster });
  const nodeAssess: number[] = [];
  for (let i = 0; i < RUNS; i++) nodeAssess.push(await time(() => assessImage(first, { raster })));
  const nodeScans: number[] = [];
  for (let i = 0; i < 3; i++)
    nodeScans.push(
      await time(() =>
        imagesToLetterPdf(
          files.map((file) => ({ file })),
          { raster },
        ),
      ),
    );
  console.log(
    table(`Capture benchmark, Node, sharp port (${machine})`, [
      [`quality check of a 12 MP photo (median of ${RUNS})`, ms(median(nodeAssess))],
      [`${PAGES}-page scan of 12 MP photos → one PDF`, nodeScans.map(ms).join(', ')],
    ]),
  );
  console.log(
    `\nQuality warnings on the ${calibration.length} photos of the calibration set, Chromium, worker port\n${scoreCalibration(calibration).report}`,
  );
  expect(browser.assess).toHaveLength(RUNS);
});
