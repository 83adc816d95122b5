/**
 * The calibration set of the quality warnings: for each of 16 text pages (12 MP and phone sizes,
 * scans and photos on a desk) four good copies, a borderline blur, three blurred, two dark and two
 * washed-out ones; then blank sheets and small photos. Seeded: the same set on every machine. And
 * the score of the warnings on it, for the calibration test and the benchmark.
 */
import { blurRaw, expose, NORMAL, renderBlank, renderPage, seededRandom, toJpeg } from './page-photos.js';
import type { Exposure, Layout } from './page-photos.js';
import { QUALITY_THRESHOLDS } from '../src/quality/assess.js';
import type { ImageAssessment, QualityWarning } from '../src/quality/assess.js';
import type { GrayMetrics } from '../src/quality/metrics.js';

/** What a photo is, as a person would judge it. `borderline` blur is shown but not scored. */
export type PhotoClass = 'ok' | 'dark' | 'washedOut' | 'blurry' | 'blank' | 'small' | 'borderline';

export interface CalibrationPhoto {
  name: string;
  label: PhotoClass;
  width: number;
  height: number;
  jpeg: Uint8Array;
}

/**
 * The text pages: 12 MP phone photos (4032×3024 either way), smaller phone photos and scanner-sized
 * images; a scan fills the frame, a photo shows the sheet tilted on a desk. The last two are
 * close-ups, text twice the size: a half-page form such as a W-2 filling the frame.
 */
const PAGES: [width: number, height: number, layout: Layout, framing: 'scan' | 'photo', zoom?: number][] = [
  [3024, 4032, 'letter', 'scan'],
  [4032, 3024, 'form', 'photo'],
  [1536, 2048, 'table', 'photo'],
  [2048, 1536, 'note', 'scan'],
  [1200, 1600, 'letter', 'photo'],
  [1275, 1650, 'form', 'scan'],
  [1536, 2048, 'note', 'photo'],
  [2048, 1536, 'table', 'scan'],
  [2048, 1536, 'letter', 'photo'],
  [1200, 1600, 'form', 'photo'],
  [1275, 1650, 'note', 'scan'],
  [1600, 1200, 'table', 'photo'],
  [1536, 2048, 'letter', 'scan'],
  [1200, 1600, 'note', 'photo'],
  [2048, 1536, 'form', 'photo', 2],
  [1536, 2048, 'letter', 'scan', 2],
];
const LAYOUTS: Layout[] = ['letter', 'form', 'table', 'note'];
/** Blank sheets in the set, each framed as a scan or a photo. */
const BLANK_SHEETS = 10;

/** Blur as a fraction of the x-height: up to 0.06 is a sharp photo, 0.12 soft, from 0.25 hard to read. */
const BLURS = { ok: 0.05, borderline: 0.12, bad: [0.25, 0.4, 0.6] } as const;

type Add = (name: string, label: PhotoClass, gray: Buffer) => void;

/** A text page and its copies: four good ones, one borderline blur, three blurred, two dark, two washed out. */
async function pageCopies(index: number, seed: number, add: Add): Promise<void> {
  const random = seededRandom(seed);
  const [width, height, layout, framing, zoom] = PAGES[index % PAGES.length]!;
  const page = await renderPage({ width, height, layout, framing, zoom, seed: Math.floor(random() * 1e9) });
  const light = (extra: Partial<Exposure> = {}): Exposure => ({
    unevenness: framing === 'photo' ? 0.15 + random() * 0.2 : random() * 0.05,
    gain: 1,
    washout: 1,
    noise: framing === 'photo' ? 2 + random() * 3 : random() * 1.5,
    ...extra,
  });
  const shoot = (gray: Buffer, exposure: Exposure) =>
    expose(gray, width, height, exposure, Math.floor(random() * 1e9));
  const xh = page.xHeight;
  add('clean', 'ok', shoot(page.gray, NORMAL));
  add('lit', 'ok', shoot(page.gray, light()));
  add('soft', 'ok', shoot(await blurRaw(page, Math.max(0.4, BLURS.ok * xh)), light()));
  add('bright', 'ok', shoot(page.gray, light({ gain: 1.05 + random() * 0.1 })));
  add(`blur ${BLURS.borderline}`, 'borderline', shoot(await blurRaw(page, BLURS.borderline * xh), light()));
  for (const fraction of BLURS.bad)
    add(`blur ${fraction}`, 'blurry', shoot(await blurRaw(page, fraction * xh), light()));
  for (const gain of [0.2 + random() * 0.08, 0.3 + random() * 0.1]) {
    add(`dark ${gain.toFixed(2)}`, 'dark', shoot(page.gray, light({ gain, noise: 3 + random() * 3 })));
  }
  for (const washout of [0.2 + random() * 0.1, 0.3 + random() * 0.1]) {
    add(
      `washed ${washout.toFixed(2)}`,
      'washedOut',
      shoot(page.gray, light({ gain: 1.1 + random() * 0.3, washout })),
    );
  }
}

