/**
 * The Scan pages dialog (docs/behaviour.md#scan-pages): photos of a document's pages, each checked
 * for quality, turned, reordered or removed, then made into one Letter PDF that joins the upload
 * queue. The pixel work and the PDF are ports, so the dialog's code loads without pdf-lib.
 */
import { errorMessage } from '../../api/errors.js';
import { scanFileName } from '../../domain/format.js';
import type { QuarterTurn } from '../../pdf/raster.js';
import { turnBy } from '../../pdf/raster.js';
import { MAX_SCAN_PAGES } from '../../pdf/scan-page.js';
import type { ScanPage } from '../../pdf/scan-page.js';
import type { Clock, Dialogs, FileLike } from '../../ports.js';
import type { QualityWarning } from '../../quality/assess.js';
import { createStore } from '../../store.js';
import type { Flow, Store } from '../../store.js';
import type { InspectImage } from '../upload/upload-state.js';
import { STAFF_SCAN_TEXTS, type ScanFlowTexts } from './scan-texts.js';

/** One page of the scan. */
export interface ScanPageItem {
  id: string;
  file: FileLike;
  rotate: QuarterTurn;
  warnings: readonly QualityWarning[];
}

/** `closed` — no dialog; `editing` — pages being added; `building` — the PDF is being made. */
export interface ScanState {
  status: 'closed' | 'editing' | 'building';
  pages: readonly ScanPageItem[];
  /** The last problem (refused files, a failed PDF); cleared by the next change. */
  error?: string;
}

export type ScanEvent =
  | { type: 'open' }
  | { type: 'add'; files: readonly FileLike[] }
  | { type: 'rotate'; id: string; by: 90 | -90 }
  | { type: 'remove'; id: string }
  /** Retake: `file` takes the page's place (unturned, checked afresh); the other pages stay as they are. */
  | { type: 'replace'; id: string; file: FileLike }
  /** Moves a page one place up (-1, earlier) or down (1). */
  | { type: 'move'; id: string; by: -1 | 1 }
  /** Builds the PDF, hands it to `onScanned` and closes. */
  | { type: 'done' }
  /** Closes, after asking when there are pages to lose. */
  | { type: 'cancel' };

/** The ports of {@link createScanFlow}. */
export interface ScanFlowOptions {
  /** Makes the PDF (usually `imagesToLetterPdf` with the platform's raster port). */
  build: (pages: readonly ScanPage[], name: string) => Promise<FileLike>;
  /** Whether a photo can be a page here (usually `canConvertImage`): HEIC only where it decodes. */
  canUse: (file: FileLike) => Promise<boolean>;
  /** The quality check of each page; without it no warnings. */
  inspect?: InspectImage;
  platform: Pick<Dialogs, 'confirm'>;
  clock: Pick<Clock, 'now'>;
  /** Receives the finished PDF (usually the upload queue's `add`). */
  onScanned: (file: FileLike) => unknown;
  /** What the flow says, asked each time (the client's page may change language); the staff's English by default. */
  texts?: () => ScanFlowTexts;
}

export type ScanFlow = Flow<ScanState, ScanEvent>;

/** The list with the page `id` moved one place up (-1) or down (1); null when it cannot move. */
function moved(pages: readonly ScanPageItem[], id: string, by: -1 | 1): ScanPageItem[] | null {
  const list = [...pages];
  const from = list.findIndex((p) => p.id === id);
  const to = from + by;
  const page = list[from];
  if (!page || to < 0 || to >= list.length) return null;
  list.splice(from, 1);
  list.splice(to, 0, page);
  return list;
}

/** The photos that become pages (those that can, while there is room), and what to say of the others. */
function takePhotos(
  checked: readonly { file: FileLike; usable: boolean }[],
  room: number,
  texts: ScanFlowTexts,
): { taken: FileLike[]; error: string | undefined } {
  const usable = checked.filter((c) => c.usable).map((c) => c.file);
  const refused = checked.filter((c) => !c.usable).map((c) => c.file.name);
  const taken = usable.slice(0, Math.max(0, room));
  const problems = [
    ...(refused.length ? [texts.refused(refused)] : []),
    ...(usable.length > taken.length ? [texts.tooManyPages] : []),
  ];
  return { taken, error: problems.length ? problems.join('\n') : undefined };
}

/** Runs the quality check on new pages: each page's warnings show as its own check finishes. */
async function inspectPages(
  added: readonly ScanPageItem[],
  inspect: NonNullable<ScanFlowOptions['inspect']>,
  update: (id: string, patch: Partial<ScanPageItem>, file: FileLike) => void,
): Promise<void> {
  await Promise.all(
    added.map((page) =>
      inspect(page.file).then(
        (warnings) => warnings.length && update(page.id, { warnings }, page.file),
        () => undefined,
      ),
    ),
  );
}

