/**
 * The browser's {@link UploadJournals} (docs/behaviour.md#kept-uploads): queued files kept in
 * IndexedDB, sealed with AES-GCM under the signed-in person's journal key. The server hands that key
 * only to their live session, and this page holds it in memory only (a non-extractable CryptoKey,
 * never written anywhere), so the browser profile holds ciphertext and key ids and nothing that opens
 * them. The key's id, the record's id and its part are bound into every tag. Without a live session
 * nothing opens; once the server has destroyed a key (sign-out, a season close, a suspension, a PIN
 * reset, 12 hours) nothing sealed under it ever opens again, and the next open deletes it.
 *
 * A file's entry (name, client, category) and its bytes are separate records, so a file whose bytes
 * did not fit is still known by name and can be chosen again.
 */
import type { DBSchema, IDBPDatabase } from 'idb';
import { fetchJournalKey, holdJournalKey, isApiError, openingKey, sealingKey } from '@vita-docs/core';
import type {
  FileLike,
  HeldJournalKey,
  JournalEntry,
  JournalKey,
  KeptFile,
  KeyValueStorage,
  OpenedJournal,
  UploadJournal,
  UploadJournals,
} from '@vita-docs/core';
import { UPLOAD_JOURNAL_DB } from './upload-journal';
import type { IndexedDbJournalsOptions } from './upload-journal';

interface Sealed {
  iv: Uint8Array<ArrayBuffer>;
  data: ArrayBuffer;
}

/**
 * A file's sealed bytes, held as a Blob: IndexedDB stores a Blob as a file of its own, several times
 * cheaper than structured-cloning an ArrayBuffer of the same size (docs/architecture.md, "Kept
 * uploads", has the figures).
 *
 * Sealed in pieces of `pieceBytes`, each with its own tag (piece `i` under `iv` with `i` XORed into
 * its last four bytes, and its index and the number of pieces bound into the tag, so pieces cannot be
 * reordered, dropped or added), so no piece needs the whole file's memory at once and one large
 * encryption never holds the page's thread.
 */
interface SealedBlob {
  iv: Uint8Array<ArrayBuffer>;
  data: Blob;
  pieceBytes: number;
}

/**
 * Plaintext bytes per sealed piece of a file: smaller pieces cost more work per byte, larger ones
 * memory the browser maps afresh for each piece (measured: docs/architecture.md, "Kept uploads").
 */
const PIECE_BYTES = 512 * 1024;
/** Pieces being sealed at once while a file is kept: the best of the counts measured (same section). */
const PIECES_AHEAD = 4;
/** AES-GCM's tag, at the end of each sealed piece. */
const TAG_BYTES = 16;

/**
 * Version 2 seals under the server's key. Version 1 kept a key of its own in the database, beside
 * the files: upgrading deletes it and everything it sealed.
 */
const DB_VERSION = 2;

interface EntryRecord {
  id: string;
  /** The journal key it is sealed under. */
  keyId: string;
  /**
   * Sealed with no connection, to the public half of that key's pair: the one-off public key its
   * sealing key was agreed with (see `sealingKey`), which with the private half opens it.
   */
  ephemeral?: Uint8Array<ArrayBuffer>;
  savedAt: number;
  entry: Sealed;
}

/** What a record is sealed under: the journal key's id, and the AES key itself. */
interface SealUnder {
  id: string;
  key: CryptoKey;
  /** Set when the AES key was agreed with the public half ({@link EntryRecord.ephemeral}). */
  ephemeral?: Uint8Array<ArrayBuffer>;
}

/**
 * The public half of the last journal key a live session handed this device, and whose it is: with
 * no connection (a reload on a dead wi-fi), files added are sealed to it until the key's end. It opens
 * nothing: the private half comes only with a live session.
 */
interface SealRecord {
  owner: string;
  keyId: string;
  sealKey: string;
  expiresAt: number;
}

