// The client page's capture in Node, on in-memory ports: a fake server behind the link session's two
// upload calls, stand-in photo tools, an in-memory journal for the files the phone keeps. What the
// client adds to a row goes at once through the link's calls, each row in its own queue (the
// `Something else` row's files go to `Other`); a photo whose quality check finds a fault waits for
// Keep anyway or Retake, and a row waits for checks still under way; Scan pages adds its PDF to the row
// it was opened from; each file stored through the page keeps a thumbnail; files kept before a reload
// are sent again in their rows. Each file added is read beside its upload: another form is said on its
// row, with `Mover a` only for a row of the page.
import { describe, expect, it } from 'vitest';
import type { ClientLinkLanguage } from '../../client-link/languages.js';
import { pdfFileName } from '../../pdf/convertible.js';
import type { Clock, FileLike } from '../../ports.js';
import type { QualityWarning } from '../../quality/warnings.js';
import {
  createDeferred,
  createFakeApi,
  createMemoryJournals,
  createMemoryStorage,
  createRecordingDialogs,
  createTestFile,
} from '../../testing/index.js';
import type { UploadFlow } from '../upload/upload.js';
import type { InspectImage, QueuedFile, UploadState } from '../upload/upload-state.js';
import { createLinkCapture } from './link-capture.js';
import { awaitsQualityChoice } from './parts.js';
import type { DocumentReader } from '../../reading/reader.js';
import { seasonTaxYear } from '../../reading/verdict.js';
import type { LinkReadingsState } from './readings.js';
import type { LinkCapture, LinkCapturePorts } from './types.js';

const photo = (name: string) => createTestFile(name, `photo ${name}`, 'image/jpeg');
const pdf = (name: string) => createTestFile(name, `%PDF ${name}`, 'application/pdf');
const textOf = async (file: FileLike) => new TextDecoder().decode(await file.arrayBuffer());

/**
 * Real timers, telling when a turn of no delay has run: the capture takes one, once a row's checks
 * are done, before it decides whether the row sends.
 */
