/**
 * What the device read of the files added on the client page (docs/behaviour.md#reading-documents):
 * each file is read once, by the reader the host gives (a worker in the browser), beside its upload and
 * never before it. Its verdict is kept in the page only (never stored or sent), by the file's queue id
 * and, once it is stored, by its key too, so whichever row the file is on says it.
 */
import type { FileLike } from '../../ports.js';
import type { DocumentReader } from '../../reading/reader.js';
import { categoryForm, readingVerdict, type ReadingVerdict } from '../../reading/verdict.js';

/** What a file's row says about it. */
export interface LinkReadingNote {
  /** What the row says (another form, another year, an expired ID). */
  verdict: ReadingVerdict;
  /** The row (category) the file was added to. */
  category: string;
  /**
   * The page's row `Mover a {form}` moves it to: only a row of this page, since a link takes files into
   * the rows it asked for and no other. Absent: only `Dejar aquí`.
   */
  moveTo?: string;
}

/** A file by its queue id (still on its way) or by its stored key. */
export type LinkFileRef = { id: string } | { key: string };

/** The readings as the page draws them: a new object at each change. */
export interface LinkReadingsState {
  /** The note on a file, unless there is nothing to say or the client dismissed it. */
  note(ref: LinkFileRef): LinkReadingNote | undefined;
}

/** What the readings need: the reader, the time (the season's year, an ID's expiry) and the page's rows. */
export interface LinkReadingsOptions {
  reader: Pick<DocumentReader, 'readDocument'>;
  now: () => Date;
  /** The categories of the page's rows now. */
  rows: () => readonly string[];
}

/** The readings of the page's files. */
export interface LinkReadings {
  getState(): LinkReadingsState;
  subscribe(listener: () => void): () => void;
  /** A file in a row's queue: read once (again only if its file was replaced, a retake). */
  queued(id: string, original: FileLike, category: string): void;
  /** The queued file `id` is stored under `key`. */
  stored(id: string, key: string): void;
  /** The queue id of the file stored under `key`. */
  idOf(ref: LinkFileRef): string | undefined;
  /** The key a queued file was stored under, once it was. */
  keyOf(id: string): string | undefined;
  /** `Dejar aquí`, or a move done: the file's note is not said again. */
  dismiss(ref: LinkFileRef): void;
}

/**
 * The page's row a verdict's form may be moved to: the row whose category is that form (a template's
 * category with a note, `W-2 (Acme)`, counts as its form). With two such rows the first is taken: both
 * hold that form, and the volunteer sorts a misplaced one out faster than the client can choose.
 */
function rowFor(verdict: ReadingVerdict, rows: readonly string[]): string | undefined {
  if (verdict.kind !== 'other-form') return undefined;
  return rows.find((row) => categoryForm(row) === verdict.form);
}

/** Creates the readings of a client page. A file that cannot be read says nothing. */
export function createLinkReadings({ reader, now, rows }: LinkReadingsOptions): LinkReadings {
  const read = new Map<string, FileLike>();
  const verdicts = new Map<string, { verdict: ReadingVerdict; category: string }>();
  const keys = new Map<string, string>();
  const dismissed = new Set<string>();
  const listeners = new Set<() => void>();
  const idOf = (ref: LinkFileRef) => ('id' in ref ? ref.id : keys.get(ref.key));
  const snapshot = (): LinkReadingsState => ({
    note(ref) {
      const id = idOf(ref);
      const found = id === undefined || dismissed.has(id) ? undefined : verdicts.get(id);
      if (!found) return undefined;
      const moveTo = rowFor(found.verdict, rows());
      return { ...found, ...(moveTo !== undefined && { moveTo }) };
    },
  });
  let state = snapshot();
  const changed = () => {
    state = snapshot();
    for (const listener of listeners) listener();
  };
  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    queued(id, original, category) {
      if (read.get(id) === original) return;
      read.set(id, original);
      if (verdicts.delete(id)) changed();
      void (async () => {
        const reading = await reader.readDocument(new Uint8Array(await original.arrayBuffer()));
        // Replaced (a retake) while it was read: the new file's reading is the one that counts.
        if (read.get(id) !== original) return;
        const verdict = readingVerdict(reading, category, now());
        if (!verdict) return;
        verdicts.set(id, { verdict, category });
        changed();
      })().catch(() => undefined);
    },
    stored(id, key) {
      if (keys.get(key) === id) return;
      keys.set(key, id);
      changed();
    },
    idOf,
    // A file sent again (a retry) may be given another key: the last is where it is.
    keyOf: (id) => [...keys].filter(([, of]) => of === id).at(-1)?.[0],
    dismiss(ref) {
      const id = idOf(ref);
      if (id === undefined) return;
      dismissed.add(id);
      changed();
    },
  };
}