/** Per database: the staff app's and the client page's journals each keep their own. */
const SEAL_KEY = 'vita-docs.journalSeal.';
const sameOwner = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function readSealRecord(
  storage: KeyValueStorage,
  db: string,
  owner: string,
  { now, lifetimeMs }: { now: number; lifetimeMs: number },
): SealRecord | null {
  try {
    const record = JSON.parse(storage.getItem(SEAL_KEY + db) ?? 'null') as SealRecord | null;
    // A key lives 12 hours: an end further off was not written by this page.
    const plausible = record && now < record.expiresAt && record.expiresAt - now <= lifetimeMs;
    return plausible && sameOwner(record.owner, owner) ? record : null;
  } catch {
    return null;
  }
}

const writeSealRecord = (storage: KeyValueStorage, db: string, owner: string, key: JournalKey) =>
  storage.setItem(
    SEAL_KEY + db,
    JSON.stringify({
      owner,
      keyId: key.id,
      sealKey: key.sealKey,
      expiresAt: key.expiresAt,
    } satisfies SealRecord),
  );

interface JournalSchema extends DBSchema {
  entries: { key: string; value: EntryRecord };
  bytes: { key: string; value: { id: string; bytes: SealedBlob } };
}

const DELETED_KEY = 'vita-docs.deletedUploads.';
const encoder = new TextEncoder();

/** What each tag binds: the key's id, the record's id and which part it is, so records cannot be swapped. */
const label = (keyId: string, id: string, part: 'entry' | 'bytes') =>
  encoder.encode(`${keyId}/${id}/${part}`);

/** Piece `index`'s nonce: the record's, with the index XORed into its last four bytes. */
function pieceIv(iv: Uint8Array<ArrayBuffer>, index: number): Uint8Array<ArrayBuffer> {
  const nonce = new Uint8Array(iv);
  const view = new DataView(nonce.buffer);
  view.setUint32(8, view.getUint32(8) ^ index);
  return nonce;
}

/** Piece `index` of `count`'s additional data: the record's label, then the index and the count. */
function pieceAad(aad: Uint8Array<ArrayBuffer>, index: number, count: number): Uint8Array<ArrayBuffer> {
  const bound = new Uint8Array(aad.length + 8);
  bound.set(aad);
  const view = new DataView(bound.buffer);
  view.setUint32(aad.length, index);
  view.setUint32(aad.length + 4, count);
  return bound;
}

async function seal(
  crypto: Crypto,
  key: CryptoKey,
  plain: BufferSource,
  aad: Uint8Array<ArrayBuffer>,
): Promise<Sealed> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  return { iv, data: await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, key, plain) };
}

async function unsealEntry(
  crypto: Crypto,
  key: CryptoKey,
  sealed: Sealed,
  aad: Uint8Array<ArrayBuffer>,
): Promise<ArrayBuffer> {
  return crypto.subtle.decrypt({ name: 'AES-GCM', iv: sealed.iv, additionalData: aad }, key, sealed.data);
}

async function unsealPieces(
  crypto: Crypto,
  key: CryptoKey,
  sealed: SealedBlob,
  aad: Uint8Array<ArrayBuffer>,
): Promise<ArrayBuffer> {
  const data = await sealed.data.arrayBuffer();
  const { pieceBytes } = sealed;
  const count = Math.max(1, Math.ceil(data.byteLength / (pieceBytes + TAG_BYTES)));
  const plain = new Uint8Array(data.byteLength - count * TAG_BYTES);
  await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const from = index * (pieceBytes + TAG_BYTES);
      const piece = new Uint8Array(data, from, Math.min(pieceBytes + TAG_BYTES, data.byteLength - from));
      const params = {
        name: 'AES-GCM',
        iv: pieceIv(sealed.iv, index),
        additionalData: pieceAad(aad, index, count),
      };
      plain.set(new Uint8Array(await crypto.subtle.decrypt(params, key, piece)), index * pieceBytes);
    }),
  );
  return plain.buffer;
}

