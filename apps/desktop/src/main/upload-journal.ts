/**
 * Kept uploads on the desk's disk (docs/behaviour.md#kept-uploads): core's `UploadJournals` port as
 * files, for the kiosk (through the bridge) and anything else running in Node. Files chosen or dropped
 * at the desk are kept here until uploaded, so a crash, a restart or a closed window loses none; scans
 * are not (the watched folder and its ledger keep those).
 *
 * Everything is sealed (AES-256-GCM, WebCrypto) under the signed-in person's journal key, which main
 * asks of the server with the desk's own session and holds in memory only: the disk holds ciphertext
 * and key ids, nothing that opens them. Without a live session nothing opens; a key the server has
 * destroyed (sign-out, a season close, a suspension, a PIN reset, 12 hours) leaves what it sealed
 * unreadable for good, and the next open deletes it.
 *
 * Layout under `dir` (0700; files 0600):
 * - `<item>.bin` a file's bytes, then `<item>.json` the id of the key it is sealed under, when it was
 *   kept, and its entry; each sealed (nonce, then ciphertext and tag, with the key id, the item and
 *   the part bound into the tag), written to a temporary file, flushed and renamed: a crash leaves
 *   the old state or the new; an entry without its bytes is a file the person must choose again.
 *   `<item>` is the SHA-256 of the queue item's id;
 * - `notes.json`: per key id, how many of its files another person's sign-in deleted, and when.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fetchJournalKey, holdJournalKey } from '@vita-docs/core';
import type {
  FileLike,
  HeldJournalKey,
  JournalEntry,
  JournalKey,
  JournalKeySource,
  KeptFile,
  OpenedJournal,
  UploadJournal,
  UploadJournals,
} from '@vita-docs/core';
import { z } from 'zod';
import { KeptChoiceSchema } from '../shared/schemas.js';
import { writeFileAtomic } from './fs-atomic.js';

/** What is written beside each file's bytes. */
const StoredSchema = z.object({ keyId: z.string(), savedAt: z.number(), entry: z.string() });
type Stored = z.infer<typeof StoredSchema>;

const EntrySchema = z.object({
  id: z.string(),
  target: z.object({ clientId: z.string(), docType: z.string() }),
  clientName: z.string().optional(),
  name: z.string(),
  type: z.string(),
  size: z.number().int().nonnegative(),
  convert: KeptChoiceSchema.optional(),
});

const NotesSchema = z.record(z.string(), z.object({ count: z.number().int().nonnegative(), at: z.number() }));
type Notes = z.infer<typeof NotesSchema>;

const NOTES_FILE = 'notes.json';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const ITEM = /^([0-9a-f]{64})\.(json|bin)$/;

export interface FileJournalsOptions {
  /** The folder that holds them (created when missing). */
  dir: string;
  now?: () => number;
  /** Files older than this are deleted at open (the session's absolute lifetime). */
  lifetimeMs: number;
  /** The signed-in person's journal key, asked of the server with the desk's own session. */
  journalKey: JournalKeySource;
}

const { subtle } = globalThis.crypto;
const hash = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const label = (keyId: string, item: string, part: 'entry' | 'bytes') =>
  new TextEncoder().encode(`${keyId}/${item}/${part}`);

async function seal(
  key: JournalKey,
  item: string,
  part: 'entry' | 'bytes',
  plain: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array> {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const sealed = await subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: label(key.id, item, part) },
    key.key,
    plain,
  );
  return Buffer.concat([iv, new Uint8Array(sealed)]);
}

async function unseal(
  key: JournalKey,
  item: string,
  part: 'entry' | 'bytes',
  sealed: Uint8Array,
): Promise<ArrayBuffer> {
  const bytes = new Uint8Array(sealed);
  const params = {
    name: 'AES-GCM',
    iv: bytes.subarray(0, NONCE_BYTES),
    additionalData: label(key.id, item, part),
  };
  return subtle.decrypt(params, key.key, bytes.subarray(NONCE_BYTES));
}

/** Writes a kept file's part so that a crash leaves either no file or the whole one, readable by this account only. */
const writeDurably = (path: string, data: Uint8Array | string) => writeFileAtomic(path, data, 0o600);

/** Timers that never keep the process alive on their own. */
const clockOf = (now: () => number) => ({
  now,
  setTimeout: (renew: () => void, ms: number) => setTimeout(renew, ms).unref(),
  clearTimeout: (handle: unknown) => clearTimeout(handle as NodeJS.Timeout),
});