function turnClock() {
  let waiting: (() => void)[] = [];
  const clock: Clock = {
    now: () => Date.now(),
    setTimeout: (callback, ms) =>
      globalThis.setTimeout(() => {
        callback();
        if (ms > 0) return;
        const told = waiting;
        waiting = [];
        for (const tell of told) tell();
      }, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
  /** Resolves once the next turn the capture takes has run, and what it then decided has been done. */
  const nextTurn = () => new Promise<void>((resolve) => waiting.push(resolve)).then(() => macrotask());
  return { clock, nextTurn };
}

/** Everything the code under test queued before now has run. */
const macrotask = () => new Promise<void>((resolve) => globalThis.setTimeout(resolve, 0));

/** The link session's upload calls on a fake server: the client's files land in their category. */
function linkServer() {
  const fake = createFakeApi();
  const client = fake.addClient({ firstName: 'Ana', createdBy: null });
  const api: LinkCapturePorts['api'] = {
    linkPresign: ({ body }) => fake.presignUpload({ params: { id: client.clientId }, body }),
    async linkComplete({ body }) {
      const { item } = await fake.completeUpload({ body });
      const { key, filename, size, contentType } = item;
      return { ok: true, file: { key, filename, size, contentType } };
    },
    linkMove: ({ body }) => fake.moveDoc({ body }),
  };
  const stored = () => [...fake.world.docs.values()].map(({ item }) => `${item.docType}/${item.filename}`);
  return { fake, api, stored };
}

/** Resolves to `flow`'s state once it passes `test`. */
function until(flow: UploadFlow, test: (state: UploadState) => boolean): Promise<UploadState> {
  return new Promise((resolve) => {
    if (test(flow.getState())) return resolve(flow.getState());
    const stop = flow.subscribe((state) => {
      if (!test(state)) return;
      stop();
      resolve(state);
    });
  });
}

const allDone = (state: UploadState) =>
  state.queue.length > 0 && state.queue.every((item) => item.progress.status === 'done');
const isQueued = (item: QueuedFile) => item.progress.status === 'queued';
/** A photo converted and checked whose fault the client is asked about (Retake or Keep anyway). */
const awaitsChoice = (state: UploadState) =>
  state.queue.some((item) => awaitsQualityChoice(item) && isQueued(item));

let ids = 0;

/**
 * A capture on in-memory ports. A photo made by `photo('tooDark…')` is too dark, one by
 * `photo('edgesNotFound…')` had no page edges found; `inspect` stands in for the check.
 */
function setup(more: Partial<LinkCapturePorts> = {}, inspect?: InspectImage) {
  const server = linkServer();
  const { clock, nextTurn } = turnClock();
  const converted: { name: string; rotate: number | undefined }[] = [];
  let disposed = 0;
  let storedCount = 0;
  let language: ClientLinkLanguage = 'en';
  // By the photo's bytes, not its name: a retake takes the name of the photo it replaces.
  const warningsOf = async (file: FileLike): Promise<QualityWarning[]> => {
    const text = await textOf(file);
    return (['tooDark', 'edgesNotFound'] as const).filter((warning) => text.startsWith(`photo ${warning}`));
  };
  const ports: LinkCapturePorts = {
    api: server.api,
    putFile: server.fake.putFile,
    photos: {
      async convert(file, options) {
        converted.push({ name: file.name, rotate: options?.rotate });
        return createTestFile(pdfFileName(file.name), `%PDF of ${await textOf(file)}`, 'application/pdf');
      },
      inspect: inspect ?? warningsOf,
      canUse: async (file) => file.type.startsWith('image/'),
      buildScan: async (_pages, name) => pdf(name),
      dispose: () => void (disposed += 1),
    },
    storage: createMemoryStorage(),
    platform: createRecordingDialogs(),
    clock,
    newId: () => `file-${++ids}`,
    ...more,
  };
  const capture = createLinkCapture(ports, {
    onStored: () => void (storedCount += 1),
    language: () => language,
    rows: () => ['W-2', '1099-INT', 'Other'],
  });
  return {
    ...server,
    capture,
    converted,
    nextTurn,
    disposed: () => disposed,
    storedCount: () => storedCount,
    setLanguage: (next: ClientLinkLanguage) => void (language = next),
  };
}

describe('the client page’s capture', () => {
  it('sends what is added to a row at once through the link’s calls, each row its own queue', async () => {
    const { capture, stored, storedCount, fake, converted } = setup();
    capture.add('W-2', [pdf('w2.pdf')], false);
    // The Something else row's files go to Other; a photo taken is named after its row.
    capture.add('Other', [photo('receipt.jpg')], true);
    expect(capture.queue('W-2')).toBe(capture.queue('W-2'));
    expect(capture.queue('W-2')).not.toBe(capture.queue('Other'));
    await Promise.all([until(capture.queue('W-2'), allDone), until(capture.queue('Other'), allDone)]);
    expect(stored().sort()).toEqual(['Other/Other 1.pdf', 'W-2/w2.pdf']);
    expect(converted).toEqual([{ name: 'Other 1.jpg', rotate: 0 }]);
    expect(storedCount()).toBeGreaterThanOrEqual(2);
    expect(fake.callNames().filter((name) => name === 'presignUpload')).toHaveLength(2);
  });

  it('a photo with a fault waits for Keep anyway; a notice does not hold its row', async () => {
    const { capture, stored, nextTurn } = setup();
    const row = capture.queue('W-2');
    const decided = nextTurn();
    capture.add('W-2', [photo('tooDark-w2.jpg')], false);
    await decided;
    const [item] = row.getState().queue;
    expect(item).toMatchObject({ warnings: ['tooDark'], progress: { status: 'queued' } });
    expect(stored()).toEqual([]);
    capture.answer('W-2', item!.id);
    await until(row, allDone);
    expect(stored()).toEqual(['W-2/tooDark-w2.pdf']);

    capture.add('1099-INT', [photo('edgesNotFound-int.jpg')], false);
    const { queue } = await until(capture.queue('1099-INT'), allDone);
    expect(queue[0]?.warnings).toEqual(['edgesNotFound']);
    expect(stored()).toContain('1099-INT/edgesNotFound-int.pdf');
  });

  it('Retake sends the new photo in place of the one with the fault', async () => {
    const { capture, stored, fake } = setup();
    const row = capture.queue('W-2');
    capture.add('W-2', [photo('tooDark-w2.jpg')], false);
    await until(row, awaitsChoice);
    capture.answer('W-2', row.getState().queue[0]!.id, photo('again.jpg'));
    await until(row, allDone);
    // The retake keeps the name; its bytes are the new photo's.
    expect(stored()).toEqual(['W-2/tooDark-w2.pdf']);
    const [doc] = fake.world.docs.values();
    expect(new TextDecoder().decode(doc!.bytes)).toBe('%PDF of photo again.jpg');
  });

  it('a row sends nothing while a photo’s quality check is under way', async () => {
    const check = createDeferred<readonly QualityWarning[]>();
    const { capture, stored, fake, nextTurn } = setup({}, () => check.promise);
    const row = capture.queue('W-2');
    const decided = nextTurn();
    capture.add('W-2', [pdf('page-1.pdf'), photo('w2.jpg')], false);
    await until(row, (state) => state.queue.length === 2 && state.queue.every(isQueued));
    // Their readiness settles in this turn; a capture that did not wait for the check would send in the next.
    await macrotask();
    await macrotask();
    expect(fake.callNames()).not.toContain('presignUpload');
    check.resolve(['tooDark']);
    await decided;
    expect(row.getState().queue.map((item) => item.progress.status)).toEqual(['queued', 'queued']);
    expect(stored()).toEqual([]);
  });

  it('Scan pages adds its PDF to the row it was opened from, in the client’s language', async () => {
    const { capture, stored, fake, setLanguage } = setup();
    setLanguage('es');
    capture.scan('1098');
    expect(capture.scanFlow.getState().status).toBe('editing');
    await capture.scanFlow.send({ type: 'add', files: [pdf('not-a-photo.pdf')] });
    expect(capture.scanFlow.getState().error).toMatch(/^Estos archivos no pueden ser páginas/);
    const first = photo('page-1.jpg');
    await capture.scanFlow.send({ type: 'add', files: [first, photo('page-2.jpg')] });
    const [page] = capture.scanFlow.getState().pages;
    await capture.scanFlow.send({ type: 'rotate', id: page!.id, by: 90 });
    await capture.scanFlow.send({ type: 'done' });
    await until(capture.queue('1098'), allDone);
    expect(stored()).toEqual([expect.stringMatching(/^1098\/Scan .*\.pdf$/)]);
    // Its thumbnail is its first page, as turned.
    const [key] = fake.world.docs.keys();
    expect(capture.thumb(key!)).toEqual({ file: first, rotate: 90 });
  });

  it('keeps the thumbnail of each file it stored: a photo as turned, a PDF itself', async () => {
    const { capture, fake } = setup();
    const w2 = photo('w2.jpg');
    const statement = pdf('statement.pdf');
    capture.add('W-2', [w2], false);
    await until(capture.queue('W-2'), allDone);
    capture.add('W-2', [statement], false);
    await until(capture.queue('W-2'), allDone);
    const [w2Key, statementKey] = fake.world.docs.keys();
    expect(capture.thumb(w2Key!)).toEqual({ file: w2, rotate: 0 });
    expect(capture.thumb(statementKey!)).toEqual({ file: statement, rotate: 0 });
    // A file stored before the page loaded has none.
    expect(capture.thumb('link/W-2/1-earlier.pdf')).toBeUndefined();
  });

  it('sends the files the phone kept before a reload, each in its row', async () => {
    const journals = createMemoryJournals();
    const first = await journals.open('link-session');
    const before = setup({ journal: { journal: first.journal, kept: Promise.resolve(first.files) } });
    // The page goes before its files are sent: the presign never answers.
    before.fake.hold('presignUpload');
    before.capture.add('W-2', [pdf('w2.pdf')], false);
    before.capture.add('1099-INT', [pdf('int.pdf')], false);
    await until(before.capture.queue('1099-INT'), (state) => state.queue[0]?.progress.status === 'uploading');
    before.capture.dispose();
    expect(before.disposed()).toBe(1);
    expect(journals.kept.size).toBe(2);

    const reopened = await journals.open('link-session');
    const after = setup({ journal: { journal: reopened.journal, kept: Promise.resolve(reopened.files) } });
    await Promise.all(['W-2', '1099-INT'].map((row) => until(after.capture.queue(row), allDone)));
    expect(after.stored().sort()).toEqual(['1099-INT/int.pdf', 'W-2/w2.pdf']);
    expect(journals.kept.size).toBe(0);
  });

  it('a photo waiting for the client’s answer comes back after a reload still waiting, with its choices', async () => {
    const journals = createMemoryJournals();
    const first = await journals.open('link-session');
    const before = setup({ journal: { journal: first.journal, kept: Promise.resolve(first.files) } });
    const dark = photo('tooDark-w2.jpg');
    before.capture.add('W-2', [dark], false);
    await until(before.capture.queue('W-2'), awaitsChoice);
    // Kept as the photo itself, with its turn and its warning, so the same choices come back.
    await until(before.capture.queue('W-2'), (state) => state.queue[0]?.saved === true);
    expect(before.capture.wouldLose()).toBe(false);
    before.capture.dispose();
    expect(
      [...journals.kept.values()].map(({ entry }) => [entry.name, entry.convert, entry.warnings]),
    ).toEqual([['tooDark-w2.jpg', { rotate: 0 }, ['tooDark']]]);

    const reopened = await journals.open('link-session');
    const after = setup({ journal: { journal: reopened.journal, kept: Promise.resolve(reopened.files) } });
    const row = after.capture.queue('W-2');
    const decided = after.nextTurn();
    await until(row, awaitsChoice);
    await decided;
    const [item] = row.getState().queue;
    expect(item).toMatchObject({ warnings: ['tooDark'], rotate: 0, progress: { status: 'queued' } });
    expect(await textOf(item!.original)).toBe('photo tooDark-w2.jpg');
    expect(after.fake.callNames()).not.toContain('presignUpload');
    // Keep anyway: it goes once, and the phone forgets it.
    after.capture.answer('W-2', item!.id);
    await until(row, allDone);
    expect(after.stored()).toEqual(['W-2/tooDark-w2.pdf']);
    expect(journals.kept.size).toBe(0);
  });

  it('photos added then left before their conversion come back: sent once, or waiting for an answer', async () => {
    const journals = createMemoryJournals();
    const first = await journals.open('link-session');
    const never = new Promise<never>(() => undefined);
    const before = setup({
      journal: { journal: first.journal, kept: Promise.resolve(first.files) },
      photos: {
        convert: () => never,
        inspect: () => never,
        canUse: async () => true,
        buildScan: async (_pages, name) => pdf(name),
      },
    });
    before.capture.add('W-2', [photo('w2.jpg')], false);
    before.capture.add('1099-INT', [photo('tooDark-int.jpg')], false);
    // Not kept yet: leaving now would lose them.
    expect(before.capture.wouldLose()).toBe(true);
    const kept = (state: UploadState) => state.queue.every((item) => item.saved);
    await Promise.all(['W-2', '1099-INT'].map((row) => until(before.capture.queue(row), kept)));
    expect(before.capture.wouldLose()).toBe(false);
    before.capture.dispose();
    expect(
      [...journals.kept.values()].map(({ entry }) => [entry.name, entry.convert, entry.checkPending]),
    ).toEqual([
      ['w2.jpg', { rotate: 0 }, true],
      ['tooDark-int.jpg', { rotate: 0 }, true],
    ]);

    const reopened = await journals.open('link-session');
    const after = setup({ journal: { journal: reopened.journal, kept: Promise.resolve(reopened.files) } });
    const decided = after.nextTurn();
    await until(after.capture.queue('W-2'), allDone);
    await until(after.capture.queue('1099-INT'), awaitsChoice);
    await decided;
    expect(after.stored()).toEqual(['W-2/w2.pdf']);
    expect(after.fake.callNames().filter((name) => name === 'presignUpload')).toHaveLength(1);
    expect(after.capture.queue('1099-INT').getState().queue[0]).toMatchObject({
      warnings: ['tooDark'],
      progress: { status: 'queued' },
    });
    expect(after.converted.map(({ name }) => name).sort()).toEqual(['tooDark-int.jpg', 'w2.jpg']);
  });

  it('says a file would be lost by leaving while it is neither sent nor kept', async () => {
    const { capture, fake } = setup();
    expect(capture.wouldLose()).toBe(false);
    // No journal on this phone: a file not sent yet is lost by leaving.
    fake.hold('presignUpload');
    capture.add('W-2', [pdf('w2.pdf')], false);
    await until(capture.queue('W-2'), (state) => state.queue[0]?.progress.status === 'uploading');
    expect(capture.wouldLose()).toBe(true);
  });
});

/** A reader that names a form by the words in the file's bytes; `gate` holds every reading until opened. */
function wordReader(gate?: Promise<unknown>) {
  const season = seasonTaxYear(new Date());
  let closed = 0;
  const reader: DocumentReader = {
    async readDocument(bytes) {
      await gate;
      const text = new TextDecoder().decode(bytes);
      if (text.includes('unreadable')) throw new Error('no text');
      const year = text.includes('old') ? season - 2 : season;
      for (const form of ['1099-INT', '1098-T', 'W-2'] as const)
        if (text.includes(form)) return { form, year };
      return {};
    },
    close: async () => void (closed += 1),
  };
  return { reader, closed: () => closed };
}

/** Resolves once the capture's readings pass `test`. */
function untilRead(capture: LinkCapture, test: (state: LinkReadingsState) => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (test(capture.readings.getState())) return resolve();
    const stop = capture.readings.subscribe(() => {
      if (!test(capture.readings.getState())) return;
      stop();
      resolve();
    });
  });
}