/**
 * A file's bytes sealed in pieces (see {@link SealedBlob}) and collected into the Blob as they are
 * sealed, with at most {@link PIECES_AHEAD} being sealed at once; IndexedDB writes the Blob once it
 * is whole. Faster than sealing every piece first and building the Blob from all of them: the few
 * pieces under way reuse the memory of those before them, where all at once needs it all afresh.
 * `plain` is read until this settles.
 */
async function sealPieces(
  crypto: Crypto,
  key: CryptoKey,
  plain: ArrayBuffer,
  aad: Uint8Array<ArrayBuffer>,
): Promise<SealedBlob> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const count = Math.max(1, Math.ceil(plain.byteLength / PIECE_BYTES));
  const sealing: Promise<ArrayBuffer>[] = [];
  let next = 0;
  /** Why pieces could not be sealed: the save rejects with the first (Chromium's `blob()` says only "Failed to fetch"). */
  const failures: unknown[] = [];
  const startMore = () => {
    for (; sealing.length < PIECES_AHEAD && next < count; next++) {
      const from = next * PIECE_BYTES;
      const piece = new Uint8Array(plain, from, Math.min(PIECE_BYTES, plain.byteLength - from));
      const params = { name: 'AES-GCM', iv: pieceIv(iv, next), additionalData: pieceAad(aad, next, count) };
      const sealed = crypto.subtle.encrypt(params, key, piece);
      sealed.catch((error: unknown) => void failures.push(error)); // handled here too: after a failure the later ones are never awaited
      sealing.push(sealed);
    }
  };
  const pieces = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        startMore();
        const sealed = sealing.shift();
        if (!sealed) return controller.close();
        controller.enqueue(new Uint8Array(await sealed));
        startMore();
      },
    },
    { highWaterMark: 0 },
  );
  try {
    return { iv, data: await new Response(pieces).blob(), pieceBytes: PIECE_BYTES };
  } catch (error) {
    throw failures.length ? failures[0] : error;
  }
}

type Database = IDBPDatabase<JournalSchema>;

/** The database, opened on first use and again after another tab deleted it (sign-out there). */
function lazyDatabase(name: string) {
  let connection: Promise<Database> | null = null;
  const open = () =>
    import('idb')
      .then(({ openDB }) =>
        openDB<JournalSchema>(name, DB_VERSION, {
          upgrade(db, oldVersion) {
            if (oldVersion >= 2) return;
            for (const store of Array.from(db.objectStoreNames)) db.deleteObjectStore(store);
            db.createObjectStore('entries', { keyPath: 'id' });
            db.createObjectStore('bytes', { keyPath: 'id' });
          },
          // Another tab deletes the database at sign-out: let it, and reopen on the next use.
          blocking() {
            void connection?.then((db) => db.close());
            connection = null;
          },
        }),
      )
      .catch((error: unknown) => {
        connection = null; // tried again on the next use
        throw error;
      });
  return {
    get: (): Promise<Database> => (connection ??= open()),
    async close(): Promise<void> {
      const opened = connection;
      connection = null;
      if (opened) (await opened.catch(() => null))?.close();
    },
  };
}

/** The key `record` is sealed under, given the journal key it names: the key itself, or the one agreed with its public half. */
async function recordKey(crypto: Crypto, key: JournalKey, record: EntryRecord): Promise<SealUnder> {
  return record.ephemeral
    ? { id: key.id, key: await openingKey(crypto.subtle, key, record.ephemeral) }
    : { id: key.id, key: key.key };
}

const openEntry = async (crypto: Crypto, key: SealUnder, record: EntryRecord): Promise<JournalEntry> =>
  // Sealed by this code under this key: the tag vouches for the shape.
  JSON.parse(
    new TextDecoder().decode(
      await unsealEntry(crypto, key.key, record.entry, label(key.id, record.id, 'entry')),
    ),
  ) as JournalEntry;

async function openBytes(
  crypto: Crypto,
  db: Database,
  key: SealUnder,
  id: string,
): Promise<ArrayBuffer | null> {
  const stored = await db.get('bytes', id);
  return stored
    ? unsealPieces(crypto, key.key, stored.bytes, label(key.id, id, 'bytes')).catch(() => null)
    : null;
}

