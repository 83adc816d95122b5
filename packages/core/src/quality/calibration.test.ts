// The quality warnings against the generated calibration set (test/calibration-set.ts), through the
// Node port: prints the confusion matrix and holds the goals — at least 95 % of the good photos get
// no warning, at least 90 % of each kind of bad photo get the right one.
import { expect, it } from 'vitest';
import { calibrationSet } from '../../test/calibration-set.js';
import type { CalibrationPhoto, PhotoClass } from '../../test/calibration-set.js';
import { createSharpRaster } from '../pdf/raster.node.js';
import { createTestFile } from '../testing/index.js';
import { assessImage, QUALITY_THRESHOLDS } from './assess.js';
import type { ImageAssessment, ImageMetrics, QualityWarning } from './assess.js';

const RIGHT: Record<Exclude<PhotoClass, 'ok' | 'borderline'>, QualityWarning> = {
  dark: 'tooDark',
  washedOut: 'washedOut',
  blurry: 'blurry',
  blank: 'blank',
  small: 'tooSmall',
};
const ROWS: PhotoClass[] = ['ok', 'dark', 'washedOut', 'blurry', 'blank', 'small', 'borderline'];
const COLUMNS: (QualityWarning | 'none')[] = ['none', 'tooDark', 'washedOut', 'blurry', 'blank', 'tooSmall'];

const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(0)} %`;

/** Each threshold with the metric it applies to and the side the bad photos fall on. */
const MARGINS: { label: PhotoClass; metric: keyof ImageMetrics; threshold: number; badBelow: boolean }[] = [
  { label: 'dark', metric: 'paperLevel', threshold: QUALITY_THRESHOLDS.minPaperLevel, badBelow: true },
  { label: 'washedOut', metric: 'inkLevel', threshold: QUALITY_THRESHOLDS.maxInkLevel, badBelow: false },
  { label: 'blurry', metric: 'sharpness', threshold: QUALITY_THRESHOLDS.minSharpness, badBelow: true },
  { label: 'blank', metric: 'detail', threshold: QUALITY_THRESHOLDS.minDetail, badBelow: true },
];

it('the warnings meet their goals on the calibration set (confusion matrix printed)', async () => {
  const started = performance.now();
  const photos = await calibrationSet();
  const generated = performance.now();
  const raster = createSharpRaster();
  const results: { photo: CalibrationPhoto; assessment: ImageAssessment }[] = [];
  // Two at a time, like the generator: sharp decodes one while JavaScript measures the other.
  let next = 0;
  const lane = async () => {
    for (let photo = photos[next++]; photo; photo = photos[next++]) {
      const file = createTestFile(`${photo.name}.jpg`, photo.jpeg, 'image/jpeg');
      results.push({ photo, assessment: await assessImage(file, { raster }) });
    }
  };
  await Promise.all([lane(), lane()]);

  const rows = ROWS.map((label) => {
    const mine = results.filter((r) => r.photo.label === label);
    const cells = COLUMNS.map((column) =>
      mine.filter((r) => (column === 'none' ? r.assessment.warnings.length === 0 : r.assessment.warnings.includes(column))).length,
    );
    return { label, total: mine.length, cells, mine };
  });
  const width = 12;
  const lines = [
    `${'photo \\ warning'.padEnd(width + 4)}${COLUMNS.map((c) => c.padStart(width)).join('')}${'goal met'.padStart(width)}`,
    ...rows.map(({ label, total, cells, mine }) => {
      const right = label === 'ok' ? cells[0]! : label === 'borderline' ? null : mine.filter((r) => r.assessment.warnings.includes(RIGHT[label])).length;
      const score = right === null ? '(not scored)' : percent(right, total);
      return `${`${label} (${total})`.padEnd(width + 4)}${cells.map((n) => String(n).padStart(width)).join('')}${score.padStart(width)}`;
    }),
  ];
  // Where the thresholds sit between the good photos and the bad ones of each kind.
  const margins = MARGINS.map(({ label, metric, threshold, badBelow }) => {
    const values = (of: PhotoClass) => results.filter((r) => r.photo.label === of).map((r) => r.assessment.metrics[metric]);
    const worstBad = badBelow ? Math.max(...values(label)) : Math.min(...values(label));
    const worstGood = badBelow ? Math.min(...values('ok')) : Math.max(...values('ok'));
    const round = (value: number) => Number(value.toPrecision(3));
    return `  ${label.padEnd(10)} ${metric.padEnd(11)} ${badBelow ? '<' : '>'} ${round(threshold)}: worst bad ${round(worstBad)}, worst good ${round(worstGood)}`;
  });
  const misses = results.filter(({ photo, assessment }) =>
    photo.label === 'ok'
      ? assessment.warnings.length > 0
      : photo.label !== 'borderline' && !assessment.warnings.includes(RIGHT[photo.label]),
  );
  console.log(
    `\nQuality warnings on ${results.length} generated photos (set ${((generated - started) / 1000).toFixed(1)} s, ` +
      `checks ${((performance.now() - generated) / 1000).toFixed(1)} s)\n${lines.join('\n')}\n` +
      `thresholds between the good photos and the bad ones:\n${margins.join('\n')}\n` +
      (misses.length
        ? `missed: ${misses.map(({ photo, assessment }) => `${photo.name} → [${assessment.warnings.join(', ')}]`).join('; ')}\n`
        : ''),
  );

  for (const { label, total, mine } of rows) {
    if (label === 'borderline') continue;
    expect(total, label).toBeGreaterThanOrEqual(8);
    const right = mine.filter((r) => (label === 'ok' ? r.assessment.warnings.length === 0 : r.assessment.warnings.includes(RIGHT[label]))).length;
    expect(right / total, `${label}: ${right} of ${total}`).toBeGreaterThanOrEqual(label === 'ok' ? 0.95 : 0.9);
  }
}, 120_000);
