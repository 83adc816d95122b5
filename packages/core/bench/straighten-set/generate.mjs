/**
 * Makes the labelled set of page photos the straightening benchmark reads: printed-looking tax forms
 * laid out in HTML, photographed in Chromium with CSS 3-D transforms (turned up to ±30°, tilted up to
 * 35°) on dark, wood-grain, patterned and light grounds, with soft shadows, uneven light and on some
 * a glare patch. Each photo's true corners are read off the page's own corners after the transform
 * (zero-size markers, whose box is the projected point). Seeded: every run makes the same set.
 *
 *   node packages/core/bench/straighten-set/generate.mjs            # the set, into ./photos
 *   node packages/core/bench/straighten-set/generate.mjs --12mp OUT # one 4032×3024 photo, for timing
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const HERE = import.meta.dirname;
const WIDTH = 1280;
const HEIGHT = 960;
const COUNT = 64;

/** mulberry32, as in test/page-photos.ts. */
function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GROUNDS = {
  dark: (r) =>
    `background: radial-gradient(circle at ${20 + r() * 60}% ${20 + r() * 60}%, #3a3633, #141312 80%);`,
  wood: (r) => {
    const hue = 20 + r() * 15;
    const stripes = Array.from({ length: 9 }, (_, i) => {
      const light = 28 + r() * 18;
      return `hsl(${hue} 45% ${light}%) ${i * 11 + r() * 4}px`;
    }).join(', ');
    return `background: repeating-linear-gradient(${80 + r() * 20}deg, ${stripes}, hsl(${hue} 45% 30%) 100px),
      linear-gradient(90deg, hsl(${hue} 50% 35%), hsl(${hue} 40% 25%));
      background-blend-mode: multiply;`;
  },
  patterned: (r) => {
    const a = `hsl(${Math.floor(r() * 360)} 35% ${30 + r() * 15}%)`;
    const b = `hsl(${Math.floor(r() * 360)} 30% ${45 + r() * 15}%)`;
    const size = 24 + Math.floor(r() * 40);
    return `background: repeating-conic-gradient(${a} 0 25%, ${b} 0 50%) 0 0 / ${size}px ${size}px;`;
  },
  light: (r) =>
    `background: linear-gradient(${r() * 180}deg, hsl(35 18% ${70 + r() * 6}%), hsl(30 15% ${64 + r() * 6}%));`,
  /** The page cannot be told apart: white paper on a white desk. */
  white: () => 'background: linear-gradient(160deg, #f3f2ef, #ecebe8);',
};

const FORMS = [
  ['W-2', 'Wage and Tax Statement'],
  ['1099-INT', 'Interest Income'],
  ['1099-NEC', 'Nonemployee Compensation'],
  ['1098', 'Mortgage Interest Statement'],
  ['1099-R', 'Distributions From Pensions, Annuities, Retirement'],
  ['1095-A', 'Health Insurance Marketplace Statement'],
];

/** A form's HTML: a title band, numbered boxes with labels and amounts, and fine print. */
function formHtml(r, [code, title]) {
  const money = () =>
    `${Math.floor(r() * 90000 + 1000).toLocaleString('en-US')}.${String(Math.floor(r() * 100)).padStart(2, '0')}`;
  const labels = [
    'Wages, tips, other compensation',
    'Federal income tax withheld',
    'Social security wages',
    'Social security tax withheld',
    'Medicare wages and tips',
    'Medicare tax withheld',
    "Employer's name, address, and ZIP code",
    "Employee's social security number",
    'State wages, tips, etc.',
    'Local income tax',
    'Interest income',
    'Early withdrawal penalty',
  ];
  const boxes = Array.from(
    { length: 12 },
    (_, i) =>
      `<div class="box"><span class="n">${i + 1}</span> ${labels[(i + Math.floor(r() * 4)) % labels.length]}<b>${money()}</b></div>`,
  ).join('');
  const fine = Array.from({ length: 7 }, () =>
    'This information is being furnished to the Internal Revenue Service. If you are required to file a return, a negligence penalty or other sanction may be imposed on you if this income is taxable and the IRS determines that it has not been reported.'.slice(
      0,
      120 + Math.floor(r() * 100),
    ),
  ).join(' ');
  return `<div class="head"><div class="code">Form ${code}</div><div class="title">${title}</div><div class="year">2025</div></div>
    <div class="grid">${boxes}</div><p class="fine">${fine}</p>
    <div class="foot">Copy B—To Be Filed With Employee's FEDERAL Tax Return. Department of the Treasury—Internal Revenue Service</div>`;
}

/** One scene: its ground, the page's size and pose, light and glare. */
function scene(index) {
  const r = seededRandom(1000 + index);
  const kinds = ['dark', 'wood', 'patterned', 'light', 'dark', 'wood', 'patterned', 'white'];
  const ground = kinds[index % kinds.length];
  const pageWidth = 380 + Math.floor(r() * 150);
  const turn = (r() * 2 - 1) * 30;
  const tilt = r() * 35;
  const tiltY = (r() * 2 - 1) * 12;
  const glare = index % 3 === 1 && ground !== 'white';
  // White on white: evenly lit, a faint shadow: the page cannot be told apart.
  const white = ground === 'white';
  return {
    index,
    ground,
    groundCss: GROUNDS[ground](r),
    pageWidth,
    pageHeight: Math.round((pageWidth * 11) / 8.5),
    turn,
    tilt,
    tiltY,
    dx: (r() * 2 - 1) * 90,
    dy: (r() * 2 - 1) * 50,
    shadow: white ? 3 : 10 + r() * 30,
    light: { x: r() * 100, y: r() * 100, strength: white ? 0.03 : 0.15 + r() * 0.25 },
    glare: glare ? { x: 25 + r() * 50, y: 25 + r() * 50, size: 28 + r() * 14 } : null,
    form: formHtml(r, FORMS[index % FORMS.length]),
  };
}