/** Runs `jobs` two at a time: sharp's threads encode one while JavaScript lights the next. */
async function inPairs(jobs: (() => Promise<void>)[]): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all([lane(), lane()]);
}

/**
 * The set's halves, each a test file of its own (the whole costs some 19 CPU-s: beside the rest of
 * `npm test` on two cores, one file would take a minute): the first eight text pages and the blank
 * sheets, then the other eight text pages and the small photos. Each holds at least eight photos of
 * every kind it has, as the goals ask. By the index of the set's jobs: the text pages, the blank sheets, the small photos.
 */
const HALVES = {
  first: (job: number) => job < 8 || (job >= PAGES.length && job < PAGES.length + BLANK_SHEETS),
  second: (job: number) => (job >= 8 && job < PAGES.length) || job >= PAGES.length + BLANK_SHEETS,
};
export type CalibrationHalf = keyof typeof HALVES;

/**
 * The whole set (or one {@link CalibrationHalf}), always the same for the same seed: for each text page four good copies (a clean scan
 * or photo, unevenly lit, slightly soft, a little bright), a borderline blur, three blurred copies,
 * two dark and two washed-out ones; then blank sheets and small photos.
 */
export async function calibrationSet(seed = 20250101, half?: CalibrationHalf): Promise<CalibrationPhoto[]> {
  const random = seededRandom(seed);
  const groups: CalibrationPhoto[][] = [];
  const jobs: (() => Promise<void>)[] = [];
  let made = 0;
  // Every job draws from its own generator, so the set does not depend on which job finishes first
  // (nor on which half is made: the seeds are all drawn, the other half's jobs are not kept).
  const job = (prefix: string, width: number, height: number, make: (add: Add) => Promise<void>) => {
    const inHalf = half === undefined || HALVES[half](made++);
    if (!inHalf) return;
    const photos: CalibrationPhoto[] = [];
    const encoding: Promise<void>[] = [];
    groups.push(photos);
    const add: Add = (name, label, gray) => {
      const at = photos.length;
      photos.push({ name: `${prefix} ${name}`.trim(), label, width, height, jpeg: new Uint8Array() });
      encoding.push(toJpeg(gray, width, height).then((jpeg) => void (photos[at]!.jpeg = jpeg)));
    };
    jobs.push(async () => {
      await make(add);
      await Promise.all(encoding);
    });
  };
  for (const [index, [width, height, layout, framing, zoom]] of PAGES.entries()) {
    const pageSeed = Math.floor(random() * 1e9);
    job(`${layout}-${framing}-${width}x${height}${zoom ? `-zoom${zoom}` : ''}`, width, height, (add) =>
      pageCopies(index, pageSeed, add),
    );
  }
  for (let i = 0; i < BLANK_SHEETS; i++) {
    const [width, height] = PAGES[(i + 1) % PAGES.length]!;
    const framing = i % 2 ? 'scan' : 'photo';
    const sheetSeed = Math.floor(random() * 1e9);
    job(`blank-${framing}-${width}x${height}`, width, height, async (add) => {
      const sheetRandom = seededRandom(sheetSeed);
      const sheet = await renderBlank({ width, height, framing, seed: Math.floor(sheetRandom() * 1e9) });
      const exposure: Exposure = {
        unevenness: 0.1 + sheetRandom() * 0.3,
        gain: 0.8 + sheetRandom() * 0.25,
        washout: 1,
        noise: 1.5 + sheetRandom() * 4,
      };
      add('', 'blank', expose(sheet.gray, width, height, exposure, Math.floor(sheetRandom() * 1e9)));
    });
  }
  const small: [number, number][] = [
    [640, 480],
    [480, 640],
    [800, 600],
    [600, 800],
    [960, 720],
    [720, 960],
    [999, 750],
    [750, 999],
  ];
  for (const [i, [width, height]] of small.entries()) {
    const smallSeed = Math.floor(random() * 1e9);
    job(`small-${width}x${height}`, width, height, async (add) => {
      const layout = LAYOUTS[i % LAYOUTS.length]!;
      const page = await renderPage({
        width,
        height,
        layout,
        framing: i % 2 ? 'photo' : 'scan',
        seed: smallSeed,
      });
      const exposure: Exposure = { unevenness: 0.1, gain: 1, washout: 1, noise: 2 };
      add(layout, 'small', expose(page.gray, width, height, exposure, smallSeed + 1));
    });
  }
  await inPairs(jobs);
  return groups.flat();
}

