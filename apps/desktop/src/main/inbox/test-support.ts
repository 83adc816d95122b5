/**
 * Helpers for tests that run the inbox against real temporary folders. Waits are event-based with
 * generous limits, so a loaded 2-core machine makes tests slower, not red.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { PDFDocument, PDFName } from 'pdf-lib';
import sharp from 'sharp';
import { afterEach, beforeEach } from 'vitest';
import type { InboxState } from '../../shared/bridge.js';
import { createInboxHost, type InboxHost, type InboxSettings } from '../inbox-host.js';
import { createInbox, type Inbox, type InboxOptions } from './inbox.js';
import type { InboxEvent, Scan } from './scan.js';

/** An inbox under test with every event it reported. */
export interface RecordedInbox {
  inbox: Inbox;
  events: InboxEvent[];
  /** Resolves with the first recorded event (past or future) that matches. */
  next<E extends InboxEvent>(match: (event: InboxEvent) => event is E, timeoutMs?: number): Promise<E>;
  /** Resolves with the scan once a file at `relPath` has been added. */
  added(relPath: string, timeoutMs?: number): Promise<Scan>;
  /** Scans added for `relPath` so far. */
  addedCount(relPath: string): number;
}

/** Starts an inbox on `folder` and records its events. */
export async function startRecorded(options: InboxOptions): Promise<RecordedInbox> {
  const inbox = createInbox(options);
  const events: InboxEvent[] = [];
  const waiters = new Set<() => void>();
  inbox.subscribe((event) => {
    events.push(event);
    for (const wake of [...waiters]) wake();
  });
  await inbox.start();

  const next = <E extends InboxEvent>(
    match: (event: InboxEvent) => event is E,
    timeoutMs = 30_000,
  ): Promise<E> =>
    new Promise<E>((resolve, reject) => {
      const check = (): boolean => {
        const found = events.find(match);
        if (!found) return false;
        cleanup();
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `No matching inbox event within ${timeoutMs} ms; saw ${JSON.stringify(events.map(brief))}`,
          ),
        );
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        waiters.delete(wake);
      };
      const wake = (): void => void check();
      if (!check()) waiters.add(wake);
    });

  const isAdded =
    (relPath: string) =>
    (event: InboxEvent): event is Extract<InboxEvent, { type: 'added' }> =>
      event.type === 'added' && event.scan.relPath === relPath;

  return {
    inbox,
    events,
    next,
    added: async (relPath, timeoutMs) => (await next(isAdded(relPath), timeoutMs)).scan,
    addedCount: (relPath) => events.filter(isAdded(relPath)).length,
  };
}

function brief(event: InboxEvent): string {
  if (event.type === 'error') return `error ${event.message}`;
  if (event.type === 'removed') return `removed ${event.id} ${event.reason}`;
  if (event.type === 'problem') return `problem ${event.kind} ${event.relPath}`;
  if (event.type === 'status') return 'status';
  return `${event.type} ${event.scan.relPath}`;
}

