/**
 * The converter benchmark, in Chromium: a 12 MP (4032×3024) photo → Letter PDF, median of
 * 10, against the bare floor measured in the same run (createImageBitmap + resize + convertToBlob
 * JPEG, no worker, no PDF); the longest main-thread task during conversion; the pass-through time of
 * a small upright JPEG. Goals: ratio ≤ 1.15×, longest task < 50 ms. Prints; asserts no timings.
 */
import { expect, it } from 'vitest';
import { makePhoto } from '../test/images.js';
import { startBrowserHarness } from '../test/browser/harness.js';

const RUNS = 10;

interface BenchResult {
  converter: number[];
  floors: number[];
  lowFloors: number[];
  passThrough: number[];
  longTasks: number[];
  maxGap: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  // The middle value, or the two middle values of an even count (NaN when there are none).
  const [low = NaN, high = NaN] = sorted.slice(sorted.length % 2 ? mid : mid - 1, mid + 1);
  return sorted.length % 2 ? low : (low + high) / 2;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

it('image → Letter PDF in Chromium', async () => {
  const harness = await startBrowserHarness();
  try {
    const photo = await makePhoto('jpeg', 4032, 3024, 1, { grain: true });
    harness.fixtures.set('photo-12mp.jpg', photo);
    harness.fixtures.set('small.jpg', await makePhoto('jpeg', 1200, 900));
    const result = await harness.page.evaluate(
      (runs) =>
        (
          window as unknown as { vita: { bench(p: string, s: string, r: number): Promise<BenchResult> } }
        ).vita.bench('photo-12mp.jpg', 'small.jpg', runs),
      RUNS,
    );
    const converter = median(result.converter);
    const floor = median(result.floors);
    const lowFloor = median(result.lowFloors);
    const longest = Math.max(0, ...result.longTasks);
    const rows: [label: string, value: string][] = [
      ['12 MP photo → PDF (median of 10)', ms(converter)],
      ['floor: createImageBitmap + resize (high) + convertToBlob', ms(floor)],
      ['ratio (goal ≤ 1.15×)', `${(converter / floor).toFixed(2)}×`],
      [
        'median of the per-run ratios (same run, same load)',
        `${median(result.converter.map((c, i) => c / (result.floors[i] ?? NaN))).toFixed(2)}×`,
      ],
      ['floor with the cheapest resize (low smoothing)', ms(lowFloor)],
      ['ratio to that', `${(converter / lowFloor).toFixed(2)}×`],
      [
        'longest main-thread task during conversion (goal < 50 ms)',
        result.longTasks.length ? ms(longest) : 'none ≥ 50 ms (no longtask entries)',
      ],
      ['longest gap between main-thread ticks during conversion', ms(result.maxGap)],
      ['small upright JPEG pass-through (median of 10)', ms(median(result.passThrough))],
    ];
    const width = Math.max(...rows.map(([label]) => label.length));
    console.log(
      `\nConverter benchmark (Chromium, photo ${(photo.length / 1e6).toFixed(1)} MB)\n` +
        rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`).join('\n') +
        `\n  runs: converter ${result.converter.map((v) => v.toFixed(0)).join(' ')} | floor ${result.floors.map((v) => v.toFixed(0)).join(' ')}\n`,
    );
    expect(result.converter).toHaveLength(RUNS);
  } finally {
    await harness.close();
  }
});