function html(s) {
  const glare = s.glare
    ? `<div style="position:absolute;inset:0;z-index:2;background:radial-gradient(circle ${(s.glare.size * s.pageWidth) / 100}px at ${s.glare.x}% ${s.glare.y}%, #fff 0 55%, rgba(255,255,255,0.85) 70%, rgba(255,255,255,0) 100%)"></div>`
    : '';
  const markers = ['left:0;top:0', 'right:0;top:0', 'right:0;bottom:0', 'left:0;bottom:0']
    .map((at) => `<i class="corner" style="${at}"></i>`)
    .join('');
  return `<!doctype html><html><head><style>
    html,body{margin:0;width:${WIDTH}px;height:${HEIGHT}px;overflow:hidden}
    .ground{position:absolute;inset:0;${s.groundCss}}
    .stage{position:absolute;inset:0;perspective:1500px;perspective-origin:50% 45%}
    .page{position:absolute;left:${WIDTH / 2 - s.pageWidth / 2 + s.dx}px;top:${HEIGHT / 2 - s.pageHeight / 2 + s.dy}px;
      width:${s.pageWidth}px;height:${s.pageHeight}px;background:#f6f4ee;box-sizing:border-box;padding:${s.pageWidth * 0.06}px;
      transform:rotateZ(${s.turn}deg) rotateX(${s.tilt}deg) rotateY(${s.tiltY}deg);transform-origin:50% 50%;
      box-shadow:0 ${s.shadow / 2}px ${s.shadow}px rgba(0,0,0,0.45);font:${s.pageWidth / 62}px/1.25 Arial,Helvetica,sans-serif;color:#1a1a1a}
    .head{display:flex;gap:1em;align-items:baseline;border-bottom:3px solid #111;padding-bottom:.4em}
    .code{font-weight:700;font-size:1.9em}.title{font-size:1.3em;flex:1}.year{font-size:1.9em;font-weight:700}
    .grid{display:grid;grid-template-columns:1fr 1fr;border:1.5px solid #222;margin-top:.8em}
    .box{border:1px solid #333;padding:.3em .4em;min-height:3.2em;display:flex;flex-direction:column}
    .box .n{font-weight:700}.box b{margin-top:auto;font:600 1.25em 'Courier New',monospace}
    .fine{font-size:.78em;text-align:justify;color:#333}.foot{font-size:.8em;border-top:2px solid #111;padding-top:.3em}
    .corner{position:absolute;width:0;height:0}
    .shade{position:absolute;inset:0;z-index:1;background:linear-gradient(${s.light.x * 3.6}deg, rgba(0,0,0,0), rgba(40,30,20,${s.light.strength / 2.5}))}
    .light{position:absolute;inset:0;pointer-events:none;
      background:radial-gradient(circle at ${s.light.x}% ${s.light.y}%, rgba(255,250,240,${s.light.strength}), rgba(0,0,0,${s.light.strength}) 90%)}
  </style></head><body><div class="ground"><div class="light"></div></div><div class="stage"><div class="page">${s.form}<div class="shade"></div>${glare}${markers}</div></div></body></html>`;
}

async function render(page, s) {
  await page.setContent(html(s));
  await page.evaluate(() => globalThis.document.fonts.ready);
  const corners = await page.$$eval('.corner', (marks) =>
    marks.map((m) => {
      const box = m.getBoundingClientRect();
      return { x: box.x, y: box.y };
    }),
  );
  return corners;
}

const launch = () =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });

async function makeSet() {
  const out = join(HERE, 'photos');
  await mkdir(out, { recursive: true });
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT } });
    const labels = [];
    for (let index = 0; index < COUNT; index++) {
      const s = scene(index);
      const corners = await render(page, s);
      const name = `${String(index).padStart(2, '0')}-${s.ground}.jpg`;
      await writeFile(join(out, name), await page.screenshot({ type: 'jpeg', quality: 82 }));
      labels.push({
        name,
        ground: s.ground,
        // Shares of the photo's sides, top-left, top-right, bottom-right, bottom-left.
        corners: corners.map((c) => ({ x: +(c.x / WIDTH).toFixed(5), y: +(c.y / HEIGHT).toFixed(5) })),
        turn: +s.turn.toFixed(1),
        tilt: +s.tilt.toFixed(1),
        glare: Boolean(s.glare),
        distinguishable: s.ground !== 'white',
      });
    }
    await writeFile(join(HERE, 'labels.json'), `${JSON.stringify(labels, null, 1)}\n`);
    console.log(`${labels.length} photos in ${out}`);
  } finally {
    await browser.close();
  }
}

/** One scene of the set at 12 MP (4032×3024), for the timing. */
async function make12mp(file) {
  const browser = await launch();
  try {
    const page = await browser.newPage({
      viewport: { width: WIDTH, height: HEIGHT },
      deviceScaleFactor: 3.15,
    });
    await render(page, scene(0));
    await writeFile(file, await page.screenshot({ type: 'jpeg', quality: 90 }));
  } finally {
    await browser.close();
  }
}

const at = process.argv.indexOf('--12mp');
if (at > 0) await make12mp(process.argv[at + 1] ?? '12mp.jpg');
else await makeSet();
