/**
 * Photos of paper for the quality-check tests and benchmarks, made with sharp and all seeded: text-like
 * pages (strokes shaped like letters, headings, form boxes, tables, short notes) drawn as SVG at the
 * photo's size, as a flat scan or as a sheet tilted on a desk; blank sheets; then light, exposure and
 * sensor noise applied to the pixels, and JPEG.
 */
import sharp from 'sharp';

/** mulberry32: a small seeded generator, so the set is the same on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Layout = 'letter' | 'form' | 'table' | 'note';

interface PageSpec {
  /** Text this many times larger than on a whole Letter page in the frame: a close-up of part of it. */
  zoom?: number;
  /** The frame (the photo), in pixels. */
  width: number;
  height: number;
  layout: Layout;
  seed: number;
  /** How the paper sits: `scan` fills the frame; `photo` lies tilted on a desk. */
  framing: 'scan' | 'photo';
}

interface RenderedPage {
  gray: Buffer;
  width: number;
  height: number;
  /** Height of a lower-case letter of the body text, in pixels of the frame. */
  xHeight: number;
}

/** The strokes of one letter-like glyph in a cell of width `w`, x-height `x`, baseline at y. */
function glyph(random: () => number, left: number, base: number, w: number, x: number): string {
  const kind = Math.floor(random() * 6);
  const top = base - x;
  const ascender = base - x * 1.45;
  switch (kind) {
    case 0: // l, t: a tall stem
      return `M${left + w / 2} ${ascender}V${base}`;
    case 1: // o, e: a bowl
      return `M${left} ${base - x / 2}a${w / 2} ${x / 2} 0 1 0 ${w} 0a${w / 2} ${x / 2} 0 1 0 ${-w} 0`;
    case 2: // n, u: two stems and an arch
      return `M${left} ${base}V${top}M${left} ${top + x / 4}q${w / 2} ${-x / 2} ${w} 0V${base}`;
    case 3: // v, x: diagonals
      return `M${left} ${top}L${left + w / 2} ${base}L${left + w} ${top}`;
    case 4: // b, d: stem and bowl
      return `M${left} ${ascender}V${base}M${left} ${base - x / 2}a${w / 2} ${x / 2} 0 1 0 ${w} 0a${w / 2} ${x / 2} 0 1 0 ${-w} 0`;
    default: // i, r: a short stem with a bar
      return `M${left + w / 3} ${top}V${base}M${left} ${top}h${w * 0.8}`;
  }
}

/** A line of words from `x0` to at most `x1`; returns the path data. */
function textLine(
  random: () => number,
  x0: number,
  x1: number,
  base: number,
  em: number,
  fill: number,
): string {
  const w = em * 0.42;
  const gap = em * 0.12;
  const parts: string[] = [];
  let x = x0;
  const end = x0 + (x1 - x0) * fill;
  while (x < end) {
    const letters = 2 + Math.floor(random() * 8);
    for (let i = 0; i < letters && x + w < x1; i++) {
      parts.push(glyph(random, x, base, w, em * 0.5));
      x += w + gap;
    }
    x += em * 0.35;
  }
  return parts.join('');
}