describe('the client page’s capture reads what is added', () => {
  it('never holds an upload for its reading; another form is said on its row and Mover a moves it', async () => {
    const gate = createDeferred<void>();
    const { reader, closed } = wordReader(gate.promise);
    const { capture, stored, fake, storedCount } = setup({ reader });
    const added = photo('bank-1099-INT.jpg');
    capture.add('W-2', [added], false);
    const { queue } = await until(capture.queue('W-2'), allDone);
    expect(stored()).toEqual(['W-2/bank-1099-INT.pdf']);
    const [key] = fake.world.docs.keys();
    const id = queue[0]!.id;
    expect(capture.readings.getState().note({ key: key! })).toBeUndefined();
    gate.resolve();
    await untilRead(capture, (state) => state.note({ key: key! }) !== undefined);
    const note = { verdict: { kind: 'other-form', form: '1099-INT' }, category: 'W-2', moveTo: '1099-INT' };
    expect(capture.readings.getState().note({ key: key! })).toEqual(note);
    expect(capture.readings.getState().note({ id })).toEqual(note);
    const before = storedCount();
    await capture.move({ key: key! });
    expect(stored()).toEqual(['1099-INT/bank-1099-INT.pdf']);
    expect(storedCount()).toBe(before + 1);
    const [moved] = fake.world.docs.keys();
    expect(capture.thumb(moved!)).toEqual({ file: added, rotate: 0 });
    expect(capture.readings.getState().note({ key: key! })).toBeUndefined();
    capture.dispose();
    expect(closed()).toBe(1);
  });

  it('offers Mover a only for a row of the page; Dejar aquí lets the file be', async () => {
    const { reader } = wordReader();
    const { capture, stored, fake } = setup({ reader });
    capture.add('W-2', [pdf('tuition-1098-T.pdf')], false);
    await until(capture.queue('W-2'), allDone);
    const [key] = fake.world.docs.keys();
    await untilRead(capture, (state) => state.note({ key: key! }) !== undefined);
    expect(capture.readings.getState().note({ key: key! })).toEqual({
      verdict: { kind: 'other-form', form: '1098-T' },
      category: 'W-2',
    });
    await capture.move({ key: key! });
    expect(stored()).toEqual(['W-2/tuition-1098-T.pdf']);
    capture.keep({ key: key! });
    expect(capture.readings.getState().note({ key: key! })).toBeUndefined();
  });

  it('moves a file not sent yet to the other row’s queue instead', async () => {
    const { reader } = wordReader();
    const { capture, stored } = setup({ reader });
    const w2 = capture.queue('W-2');
    capture.add('W-2', [photo('tooDark-1099-INT.jpg')], false);
    await until(w2, awaitsChoice);
    const id = w2.getState().queue[0]!.id;
    await untilRead(capture, (state) => state.note({ id }) !== undefined);
    await capture.move({ id });
    expect(w2.getState().queue).toEqual([]);
    const int = capture.queue('1099-INT');
    await until(int, awaitsChoice);
    expect(int.getState().queue.map((item) => item.original.name)).toEqual(['tooDark-1099-INT.jpg']);
    expect(stored()).toEqual([]);
    // In its right row now: nothing more is said of it.
    await macrotask();
    expect(capture.readings.getState().note({ id: int.getState().queue[0]!.id })).toBeUndefined();
  });

  it('says nothing of the right form, the year of last season’s, nothing unread', async () => {
    const { reader } = wordReader();
    const { capture, fake } = setup({ reader });
    capture.add('W-2', [pdf('w2-W-2.pdf'), pdf('old-W-2.pdf'), pdf('unreadable.pdf')], false);
    await until(capture.queue('W-2'), (state) => state.queue.length === 3 && allDone(state));
    const keyOf = (name: string) =>
      [...fake.world.docs.values()].find((d) => d.item.filename === name)!.item.key;
    await untilRead(capture, (state) => state.note({ key: keyOf('old-W-2.pdf') }) !== undefined);
    expect(capture.readings.getState().note({ key: keyOf('old-W-2.pdf') })).toEqual({
      verdict: { kind: 'other-year', year: seasonTaxYear(new Date()) - 2 },
      category: 'W-2',
    });
    expect(capture.readings.getState().note({ key: keyOf('w2-W-2.pdf') })).toBeUndefined();
    expect(capture.readings.getState().note({ key: keyOf('unreadable.pdf') })).toBeUndefined();
  });

  it('reads nothing without a reader', async () => {
    const { capture, fake } = setup();
    capture.add('W-2', [pdf('bank-1099-INT.pdf')], false);
    await until(capture.queue('W-2'), allDone);
    const [key] = fake.world.docs.keys();
    expect(capture.readings.getState().note({ key: key! })).toBeUndefined();
  });
});