/** The files of `dir`: each item's two parts, and the notes. */
function journalFolder(dir: string) {
  const paths = (item: string) => ({ bin: join(dir, `${item}.bin`), json: join(dir, `${item}.json`) });
  const readJson = async <T>(path: string, schema: z.ZodType<T>): Promise<T | null> => {
    try {
      const parsed = schema.safeParse(JSON.parse(await readFile(path, 'utf8')));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  };
  return {
    paths,
    async drop(item: string) {
      const { bin, json } = paths(item);
      // The entry first: bytes without an entry are never offered, and are cleared at the next open.
      await rm(json, { force: true });
      await rm(bin, { force: true });
    },
    readStored: (item: string): Promise<Stored | null> => readJson(paths(item).json, StoredSchema),
    readNotes: async (): Promise<Notes> => (await readJson(join(dir, NOTES_FILE), NotesSchema)) ?? {},
    writeNotes: (notes: Notes) => writeDurably(join(dir, NOTES_FILE), JSON.stringify(notes)),
    /** The items in `dir`; folders (an earlier version kept each person's files in the clear in one) are deleted. */
    async items(): Promise<string[]> {
      const found = new Set<string>();
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) await rm(join(dir, entry.name), { recursive: true, force: true });
        const item = ITEM.exec(entry.name)?.[1];
        if (item && entry.isFile()) found.add(item);
      }
      return [...found];
    },
    /** Everything but the notes, which outlive a sign-out to tell the files' owners. */
    async clear() {
      for (const name of await readdir(dir).catch(() => [] as string[])) {
        if (name !== NOTES_FILE) await rm(join(dir, name), { recursive: true, force: true });
      }
    },
  };
}
type Folder = ReturnType<typeof journalFolder>;

/** Which kept files are fresh: kept no longer ago than the journal's lifetime. */
interface Freshness {
  now: () => number;
  lifetimeMs: number;
}

const openEntry = async (key: JournalKey, item: string, stored: Stored): Promise<JournalEntry> =>
  EntrySchema.parse(
    JSON.parse(
      new TextDecoder().decode(await unseal(key, item, 'entry', Buffer.from(stored.entry, 'base64'))),
    ),
  );

const sealEntry = async (key: JournalKey, item: string, entry: JournalEntry) =>
  Buffer.from(await seal(key, item, 'entry', new TextEncoder().encode(JSON.stringify(entry)))).toString(
    'base64',
  );

/** Notes the files deleted for their owners' keys (dropping notes past the lifetime); answers and forgets `mine`'s. */
async function tellOthers(
  folder: Folder,
  { now, lifetimeMs }: Freshness,
  others: ReadonlyMap<string, number>,
  mine: string,
) {
  const before = await folder.readNotes();
  const notes = Object.fromEntries(
    Object.entries(before).filter(([, note]) => now() - note.at <= lifetimeMs),
  );
  for (const [other, count] of others)
    notes[other] = { count: (notes[other]?.count ?? 0) + count, at: now() };
  const told = notes[mine]?.count ?? 0;
  delete notes[mine];
  if (JSON.stringify(notes) !== JSON.stringify(before)) await folder.writeNotes(notes);
  return told;
}

/** A kept file whose bytes are read, and opened with the key held then, when the upload needs them. */
const keptFile = (folder: Folder, item: string, entry: JournalEntry, keys: HeldJournalKey): FileLike => ({
  name: entry.name,
  type: entry.type,
  size: entry.size,
  arrayBuffer: async () => unseal(keys.latest(), item, 'bytes', await readFile(folder.paths(item).bin)),
});

/** What `dir` holds under `key`: its files, entries without bytes; anything else is deleted (counted by key). */
async function readKept(
  folder: Folder,
  keys: HeldJournalKey,
  key: JournalKey,
  { now, lifetimeMs }: Freshness,
) {
  const files: KeptFile[] = [];
  const lost: JournalEntry[] = [];
  const others = new Map<string, number>();
  for (const item of await folder.items()) {
    const stored = await folder.readStored(item);
    const fresh = stored !== null && now() - stored.savedAt <= lifetimeMs;
    if (stored && stored.keyId !== key.id) {
      // Sealed under a key this session does not have (someone else's, or one the server destroyed).
      if (fresh) others.set(stored.keyId, (others.get(stored.keyId) ?? 0) + 1);
    }
    const entry =
      stored?.keyId === key.id && fresh ? await openEntry(key, item, stored).catch(() => null) : null;
    if (!stored || !entry) {
      await folder.drop(item);
      continue;
    }
    const size = await stat(folder.paths(item).bin).then(
      (s) => s.size,
      () => -1,
    );
    if (size === entry.size + NONCE_BYTES + TAG_BYTES)
      files.push({ entry, file: keptFile(folder, item, entry, keys), savedAt: stored.savedAt });
    else lost.push(entry);
  }
  files.sort((a, b) => a.savedAt - b.savedAt);
  return { files, lost, others };
}