const sealEntry = (crypto: Crypto, key: SealUnder, entry: JournalEntry) =>
  seal(crypto, key.key, encoder.encode(JSON.stringify(entry)), label(key.id, entry.id, 'entry'));

const withoutClientName = ({ clientName: _untrusted, ...entry }: JournalEntry): JournalEntry => entry;

/** Which of the journal's records are fresh: saved no longer ago than the journal's lifetime. */
interface Freshness {
  now: () => number;
  lifetimeMs: number;
}

/** What the journal holds under `key`: its files, entries without bytes, and the records to delete (counted by key). */
async function readKept(crypto: Crypto, db: Database, key: JournalKey, { now, lifetimeMs }: Freshness) {
  const files: KeptFile[] = [];
  const lost: JournalEntry[] = [];
  const drop: string[] = [];
  const others = new Map<string, number>();
  for (const record of await db.getAll('entries')) {
    const fresh = now() - record.savedAt <= lifetimeMs;
    if (record.keyId !== key.id) {
      // Sealed under a key this session does not have (someone else's, or one the server destroyed):
      // it can never be read here. Counted, to tell its owner, only if it had not expired anyway.
      if (fresh) others.set(record.keyId, (others.get(record.keyId) ?? 0) + 1);
      drop.push(record.id);
      continue;
    }
    const under = fresh ? await recordKey(crypto, key, record).catch(() => null) : null;
    const opened = under ? await openEntry(crypto, under, record).catch(() => null) : null;
    // Sealing to the public half proves nothing of who sealed: a client's name from such a record is
    // not shown (the queue learns it from the client's own screen).
    const entry = opened && record.ephemeral ? withoutClientName(opened) : opened;
    if (!under || !entry) {
      drop.push(record.id);
      continue;
    }
    const bytes = await openBytes(crypto, db, under, record.id);
    if (bytes)
      files.push({
        entry,
        file: new File([bytes], entry.name, { type: entry.type }),
        savedAt: record.savedAt,
      });
    else lost.push(entry);
  }
  files.sort((a, b) => a.savedAt - b.savedAt);
  return { files, lost, drop, others };
}

async function deleteRecords(db: Database, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  const tx = db.transaction(['entries', 'bytes'], 'readwrite');
  await Promise.all(
    ids.flatMap((id) => [tx.objectStore('entries').delete(id), tx.objectStore('bytes').delete(id)]),
  );
  await tx.done;
}

/**
 * Notes, per journal key, how many of its files another person's sign-in deleted, so the owner is
 * told at their next open; the notes last no longer than the files did.
 */
function deletedNotes(storage: KeyValueStorage, { now, lifetimeMs }: Freshness) {
  const note = (keyId: string): number => {
    const [count = 0, at = 0] = (storage.getItem(DELETED_KEY + keyId) ?? '').split('@').map(Number);
    return now() - at <= lifetimeMs ? count : 0;
  };
  /** Notes the files deleted for their owners' keys; answers (and forgets) the note for `mine`. */
  return (others: ReadonlyMap<string, number>, mine: string): number => {
    for (const [other, count] of others)
      storage.setItem(DELETED_KEY + other, `${note(other) + count}@${now()}`);
    const told = note(mine);
    storage.removeItem(DELETED_KEY + mine);
    return told;
  };
}

/**
 * Moves every record `from` sealed under `to` (the server replaced the key while this page held
 * both), one file at a time, while `current()` (the journal was not closed meanwhile); a record
 * removed or written again meanwhile is left as it is now.
 */
