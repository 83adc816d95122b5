// The quality warnings against a half of the generated calibration set (calibration-set.ts), through
// the Node port: prints the confusion matrix and holds the goals — at least 95 % of the good photos
// get no warning, at least 90 % of each kind of bad photo get the right one.
import { expect } from 'vitest';
import { createSharpRaster } from '../src/pdf/raster.node.js';
import { assessImage } from '../src/quality/assess.js';
import { createTestFile } from '../src/testing/index.js';
import { calibrationSet, scoreCalibration } from './calibration-set.js';
import type { CalibrationHalf, Checked } from './calibration-set.js';

/** Checks `half` of the set; `kinds` are the bad kinds it must hold (at least eight photos each). */
export async function checkCalibration(half: CalibrationHalf, kinds: string[]): Promise<void> {
  const started = performance.now();
  const photos = await calibrationSet(undefined, half);
  const generated = performance.now();
  const raster = createSharpRaster();
  const results: Checked[] = [];
  // Two at a time, like the generator: sharp decodes one while JavaScript measures the other.
  let next = 0;
  const lane = async () => {
    for (let photo = photos[next++]; photo; photo = photos[next++]) {
      const file = createTestFile(`${photo.name}.jpg`, photo.jpeg, 'image/jpeg');
      results.push({ photo, assessment: await assessImage(file, { raster }) });
    }
  };
  await Promise.all([lane(), lane()]);

  const { report, scores } = scoreCalibration(results);
  console.log(
    `\nQuality warnings on ${results.length} generated photos (${half} half), Node port (set ${((generated - started) / 1000).toFixed(1)} s, ` +
      `checks ${((performance.now() - generated) / 1000).toFixed(1)} s)\n${report}`,
  );
  expect(scores.map((s) => s.label).sort()).toEqual(['ok', ...kinds].sort());
  for (const { label, right, total } of scores) {
    expect(total, label).toBeGreaterThanOrEqual(8);
    expect(right / total, `${label}: ${right} of ${total}`).toBeGreaterThanOrEqual(
      label === 'ok' ? 0.95 : 0.9,
    );
  }
}
