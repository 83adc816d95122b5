/**
 * The straightening benchmark, in Chromium with the real worker: on the labelled set made by
 * `straighten-set/generate.mjs`, the share of photos whose found corners are all within 2 % of the
 * page's diagonal (goal ≥ 90 %), the crops that cut the page (goal 0, above all where the page
 * cannot be told apart), glare found on the glare photos (goal ≥ 90 %) and not on the others (goal
 * ≥ 95 % without); then find + straighten a 12 MP photo into its PDF against the same photo's PDF
 * without it (median of 7, same run; goal ≤ 1.5×). Prints; asserts no figures.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startBrowserHarness } from '../test/browser/harness.js';
import type { Point, Quad } from '../src/straighten/geometry.js';
import type { PageOutline } from '../src/straighten/page.js';

const SET = join(import.meta.dirname, 'straighten-set');
const RUNS = 7;

interface Label {
  name: string;
  ground: string;
  corners: Point[];
  glare: boolean;
  distinguishable: boolean;
}

interface Found {
  name: string;
  outline: PageOutline;
  warnings: string[];
}

interface Vita {
  findPages(names: string[]): Promise<Found[]>;
  benchStraighten(photo: string, runs: number): Promise<{ plain: number[]; straightened: number[] }>;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

/** Whether every point of `page` lies inside `quad` (clockwise), give or take `slack` pixels. */
function holds(quad: Quad, page: Point[], slack: number): boolean {
  return page.every((p) =>
    quad.every((a, i) => {
      const b = quad[(i + 1) % 4] ?? a;
      const length = Math.hypot(b.x - a.x, b.y - a.y);
      return ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) / length >= -slack;
    }),
  );
}

it('finds, straightens and warns of glare on the labelled set, in Chromium', async () => {
  const labels = JSON.parse(await readFile(join(SET, 'labels.json'), 'utf8')) as Label[];
  const harness = await startBrowserHarness();
  const tmp = await mkdtemp(join(tmpdir(), 'vita-straighten-'));
  try {
    for (const label of labels)
      harness.fixtures.set(label.name, await readFile(join(SET, 'photos', label.name)));
    const found = await harness.page.evaluate(
      (names) => (window as unknown as { vita: Vita }).vita.findPages(names),
      labels.map((l) => l.name),
    );
    // STRAIGHTEN_DUMP=file keeps what was found, to look at beside the labels.
    if (process.env.STRAIGHTEN_DUMP)
      await writeFile(
        process.env.STRAIGHTEN_DUMP,
        JSON.stringify(Object.fromEntries(found.map((f) => [f.name, f.outline.corners]))),
      );
    // The photos are 1280×960; corners compared in pixels.
    const W = 1280;
    const H = 960;
    const px = (p: Point) => ({ x: p.x * W, y: p.y * H });
    let within = 0;
    let cuts = 0;
    let cutsHard = 0;
    let whole = 0;
    let hardWhole = 0;
    let glareFound = 0;
    let glareFalse = 0;
    const misses: string[] = [];
    for (const label of labels) {
      const result = found.find((f) => f.name === label.name);
      const truth = label.corners.map(px);
      const diagonal = Math.hypot(
        (truth[0]?.x ?? 0) - (truth[2]?.x ?? 0),
        (truth[0]?.y ?? 0) - (truth[2]?.y ?? 0),
      );
      const pageDiagonal = Math.max(
        diagonal,
        Math.hypot((truth[1]?.x ?? 0) - (truth[3]?.x ?? 0), (truth[1]?.y ?? 0) - (truth[3]?.y ?? 0)),
      );
      const corners = result?.outline.corners?.map(px) as Quad | undefined;
      if (!corners) {
        whole++;
        if (!label.distinguishable) hardWhole++;
        if (label.distinguishable) misses.push(`${label.name}: kept whole (${result?.outline.reason})`);
      } else {
        const worst = Math.max(
          ...corners.map((c, i) => Math.hypot(c.x - (truth[i]?.x ?? 0), c.y - (truth[i]?.y ?? 0))),
        );
        if (worst <= 0.02 * pageDiagonal) within++;
        else misses.push(`${label.name}: worst corner ${((100 * worst) / pageDiagonal).toFixed(1)} %`);
        if (!holds(corners, truth, 0.01 * pageDiagonal)) {
          cuts++;
          if (!label.distinguishable) cutsHard++;
        }
      }
      const warned = result?.warnings.includes('glare') ?? false;
      if (label.glare && warned) glareFound++;
      if (!label.glare && warned) glareFalse++;
    }
    const distinguishable = labels.filter((l) => l.distinguishable).length;
    const hard = labels.length - distinguishable;
    const glarePhotos = labels.filter((l) => l.glare).length;
    const others = labels.length - glarePhotos;

    const pct = (n: number, of: number) => `${((100 * n) / Math.max(1, of)).toFixed(1)} % (${n}/${of})`;
    const rows: [string, string][] = [
      [
        'corners within 2 % of the page diagonal, pages that stand out (goal ≥ 90 %)',
        pct(within, distinguishable),
      ],
      ['corners within 2 %, all photos', pct(within, labels.length)],
      ['crops that cut the page, page not told apart (goal 0)', `${cutsHard} of ${hard}`],
      ['crops that cut the page, all photos (goal 0)', `${cuts} of ${labels.length}`],
      ['whole photo kept where the page cannot be told apart', pct(hardWhole, hard)],
      ['whole photo kept, all photos', pct(whole, labels.length)],
      ['glare found on glare photos (goal ≥ 90 %)', pct(glareFound, glarePhotos)],
      ['no glare warning on the others (goal ≥ 95 %)', pct(others - glareFalse, others)],
    ];
    const width = Math.max(...rows.map(([l]) => l.length));
    console.log(
      `\nStraightening benchmark (Chromium, ${labels.length} labelled photos)\n` +
        rows.map(([l, v]) => `  ${l.padEnd(width)}  ${v}`).join('\n') +
        (misses.length ? `\n  misses: ${misses.join('; ')}` : '') +
        '\n',
    );
    expect(found).toHaveLength(labels.length);
    if (process.env.STRAIGHTEN_SKIP_TIMING) return;
    execFileSync(process.execPath, [join(SET, 'generate.mjs'), '--12mp', join(tmp, '12mp.jpg')]);
    harness.fixtures.set('12mp.jpg', await readFile(join(tmp, '12mp.jpg')));
    const timing = await harness.page.evaluate(
      (runs) => (window as unknown as { vita: Vita }).vita.benchStraighten('12mp.jpg', runs),
      RUNS,
    );
    const plain = median(timing.plain);
    const straightened = median(timing.straightened);
    const timed: [string, string][] = [
      ['12 MP photo → PDF, no straightening (median of 7)', `${plain.toFixed(0)} ms`],
      ['12 MP photo → find + straighten → PDF (median of 7)', `${straightened.toFixed(0)} ms`],
      ['ratio (goal ≤ 1.5×)', `${(straightened / plain).toFixed(2)}×`],
    ];
    console.log(
      timed.map(([l, v]) => `  ${l.padEnd(width)}  ${v}`).join('\n') +
        `\n  runs: plain ${timing.plain.map((v) => v.toFixed(0)).join(' ')} | straightened ${timing.straightened.map((v) => v.toFixed(0)).join(' ')}\n`,
    );
  } finally {
    await harness.close();
    await rm(tmp, { recursive: true, force: true });
  }
});