async function reseal(
  crypto: Crypto,
  db: Database,
  from: JournalKey,
  to: JournalKey,
  current: () => boolean,
) {
  for (const record of await db.getAll('entries')) {
    if (record.keyId !== from.id || !current()) continue;
    const under = await recordKey(crypto, from, record).catch(() => null);
    const entry = under && (await openEntry(crypto, under, record).catch(() => null));
    const bytes = under && entry && (await openBytes(crypto, db, under, record.id));
    const moved = entry && {
      id: record.id,
      keyId: to.id,
      savedAt: record.savedAt,
      entry: await sealEntry(crypto, to, entry),
    };
    const movedBytes = bytes && (await sealPieces(crypto, to.key, bytes, label(to.id, record.id, 'bytes')));
    const tx = db.transaction(['entries', 'bytes'], 'readwrite');
    const still = await tx.objectStore('entries').get(record.id);
    if (still?.keyId === from.id) {
      await (moved ? tx.objectStore('entries').put(moved) : tx.objectStore('entries').delete(record.id));
      await (movedBytes
        ? tx.objectStore('bytes').put({ id: record.id, bytes: movedBytes })
        : tx.objectStore('bytes').delete(record.id));
    }
    await tx.done;
  }
}

/** One file to keep: its entry, the file, and the bytes the upload flow already read, if it did. */
interface Keeping {
  entry: JournalEntry;
  file: FileLike;
  read: ArrayBuffer | undefined;
  savedAt: number;
}

/** Keeps one file under `key`: entry and bytes together, or the entry alone when the bytes cannot be kept. */
async function keep(crypto: Crypto, key: SealUnder, kept: Keeping, writable: () => Promise<Database>) {
  const { entry, file, read, savedAt } = kept;
  const record: EntryRecord = {
    id: entry.id,
    keyId: key.id,
    ...(key.ephemeral ? { ephemeral: key.ephemeral } : {}),
    savedAt,
    entry: await sealEntry(crypto, key, entry),
  };
  try {
    const bytes = read ?? (await file.arrayBuffer());
    const sealedBytes = await sealPieces(crypto, key.key, bytes, label(key.id, entry.id, 'bytes'));
    const tx = (await writable()).transaction(['entries', 'bytes'], 'readwrite');
    await Promise.all([
      tx.objectStore('entries').put(record),
      tx.objectStore('bytes').put({ id: entry.id, bytes: sealedBytes }),
    ]);
    await tx.done;
  } catch (error) {
    // The bytes did not fit (or could not be read): keep the entry alone, so the file is named
    // after a reload and can be chosen again.
    const tx = (await writable()).transaction(['entries', 'bytes'], 'readwrite');
    await Promise.all([tx.objectStore('entries').put(record), tx.objectStore('bytes').delete(entry.id)]);
    await tx.done;
    throw error;
  }
}

/** How many of the seal record's person's files the device keeps, within their lifetime (0 when unreadable). */
async function countSealed(
  database: ReturnType<typeof lazyDatabase>,
  seal: SealRecord,
  now: number,
  lifetimeMs: number,
): Promise<number> {
  try {
    const records = await (await database.get()).getAll('entries');
    return records.filter((r) => r.keyId === seal.keyId && now - r.savedAt <= lifetimeMs).length;
  } catch {
    return 0;
  }
}

/** The journal of {@link SealRecord}: it seals to the public half, with one agreed key for all it keeps. */
function sealOnlyJournal(
  crypto: Crypto,
  seal: SealRecord,
  now: () => number,
  writable: () => Promise<Database>,
  remove: (id: string) => Promise<void>,
): UploadJournal {
  let agreed: Promise<SealUnder> | null = null;
  const under = () =>
    (agreed ??= sealingKey(crypto.subtle, seal.sealKey).then(
      ({ key, ephemeral }) => ({ id: seal.keyId, key, ephemeral }),
      (error: unknown) => {
        agreed = null;
        throw error;
      },
    ));
  return {
    async save(entry, file, read) {
      // Past the key's end the server has destroyed it: nothing sealed to it could ever be opened.
      if (now() >= seal.expiresAt) throw new Error('This device no longer keeps files for this sign-in.');
      await keep(crypto, await under(), { entry, file, read, savedAt: now() }, writable);
    },
    remove,
  };
}

/** The page's own timers, on which a held journal key is renewed when it expires. */
const clockOf = (now: () => number) => ({
  now,
  setTimeout: (renew: () => void, ms: number) => setTimeout(renew, ms),
  clearTimeout: (handle: unknown) => clearTimeout(handle as number),
});