/** The page content (inside a page of `pw`×`ph` at the origin), in SVG. */
function pageContent(
  random: () => number,
  layout: Layout,
  pw: number,
  ph: number,
  zoom = 1,
): { svg: string; em: number } {
  const ppi = (ph / 11) * zoom;
  const em = ((9.5 + random() * 3) / 72) * ppi;
  const margin = ppi * (0.6 + random() * 0.4);
  const ink = `rgb(${20 + Math.round(random() * 30)},${20 + Math.round(random() * 30)},${30 + Math.round(random() * 40)})`;
  const stroke = em * (0.07 + random() * 0.04);
  const body: string[] = [];
  const heavy: string[] = [];
  const boxes: string[] = [];
  let y = margin + em * 2;
  heavy.push(textLine(random, margin, pw - margin, y, em * 1.8, 0.5 + random() * 0.4));
  y += em * 3;
  const right = pw - margin;
  // A short note: a few lines and a signature, the rest of the sheet empty.
  const bottom = layout === 'note' ? y + em * 1.4 * (3 + Math.floor(random() * 5)) : ph - margin;
  while (y < bottom) {
    if (layout === 'letter' || layout === 'note') {
      const last = random() < 0.15;
      body.push(textLine(random, margin, right, y, em, last ? 0.3 + random() * 0.5 : 0.93));
      y += em * (last ? 2.8 : 1.4);
    } else if (layout === 'form') {
      // A labelled box: a short caption above a field, with some filled in.
      const columns = 1 + Math.floor(random() * 3);
      const cw = (right - margin) / columns;
      for (let c = 0; c < columns; c++) {
        const left = margin + c * cw;
        body.push(textLine(random, left + em * 0.3, left + cw * 0.8, y, em * 0.8, 0.6));
        boxes.push(`<rect x="${left}" y="${y + em * 0.4}" width="${cw - em * 0.6}" height="${em * 2}"/>`);
        if (random() < 0.6)
          body.push(textLine(random, left + em * 0.6, left + cw * 0.9, y + em * 1.9, em, 0.5));
      }
      y += em * 3.6;
    } else {
      // A table: rules between rows, numbers-like short words in columns.
      const columns = 3 + Math.floor(random() * 3);
      const cw = (right - margin) / columns;
      for (let c = 0; c < columns; c++)
        body.push(textLine(random, margin + c * cw + em * 0.3, margin + (c + 0.85) * cw, y, em, 0.7));
      boxes.push(`<path d="M${margin} ${y + em * 0.5}H${right}"/>`);
      y += em * 1.7;
    }
  }
  if (layout === 'note') boxes.push(`<path d="M${margin} ${y + em * 3}h${pw / 3}"/>`);
  const svg =
    `<path d="${heavy.join('')}" fill="none" stroke="${ink}" stroke-width="${stroke * 2.2}" stroke-linecap="round"/>` +
    `<path d="${body.join('')}" fill="none" stroke="${ink}" stroke-width="${stroke}" stroke-linecap="round"/>` +
    `<g fill="none" stroke="${ink}" stroke-width="${stroke * 0.8}">${boxes.join('')}</g>`;
  return { svg, em };
}

/** Renders one page at frame size: greyscale pixels and the body text's x-height in frame pixels. */
export async function renderPage(spec: PageSpec): Promise<RenderedPage> {
  const random = seededRandom(spec.seed);
  const { width, height } = spec;
  const paper = 236 + Math.round(random() * 14);
  const desk = Math.round(40 + random() * 120);
  let scale: number;
  let placement: string;
  let pw: number;
  let ph: number;
  if (spec.framing === 'scan') {
    pw = width;
    ph = height;
    scale = 1;
    placement = '';
  } else {
    // A Letter page filling 80–92 % of the frame's height (or width), tilted by up to 3°.
    const fill = 0.8 + random() * 0.12;
    ph = Math.min(height * fill, ((width * fill) / 8.5) * 11);
    pw = (ph / 11) * 8.5;
    scale = 1;
    const angle = (random() - 0.5) * 6;
    placement = `translate(${(width - pw) / 2} ${(height - ph) / 2}) rotate(${angle.toFixed(2)} ${pw / 2} ${ph / 2})`;
  }
  const content = pageContent(random, spec.layout, pw, ph, spec.zoom);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="${width}" height="${height}" fill="rgb(${desk},${desk},${desk})"/>` +
    `<g transform="${placement}"><rect width="${pw}" height="${ph}" fill="rgb(${paper},${paper},${paper - 4})"/>${content.svg}</g></svg>`;
  const gray = await sharp(Buffer.from(svg)).flatten({ background: '#ffffff' }).greyscale().raw().toBuffer();
  return { gray, width, height, xHeight: content.em * 0.5 * scale };
}

/** A blank sheet at frame size (scan or on a desk). */
export async function renderBlank(spec: Omit<PageSpec, 'layout'>): Promise<RenderedPage> {
  const random = seededRandom(spec.seed);
  const { width, height } = spec;
  const paper = 228 + Math.round(random() * 20);
  if (spec.framing === 'scan') {
    const gray = await sharp({
      create: { width, height, channels: 3, background: { r: paper, g: paper, b: paper } },
    })
      .greyscale()
      .raw()
      .toBuffer();
    return { gray, width, height, xHeight: 0 };
  }
  const desk = Math.round(40 + random() * 120);
  const ph = height * (0.8 + random() * 0.12);
  const pw = Math.min((ph / 11) * 8.5, width * 0.95);
  const angle = (random() - 0.5) * 6;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect width="${width}" height="${height}" fill="rgb(${desk},${desk},${desk})"/>` +
    `<rect x="${(width - pw) / 2}" y="${(height - ph) / 2}" width="${pw}" height="${ph}" fill="rgb(${paper},${paper},${paper})" ` +
    `transform="rotate(${angle.toFixed(2)} ${width / 2} ${height / 2})"/></svg>`;
  const gray = await sharp(Buffer.from(svg)).flatten({ background: '#ffffff' }).greyscale().raw().toBuffer();
  return { gray, width, height, xHeight: 0 };
}