/** A fresh temporary folder; remove it with {@link removeFolder}. */
export function tempFolder(prefix = 'vita-inbox-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Removes a temporary folder and everything in it. */
export function removeFolder(folder: string): Promise<void> {
  return rm(folder, { recursive: true, force: true, maxRetries: 3 });
}

/** A one-page PDF whose bytes are `seed`'s own (its title), the same for the same seed. */
export async function testPdf(seed: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(seed);
  doc.addPage([612, 792]);
  return doc.save();
}

/** A small image of the type its name says (JPEG, PNG, TIFF …), its pixels drawn from `seed`. */
async function testImage(ext: string, seed: string): Promise<Uint8Array> {
  const digest = createHash('sha256').update(seed).digest();
  const pixels = Buffer.alloc(16 * 16 * 3, 0).map((_, i) => digest[i % digest.length] ?? 0);
  const image = sharp(pixels, { raw: { width: 16, height: 16, channels: 3 } });
  if (ext === '.png') return image.png().toBuffer();
  if (ext === '.tif' || ext === '.tiff') return image.tiff().toBuffer();
  if (ext === '.webp') return image.webp({ lossless: true }).toBuffer();
  return image.jpeg({ quality: 95 }).toBuffer();
}

/** A scanned page of text as a JPEG, drawn as core's reader tests draw theirs (SVG text by sharp). */
export async function scannedPage(lines: string[]): Promise<Buffer> {
  const text = lines
    .map((l, i) => `<text x="60" y="${100 + i * 50}" font-family="DejaVu Sans" font-size="30">${l}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"><rect width="100%" height="100%" fill="#f4f1ea"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

/**
 * What a scanner writes to PDF: `lines` as {@link scannedPage}'s JPEG, the page's only content (no
 * text layer), so the reader must OCR the image.
 */
export async function scannedPdf(lines: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const image = await pdf.embedJpg(await scannedPage(lines));
  const page = pdf.addPage([612, 408]);
  page.drawImage(image, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  return pdf.save();
}

/**
 * What an attacker who can write the scanner folder drops: page 1 paints `count` one-pixel inline
 * images (some 11 MB for 200 000), each parsed by pdf.js, for seconds of one thread.
 */
export async function manyInlineImagesPdf(count: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 792]);
  const content = 'q 1 0 0 1 0 0 cm BI /W 1 /H 1 /CS /G /BPC 8 ID \x00 EI Q\n'.repeat(count);
  page.node.set(PDFName.of('Contents'), pdf.context.register(pdf.context.stream(content)));
  return pdf.save();
}

/**
 * Writes a whole scan (creating its folders): a PDF, or an image of the type its name says, with
 * bytes unique to `seed`. Other names get text.
 */
export async function putFile(folder: string, relPath: string, seed: string = relPath): Promise<string> {
  const path = join(folder, ...relPath.split('/'));
  await mkdir(dirname(path), { recursive: true });
  // By the scan type in the name, also under a temporary name (`scan.pdf.~tmp`).
  const ext = `.${/\.(pdf|jpe?g|png|tiff?|webp)(?=\.|$)/i.exec(relPath)?.[1]?.toLowerCase() ?? ''}`;
  const isImage = ['.jpg', '.jpeg', '.png', '.tif', '.tiff', '.webp'].includes(ext);
  await writeFile(
    path,
    ext === '.pdf' ? await testPdf(seed) : isImage ? await testImage(ext, seed) : `text ${seed}\n`,
  );
  return path;
}

/** Scans moved away once uploaded, the folder taken as it is, problem scans listed. */
export const MOVE: InboxSettings = { afterUpload: 'move', folderMode: 'auto', problemScans: 'list' };

export interface InboxHostWorld {
  /** The current test's scanner folder. */
  readonly folder: string;
  /** The current test's inbox host (the desk's reader with it). */
  readonly host: InboxHost;
  /** Every state the host told this test, in order. */
  readonly states: readonly InboxState[];
  /** The first state (told so far or later) that matches. */
  nextState: (match: (state: InboxState) => boolean) => Promise<InboxState>;
}

/**
 * A real folder watched by a real inbox host, whose every state is kept: `inboxHostWorld()`
 * registers the file's hooks, a new folder and host before each test, both gone after it.
 */
export function inboxHostWorld(): InboxHostWorld {
  let folder = '';
  let host: InboxHost | undefined;
  const states: InboxState[] = [];
  const waiters = new Set<() => void>();

  beforeEach(async () => {
    folder = await tempFolder();
    states.length = 0;
    host = createInboxHost({
      // A network file system (CIFS) for every folder: `auto` polls, every 200 ms here.
      inbox: { stableMs: 300, intervalMs: 200, damagedAfterMs: 1000, readFsType: async () => 0xff534d42 },
      onState: (state) => {
        states.push(state);
        for (const wake of [...waiters]) wake();
      },
    });
  });

  afterEach(async () => {
    await host?.close();
    await removeFolder(folder);
  });

  return {
    get folder() {
      return folder;
    },
    get host() {
      if (!host) throw new Error('The inbox host is made before each test.');
      return host;
    },
    states,
    nextState: (match) =>
      new Promise((resolve) => {
        const check = (): void => {
          const found = states.find(match);
          if (found) {
            waiters.delete(check);
            resolve(found);
          }
        };
        waiters.add(check);
        check();
      }),
  };
}