/** The pages with page `id` changed, only while it still shows `file` (a check of a photo since retaken changes nothing). */
function patchPage(
  pages: readonly ScanPageItem[],
  id: string,
  patch: Partial<ScanPageItem>,
  file?: FileLike,
): ScanPageItem[] {
  return pages.map((p) => (p.id === id && (!file || p.file === file) ? { ...p, ...patch } : p));
}

/** Retake of a page: `file` takes page `id`'s place, unturned, checked afresh (if it can be a page). */
async function replacePage(
  {
    store,
    canUse,
    inspect,
    update,
    texts,
  }: Pick<ScanFlowOptions, 'canUse' | 'inspect'> & {
    texts: ScanFlowTexts;
    store: Store<ScanState>;
    update: (id: string, patch: Partial<ScanPageItem>, file?: FileLike) => void;
  },
  id: string,
  file: FileLike,
): Promise<void> {
  const usable = await canUse(file);
  const state = store.getState();
  if (state.status !== 'editing' || !state.pages.some((p) => p.id === id)) return;
  if (!usable) {
    store.setState((s) => ({ ...s, error: texts.refused([file.name]) }));
    return;
  }
  const page: ScanPageItem = { id, file, rotate: 0, warnings: [] };
  store.setState((s) => ({ ...s, error: undefined, pages: s.pages.map((p) => (p.id === id ? page : p)) }));
  if (inspect) await inspectPages([page], inspect, update);
}

/** Creates the Scan pages flow. */
export function createScanFlow(options: ScanFlowOptions): ScanFlow {
  const { build, canUse, inspect, platform, clock, onScanned } = options;
  const texts = () => options.texts?.() ?? STAFF_SCAN_TEXTS;
  const store = createStore<ScanState>({ status: 'closed', pages: [] });
  let nextId = 1;

  const pages = () => store.getState().pages;
  const setPages = (next: readonly ScanPageItem[]) =>
    store.setState((s) => ({ ...s, pages: next, error: undefined }));
  const update = (id: string, patch: Partial<ScanPageItem>, file?: FileLike) =>
    store.setState((s) => ({ ...s, pages: patchPage(s.pages, id, patch, file) }));

  async function add(files: readonly FileLike[]): Promise<void> {
    const checked = await Promise.all(files.map(async (file) => ({ file, usable: await canUse(file) })));
    if (store.getState().status !== 'editing') return;
    const { taken, error } = takePhotos(checked, MAX_SCAN_PAGES - pages().length, texts());
    const added = taken.map((file): ScanPageItem => ({
      id: `page-${nextId++}`,
      file,
      rotate: 0,
      warnings: [],
    }));
    store.setState((s) => ({ ...s, pages: [...s.pages, ...added], error }));
    if (inspect) await inspectPages(added, inspect, update);
  }

  async function done(): Promise<void> {
    const list = pages();
    if (!list.length) return;
    store.setState((s) => ({ ...s, status: 'building', error: undefined }));
    try {
      const pdf = await build(
        list.map(({ file, rotate }) => ({ file, rotate })),
        scanFileName(new Date(clock.now())),
      );
      await onScanned(pdf);
      store.setState({ status: 'closed', pages: [] });
    } catch (error) {
      store.setState((s) => ({ ...s, status: 'editing', error: texts().failed(errorMessage(error)) }));
    }
  }

  async function cancel(): Promise<void> {
    const count = pages().length;
    if (count && !(await platform.confirm(texts().discard(count)))) return;
    store.setState({ status: 'closed', pages: [] });
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      const { status } = store.getState();
      if (event.type === 'open') {
        if (status === 'closed') store.setState({ status: 'editing', pages: [] });
        return;
      }
      if (status !== 'editing') return;
      switch (event.type) {
        case 'add':
          return add(event.files);
        case 'rotate': {
          const page = pages().find((p) => p.id === event.id);
          if (page) update(page.id, { rotate: turnBy(page.rotate, event.by) });
          return;
        }
        case 'remove':
          setPages(pages().filter((p) => p.id !== event.id));
          return;
        case 'replace':
          return replacePage({ store, canUse, inspect, update, texts: texts() }, event.id, event.file);
        case 'move': {
          const list = moved(pages(), event.id, event.by);
          if (list) setPages(list);
          return;
        }
        case 'done':
          return done();
        case 'cancel':
          return cancel();
      }
    },
  };
}