/** One photo of the set and what the quality check said about it. */
export interface Checked {
  photo: CalibrationPhoto;
  assessment: ImageAssessment;
}

const RIGHT: Record<Exclude<PhotoClass, 'ok' | 'borderline'>, QualityWarning> = {
  dark: 'tooDark',
  washedOut: 'washedOut',
  blurry: 'blurry',
  blank: 'blank',
  small: 'tooSmall',
};
const ROWS: PhotoClass[] = ['ok', 'dark', 'washedOut', 'blurry', 'blank', 'small', 'borderline'];
const COLUMNS: (QualityWarning | 'none')[] = ['none', 'tooDark', 'washedOut', 'blurry', 'blank', 'tooSmall'];

/** Each threshold with the metric it applies to and the side the bad photos fall on. */
const MARGINS: { label: PhotoClass; metric: keyof GrayMetrics; threshold: number; badBelow: boolean }[] = [
  { label: 'dark', metric: 'paperLevel', threshold: QUALITY_THRESHOLDS.minPaperLevel, badBelow: true },
  { label: 'washedOut', metric: 'inkLevel', threshold: QUALITY_THRESHOLDS.maxInkLevel, badBelow: false },
  { label: 'blurry', metric: 'sharpness', threshold: QUALITY_THRESHOLDS.minSharpness, badBelow: true },
  { label: 'blank', metric: 'detail', threshold: QUALITY_THRESHOLDS.minDetail, badBelow: true },
];

/** Whether a photo got what it should: nothing for a good one, its own warning for a bad one. */
function isRight(label: PhotoClass, warnings: QualityWarning[]): boolean {
  if (label === 'ok') return warnings.length === 0;
  if (label === 'borderline') return true;
  return warnings.includes(RIGHT[label]);
}

/**
 * The confusion matrix (rows: what the photos are; columns: the warnings they got, a photo counted
 * once per warning), the share that got it right per kind, where each threshold sits between the
 * worst good and the worst bad photo, and the misses; plus the figures the goals are checked on.
 */
export function scoreCalibration(results: Checked[]): {
  report: string;
  scores: { label: PhotoClass; right: number; total: number }[];
} {
  const width = 12;
  const present = (label: PhotoClass) => results.some((r) => r.photo.label === label);
  // A half of the set lacks some kinds: only the kinds it has are scored.
  const scores = ROWS.filter((label) => label !== 'borderline' && present(label)).map((label) => {
    const mine = results.filter((r) => r.photo.label === label);
    return {
      label,
      right: mine.filter((r) => isRight(label, r.assessment.warnings)).length,
      total: mine.length,
    };
  });
  const lines = [
    `${'photo \\ warning'.padEnd(width + 4)}${COLUMNS.map((c) => c.padStart(width)).join('')}${'right'.padStart(width)}`,
    ...ROWS.filter(present).map((label) => {
      const mine = results.filter((r) => r.photo.label === label);
      const cells = COLUMNS.map(
        (column) =>
          mine.filter(({ assessment: { warnings } }) =>
            column === 'none' ? !warnings.length : warnings.includes(column),
          ).length,
      );
      const score = scores.find((s) => s.label === label);
      const right = score ? `${((100 * score.right) / score.total).toFixed(0)} %` : '(not scored)';
      return `${`${label} (${mine.length})`.padEnd(width + 4)}${cells.map((n) => String(n).padStart(width)).join('')}${right.padStart(width)}`;
    }),
  ];
  const round = (value: number) => Number(value.toPrecision(3));
  const margins = MARGINS.filter(({ label }) => present(label)).map(
    ({ label, metric, threshold, badBelow }) => {
      const values = (of: PhotoClass) =>
        results.filter((r) => r.photo.label === of).map((r) => r.assessment.metrics[metric]);
      const worstBad = badBelow ? Math.max(...values(label)) : Math.min(...values(label));
      const worstGood = badBelow ? Math.min(...values('ok')) : Math.max(...values('ok'));
      return `  ${label.padEnd(10)} ${metric.padEnd(11)} ${badBelow ? '<' : '>'} ${round(threshold)}: worst bad ${round(worstBad)}, worst good ${round(worstGood)}`;
    },
  );
  const misses = results.filter((r) => !isRight(r.photo.label, r.assessment.warnings));
  const report =
    `${lines.join('\n')}\nthresholds between the good photos and the bad ones:\n${margins.join('\n')}\n` +
    (misses.length
      ? `missed: ${misses.map((r) => `${r.photo.name} → [${r.assessment.warnings.join(', ')}]`).join('; ')}\n`
      : '');
  return { report, scores };
}