export interface Exposure {
  /** Lighting: brightness multiplier across the frame (1 ± this from one corner to the other). */
  unevenness: number;
  /** Under-exposure: every value times this. */
  gain: number;
  /** Over-exposure: the distance to white times this (1 = none). */
  washout: number;
  /** Sensor noise, standard deviation in grey levels. */
  noise: number;
}

/** Light, exposure and noise over rendered (and maybe blurred) pixels; a new buffer. */
export function expose(
  gray: Buffer,
  width: number,
  height: number,
  exposure: Exposure,
  seed: number,
): Buffer {
  const random = seededRandom(seed);
  const gauss = new Float32Array(1 << 16);
  for (let i = 0; i < gauss.length; i += 2) {
    const r = Math.sqrt(-2 * Math.log(random() || 1e-9));
    const t = 2 * Math.PI * random();
    gauss[i] = r * Math.cos(t);
    gauss[i + 1] = r * Math.sin(t);
  }
  const dx = (random() - 0.5) * 2;
  const dy = (random() - 0.5) * 2;
  const out = new Uint8ClampedArray(gray.length);
  let index = Math.floor(random() * gauss.length);
  const step = 40503; // odd, so the walk visits every noise sample
  const { gain, washout, noise } = exposure;
  for (let y = 0; y < height; y++) {
    const row = 1 + exposure.unevenness * dy * (y / height - 0.5);
    const across = (exposure.unevenness * dx) / width;
    for (let x = 0, at = y * width; x < width; x++, at++) {
      // Light falls unevenly, the exposure scales it, over-exposure squeezes it towards white.
      const v = 255 - (255 - (gray[at] ?? 0) * (row + across * (x - width / 2)) * gain) * washout;
      index = (index + step) & 0xffff;
      out[at] = v + (gauss[index] ?? 0) * noise; // clamped to 0–255 by the array
    }
  }
  return Buffer.from(out.buffer);
}

export async function toJpeg(gray: Buffer, width: number, height: number): Promise<Uint8Array> {
  const image = sharp(gray, { raw: { width, height, channels: 1 } });
  // Huffman optimisation off: twice as fast to write, the same pixels.
  return new Uint8Array(await image.jpeg({ quality: 88, optimiseCoding: false }).toBuffer());
}

export async function blurRaw(page: RenderedPage, sigma: number): Promise<Buffer> {
  return sharp(page.gray, { raw: { width: page.width, height: page.height, channels: 1 } })
    .blur(sigma)
    .greyscale()
    .raw()
    .toBuffer();
}

export const NORMAL: Exposure = { unevenness: 0, gain: 1, washout: 1, noise: 0 };

/** One photo of a kind, for tests and benchmarks that need a few rather than the whole set. */
export async function samplePhoto(
  kind: 'ok' | 'dark' | 'washedOut' | 'blurry' | 'blank',
  width = 2048,
  height = 1536,
  seed = 1,
): Promise<Uint8Array> {
  const framing = 'photo';
  const lit: Exposure = { unevenness: 0.2, gain: 1, washout: 1, noise: 3 };
  if (kind === 'blank') {
    const sheet = await renderBlank({ width, height, framing, seed });
    return toJpeg(expose(sheet.gray, width, height, lit, seed), width, height);
  }
  const page = await renderPage({ width, height, layout: 'letter', framing, seed });
  const gray = kind === 'blurry' ? await blurRaw(page, 0.4 * page.xHeight) : page.gray;
  const exposure =
    kind === 'dark'
      ? { ...lit, gain: 0.25 }
      : kind === 'washedOut'
        ? { ...lit, gain: 1.2, washout: 0.25 }
        : lit;
  return toJpeg(expose(gray, width, height, exposure, seed), width, height);
}
