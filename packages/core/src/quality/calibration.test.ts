// The quality warnings against the generated calibration set (test/calibration-set.ts), through the
// Node port: prints the confusion matrix and holds the goals — at least 95 % of the good photos get
// no warning, at least 90 % of each kind of bad photo get the right one.
import { expect, it } from 'vitest';
import { calibrationSet, scoreCalibration } from '../../test/calibration-set.js';
import type { Checked } from '../../test/calibration-set.js';
import { createSharpRaster } from '../pdf/raster.node.js';
import { createTestFile } from '../testing/index.js';
import { assessImage } from './assess.js';

it('the warnings meet their goals on the calibration set (confusion matrix printed)', async () => {
  const started = performance.now();
  const photos = await calibrationSet();
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
    `\nQuality warnings on ${results.length} generated photos, Node port (set ${((generated - started) / 1000).toFixed(1)} s, ` +
      `checks ${((performance.now() - generated) / 1000).toFixed(1)} s)\n${report}`,
  );
  for (const { label, right, total } of scores) {
    expect(total, label).toBeGreaterThanOrEqual(8);
    expect(right / total, `${label}: ${right} of ${total}`).toBeGreaterThanOrEqual(
      label === 'ok' ? 0.95 : 0.9,
    );
  }
}, 120_000);