/**
 * Keeps one file under `key`: its bytes, then its entry (alone when the bytes cannot be kept); the
 * entry only while `current()` (no sign-out or other person's sign-in meanwhile).
 */
async function keep(
  folder: Folder,
  key: JournalKey,
  kept: { entry: JournalEntry; file: FileLike; savedAt: number },
  current: () => boolean,
) {
  const item = hash(kept.entry.id);
  const { bin, json } = folder.paths(item);
  const record = JSON.stringify({
    keyId: key.id,
    savedAt: kept.savedAt,
    entry: await sealEntry(key, item, kept.entry),
  });
  try {
    await writeDurably(bin, await seal(key, item, 'bytes', new Uint8Array(await kept.file.arrayBuffer())));
  } catch (error) {
    // The name is kept even when the bytes are not (a full disk): the person can choose it again.
    await rm(bin, { force: true }).catch(() => undefined);
    await writeDurably(json, record).catch(() => undefined);
    throw error;
  }
  if (!current()) {
    await rm(bin, { force: true });
    return;
  }
  await writeDurably(json, record);
}

/**
 * Moves every file `from` sealed under `to` (the server replaced the key while the desk held both),
 * one at a time while `current()`; a file removed or written again meanwhile is left as it is now.
 */
async function reseal(folder: Folder, from: JournalKey, to: JournalKey, current: () => boolean) {
  for (const item of await folder.items()) {
    const stored = await folder.readStored(item);
    if (!current() || stored?.keyId !== from.id) continue;
    const { bin, json } = folder.paths(item);
    const entry = await openEntry(from, item, stored).catch(() => null);
    const bytes =
      entry &&
      (await readFile(bin)
        .then((data) => unseal(from, item, 'bytes', data))
        .catch(() => null));
    if (!entry) {
      await folder.drop(item);
      continue;
    }
    if (bytes) await writeDurably(bin, await seal(to, item, 'bytes', new Uint8Array(bytes)));
    const sealedEntry = await sealEntry(to, item, entry);
    if ((await folder.readStored(item))?.keyId !== from.id) continue;
    await writeDurably(json, JSON.stringify({ ...stored, keyId: to.id, entry: sealedEntry }));
    if (!bytes) await rm(bin, { force: true });
  }
}

/** The desk's journals in `dir`: one person's at a time. */
export function createFileJournals(options: FileJournalsOptions): UploadJournals {
  const { dir, lifetimeMs, journalKey } = options;
  const now = options.now ?? Date.now;
  const folder = journalFolder(dir);
  /** Bumped by `open` and `destroy`: a journal of an earlier person stops writing. */
  let epoch = 0;
  /** The open journal's key. */
  let held: HeldJournalKey | null = null;

  function journalFor(keys: HeldJournalKey, opened: number): UploadJournal {
    const current = () => opened === epoch;
    return {
      async save(entry, file) {
        if (!current()) return; // signed out or someone else signed in meanwhile: keep nothing
        let key = await keys.current();
        for (;;) {
          await keep(folder, key, { entry, file, savedAt: now() }, current);
          if (!current() || keys.latest().id === key.id) return;
          key = keys.latest(); // renewed while this was written: written again under the new key
        }
      },
      remove: (id) => folder.drop(hash(id)),
    };
  }

  return {
    async open(owner) {
      // Without a live session there is no key, and nothing opens.
      const key = await fetchJournalKey(journalKey, subtle, owner);
      const opened = ++epoch;
      held?.stop();
      const keys = holdJournalKey({
        source: journalKey,
        subtle,
        owner,
        first: key,
        clock: clockOf(now),
        rekey: (from, to) => reseal(folder, from, to, () => opened === epoch),
      });
      held = keys;
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const { files, lost, others } = await readKept(folder, keys, key, { now, lifetimeMs });
      const deletedForOthers = await tellOthers(folder, { now, lifetimeMs }, others, key.id);
      return { journal: journalFor(keys, opened), files, lost, deletedForOthers } satisfies OpenedJournal;
    },
    async destroy() {
      epoch += 1;
      held?.stop();
      held = null;
      await folder.clear();
    },
  };
}