/** The IndexedDB journals (see `createIndexedDbJournals`, which loads this module on first use). */
export function openIndexedDbJournals(options: IndexedDbJournalsOptions): UploadJournals {
  const { crypto, storage, now, lifetimeMs, journalKey } = options;
  const name = options.name ?? UPLOAD_JOURNAL_DB;
  const database = lazyDatabase(name);
  const tellOthers = deletedNotes(storage, { now, lifetimeMs });
  /** Counts opens and `destroy`s: a journal opened before one refuses to write (a save racing a sign-out). */
  let epoch = 0;
  /** The open journal's key (one person's journal is open at a time). */
  let held: HeldJournalKey | null = null;

  /** The database for a journal opened at `mine`: refused once another open or a `destroy` came after it. */
  const writableFor = (mine: number) => async () => {
    const db = mine === epoch ? await database.get() : null;
    if (!db || mine !== epoch) throw new Error('This device no longer keeps files for this sign-in.');
    return db;
  };
  const removeFor = async (mine: number, id: string) => {
    if (mine !== epoch) return; // everything is gone already
    await deleteRecords(await database.get(), [id]);
  };

  function journalFor(keys: HeldJournalKey, mine: number): UploadJournal {
    return {
      async save(entry, file, read) {
        let key = await keys.current();
        for (;;) {
          await keep(crypto, key, { entry, file, read, savedAt: now() }, writableFor(mine));
          if (keys.latest().id === key.id) return;
          key = keys.latest(); // renewed while this was written: written again under the new key
        }
      },
      remove: (id) => removeFor(mine, id),
    };
  }

  /**
   * With no connection (the key could not be asked for): a journal that seals to the public half the
   * device kept of `person`'s live key, if it has one; nothing kept before opens until a live session
   * is back, but the person's files are counted (by the key they are sealed under, which is kept in the
   * clear) so the page can say how many wait. Any other failure (no session, someone else's) stands.
   */
  async function openSealOnly(person: string, failure: unknown): Promise<OpenedJournal> {
    const seal =
      isApiError(failure) && failure.kind === 'network'
        ? readSealRecord(storage, name, person, { now: now(), lifetimeMs })
        : null;
    if (!seal) throw failure;
    const mine = ++epoch;
    held?.stop();
    held = null;
    const journal = sealOnlyJournal(crypto, seal, now, writableFor(mine), (id) => removeFor(mine, id));
    const sealedCount = await countSealed(database, seal, now(), lifetimeMs);
    return { journal, files: [], lost: [], deletedForOthers: 0, sealOnly: true, sealedCount };
  }

  return {
    async open(person) {
      // Without a live session there is no key, and nothing opens (but with no connection, see above).
      let key: JournalKey;
      try {
        key = await fetchJournalKey(journalKey, crypto.subtle, person);
      } catch (failure) {
        return openSealOnly(person, failure);
      }
      writeSealRecord(storage, name, person, key);
      const db = await database.get();
      const mine = ++epoch;
      held?.stop();
      held = holdJournalKey({
        source: journalKey,
        subtle: crypto.subtle,
        owner: person,
        first: key,
        clock: clockOf(now),
        rekey: async (from, to) => {
          writeSealRecord(storage, name, person, to);
          await reseal(crypto, await database.get(), from, to, () => mine === epoch);
        },
      });
      const { files, lost, drop, others } = await readKept(crypto, db, key, { now, lifetimeMs });
      await deleteRecords(db, drop);
      return { journal: journalFor(held, mine), files, lost, deletedForOthers: tellOthers(others, key.id) };
    },

    async destroy() {
      epoch += 1;
      held?.stop();
      held = null;
      storage.removeItem(SEAL_KEY + name);
      await database.close();
      // Another tab holding it open closes it on `versionchange` (`blocking` above); then this completes.
      const { deleteDB } = await import('idb');
      await deleteDB(name);
    },
  };
}
