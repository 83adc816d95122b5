/**
 * Kept uploads on the desk's disk (docs/behaviour.md#kept-uploads): core's `UploadJournals` port as
 * files, for the kiosk (through the bridge) and anything else running in Node. Files chosen or dropped
 * at the desk are kept here until uploaded, so a crash, a restart or a closed window loses none; scans
 * are not (the watched folder and its ledger keep those).
 *
 * Layout under `dir` (0700; files 0600):
 * - `<owner>/` per person, named by the SHA-256 of their email (no email on disk);
 * - `<owner>/<item>.bin` a file's bytes, then `<owner>/<item>.json` its entry and when it was kept,
 *   each written to a temporary file, flushed and renamed: a crash leaves the old state or the new;
 *   an entry without its bytes is a file the person must choose again;
 * - `notes.json`: per owner, how many of their files another person's sign-in deleted, and when.
 * Bytes are not encrypted here: they are as readable as the scans in the watched folder beside them,
 * and both are protected by the desk's account.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileLike, JournalEntry, KeptFile, OpenedJournal, UploadJournal, UploadJournals } from '@vita-docs/core';
import { z } from 'zod';
import { writeFileAtomic } from './fs-atomic.js';

/** What is written beside each file's bytes. */
const StoredEntrySchema = z.object({
  entry: z.object({
    id: z.string(),
    target: z.object({ clientId: z.string(), docType: z.string() }),
    clientName: z.string().optional(),
    name: z.string(),
    type: z.string(),
    size: z.number().int().nonnegative(),
  }),
  savedAt: z.number(),
});

const NotesSchema = z.record(z.string(), z.object({ count: z.number().int().nonnegative(), at: z.number() }));
type Notes = z.infer<typeof NotesSchema>;

const NOTES_FILE = 'notes.json';

export interface FileJournalsOptions {
  /** The folder that holds them (created when missing). */
  dir: string;
  now?: () => number;
  /** Files older than this are deleted at open (the session's absolute lifetime). */
  lifetimeMs: number;
}

const hash = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Writes a kept file's part so that a crash leaves either no file or the whole one, readable by this account only. */
const writeDurably = (path: string, data: Uint8Array | string) => writeFileAtomic(path, data, 0o600);

/** A kept file's bytes, read from disk when the upload needs them. */
function keptFile(path: string, entry: JournalEntry): FileLike {
  return {
    name: entry.name,
    type: entry.type,
    size: entry.size,
    arrayBuffer: async () => {
      const bytes = await readFile(path);
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    },
  };
}

/** The desk's journals in `dir`: one person's at a time. */
export function createFileJournals(options: FileJournalsOptions): UploadJournals {
  const { dir, lifetimeMs } = options;
  const now = options.now ?? Date.now;
  /** Bumped by `open` and `destroy`: a journal of an earlier person stops writing. */
  let epoch = 0;

  const readNotes = async (): Promise<Notes> => {
    try {
      const parsed = NotesSchema.safeParse(JSON.parse(await readFile(join(dir, NOTES_FILE), 'utf8')));
      return parsed.success ? parsed.data : {};
    } catch {
      return {};
    }
  };
  const writeNotes = (notes: Notes) => writeDurably(join(dir, NOTES_FILE), JSON.stringify(notes));

  /** The entries kept in one owner's folder, by item file name. */
  async function entriesIn(folder: string): Promise<Map<string, { stored?: z.infer<typeof StoredEntrySchema>; bytes: boolean }>> {
    const found = new Map<string, { stored?: z.infer<typeof StoredEntrySchema>; bytes: boolean }>();
    for (const name of await readdir(folder).catch(() => [] as string[])) {
      const match = /^([0-9a-f]{64})\.(json|bin)$/.exec(name);
      if (!match?.[1]) continue;
      const item = found.get(match[1]) ?? { bytes: false };
      if (match[2] === 'bin') item.bytes = true;
      else {
        try {
          const parsed = StoredEntrySchema.safeParse(JSON.parse(await readFile(join(folder, name), 'utf8')));
          if (parsed.success) item.stored = parsed.data;
        } catch {
          // Unreadable: treated as nothing kept (its bytes, if any, are deleted below).
        }
      }
      found.set(match[1], item);
    }
    return found;
  }

  function journalFor(folder: string, opened: number): UploadJournal {
    const paths = (id: string) => {
      const item = hash(id);
      return { bin: join(folder, `${item}.bin`), json: join(folder, `${item}.json`) };
    };
    return {
      async save(entry, file) {
        if (opened !== epoch) return; // signed out or someone else signed in meanwhile: keep nothing
        const { bin, json } = paths(entry.id);
        const record = JSON.stringify({ entry, savedAt: now() });
        try {
          await writeDurably(bin, new Uint8Array(await file.arrayBuffer()));
        } catch (error) {
          // The name is kept even when the bytes are not (a full disk): the person can choose it again.
          await rm(bin, { force: true }).catch(() => undefined);
          await writeDurably(json, record).catch(() => undefined);
          throw error;
        }
        if (opened !== epoch) {
          await rm(bin, { force: true });
          return;
        }
        await writeDurably(json, record);
      },
      async remove(id) {
        const { bin, json } = paths(id);
        // The entry first: bytes without an entry are never offered, and are cleared at the next open.
        await rm(json, { force: true });
        await rm(bin, { force: true });
      },
    };
  }

  return {
    async open(owner) {
      epoch += 1;
      const opened = epoch;
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const mine = hash(owner);
      const notes = await readNotes();
      let notesChanged = false;
      // Everyone else's files go; they are told how many on their next sign-in here.
      for (const name of await readdir(dir)) {
        if (name === mine || !/^[0-9a-f]{64}$/.test(name)) continue;
        const theirs = [...(await entriesIn(join(dir, name))).values()].filter((item) => item.stored).length;
        await rm(join(dir, name), { recursive: true, force: true });
        if (theirs > 0) {
          notes[name] = { count: (notes[name]?.count ?? 0) + theirs, at: now() };
          notesChanged = true;
        }
      }
      const note = notes[mine];
      const deletedForOthers = note && now() - note.at <= lifetimeMs ? note.count : 0;
      if (note) {
        delete notes[mine];
        notesChanged = true;
      }
      if (notesChanged) await writeNotes(notes);

      const folder = join(dir, mine);
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const files: KeptFile[] = [];
      const lost: JournalEntry[] = [];
      for (const [item, { stored, bytes }] of await entriesIn(folder)) {
        const bin = join(folder, `${item}.bin`);
        const drop = () =>
          Promise.all([rm(bin, { force: true }), rm(join(folder, `${item}.json`), { force: true })]);
        if (!stored || now() - stored.savedAt > lifetimeMs) {
          await drop();
          continue;
        }
        const { entry, savedAt } = stored;
        const size = bytes ? await stat(bin).then((s) => s.size, () => -1) : -1;
        if (size === entry.size) files.push({ entry, file: keptFile(bin, entry), savedAt });
        else lost.push(entry);
      }
      files.sort((a, b) => a.savedAt - b.savedAt);
      return { journal: journalFor(folder, opened), files, lost, deletedForOthers } satisfies OpenedJournal;
    },
    async destroy() {
      epoch += 1;
      for (const name of await readdir(dir).catch(() => [] as string[])) {
        if (name !== NOTES_FILE) await rm(join(dir, name), { recursive: true, force: true });
      }
    },
  };
}
