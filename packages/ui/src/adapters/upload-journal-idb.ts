/**
 * The browser's {@link UploadJournals} (docs/behaviour.md#kept-uploads): queued files kept in
 * IndexedDB, encrypted with AES-GCM under a key WebCrypto made non-extractable (the browser keeps it
 * in the same database, and no script, this one included, can read it out), so the files are not
 * readable as plain files in the browser profile. Each record names its owner only by a hash of their
 * email. The file's entry (name, client, category) and its bytes are separate records, so a file
 * whose bytes did not fit is still known by name and can be chosen again.
 */
import type { DBSchema, IDBPDatabase } from 'idb';
import type { FileLike, JournalEntry, KeptFile, OpenedJournal, UploadJournals } from '@vita-docs/core';
import { UPLOAD_JOURNAL_DB } from './upload-journal';
import type { IndexedDbJournalsOptions } from './upload-journal';

interface Sealed {
  iv: Uint8Array<ArrayBuffer>;
  data: ArrayBuffer;
}

/**
 * A file's sealed bytes, held as a Blob: IndexedDB stores a Blob as a file of its own, several times
 * cheaper than structured-cloning an ArrayBuffer of the same size (Chromium: 2 MB in 3.7 + 3.3 ms
 * against 7.2 ms, 10 MB in 10 against 35 ms). Records kept before held an ArrayBuffer.
 *
 * Sealed in pieces of {@link PIECE_BYTES}, each with its own tag (piece `i` under `iv` with `i` XORed
 * into its last four bytes, and its index and the number of pieces bound into the tag, so pieces
 * cannot be reordered, dropped or added), so no piece needs the whole file's memory at once: one
 * 10 MB encryption takes 120–170 ms in Chromium on the 2-core test machine, the pieces' far less (see
 * `sealPieces`). Records store their `pieceBytes` (those without, kept before, are one piece).
 */
interface SealedBlob {
  iv: Uint8Array<ArrayBuffer>;
  data: Blob | ArrayBuffer;
  pieceBytes?: number;
}

/**
 * Plaintext bytes per sealed piece of a file. Chromium, the 2-core test machine, a 10 MB file sealed
 * and written: 512 KiB pieces 75–85 ms, 256 KiB 105–130 ms (more pieces, more work per byte),
 * 768 KiB 110–135 ms and 960 KiB 185–215 ms (memory the browser maps afresh for each piece).
 */
const PIECE_BYTES = 512 * 1024;
/** Pieces being sealed at once while a file is kept: 3–4 measured best (2: 75–110 ms, 8: 80–130 ms). */
const PIECES_AHEAD = 4;
/** AES-GCM's tag, at the end of each sealed piece. */
const TAG_BYTES = 16;

interface JournalSchema extends DBSchema {
  entries: { key: string; value: { id: string; owner: string; savedAt: number; entry: Sealed } };
  bytes: { key: string; value: { id: string; bytes: SealedBlob } };
  keys: { key: string; value: CryptoKey };
}

const DELETED_KEY = 'vita-docs.deletedUploads.';
const encoder = new TextEncoder();

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

const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** The IndexedDB journals (see `createIndexedDbJournals`, which loads this module on first use). */
export function openIndexedDbJournals(options: IndexedDbJournalsOptions): UploadJournals {
  const { crypto, storage, now, lifetimeMs } = options;
  const name = options.name ?? UPLOAD_JOURNAL_DB;
  let connection: Promise<IDBPDatabase<JournalSchema>> | null = null;

  /** Counts `destroy`s: a journal opened before one refuses to write (a save racing a sign-out). */
  let epoch = 0;
  const database = () =>
    (connection ??= import('idb').then(({ openDB }) =>
      openDB<JournalSchema>(name, 1, {
        upgrade(db) {
          db.createObjectStore('entries', { keyPath: 'id' });
          db.createObjectStore('bytes', { keyPath: 'id' });
          db.createObjectStore('keys');
        },
        // Another tab deletes the database at sign-out: let it, and reopen on the next use.
        blocking() {
          void connection?.then((db) => db.close());
          connection = null;
        },
      }),
    ).catch((error: unknown) => {
      connection = null; // tried again on the next use
      throw error;
    }));

  /** The device's key: made once, never extractable. */
  async function deviceKey(db: IDBPDatabase<JournalSchema>): Promise<CryptoKey> {
    const found = await db.get('keys', 'device');
    if (found) return found;
    const made = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
    // Two tabs may race to make it: the first one written wins, and both use that one.
    const tx = db.transaction('keys', 'readwrite');
    const existing = await tx.store.get('device');
    if (!existing) await tx.store.put(made, 'device');
    await tx.done;
    return existing ?? made;
  }

  /** The record's id and what it holds are bound into the tag: records cannot be swapped. */
  const label = (id: string, part: 'entry' | 'bytes', owner: string) => encoder.encode(`${owner}/${id}/${part}`);

  async function seal(key: CryptoKey, plain: BufferSource, aad: Uint8Array<ArrayBuffer>): Promise<Sealed> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    return { iv, data: await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, key, plain) };
  }
  const unseal = async (key: CryptoKey, sealed: Sealed | SealedBlob, aad: Uint8Array<ArrayBuffer>): Promise<ArrayBuffer> => {
    const data = sealed.data instanceof Blob ? await sealed.data.arrayBuffer() : sealed.data;
    const pieceBytes = 'pieceBytes' in sealed ? sealed.pieceBytes : undefined;
    if (!pieceBytes) return crypto.subtle.decrypt({ name: 'AES-GCM', iv: sealed.iv, additionalData: aad }, key, data);
    const count = Math.max(1, Math.ceil(data.byteLength / (pieceBytes + TAG_BYTES)));
    const plain = new Uint8Array(data.byteLength - count * TAG_BYTES);
    await Promise.all(
      Array.from({ length: count }, async (_, index) => {
        const from = index * (pieceBytes + TAG_BYTES);
        const piece = new Uint8Array(data, from, Math.min(pieceBytes + TAG_BYTES, data.byteLength - from));
        const params = { name: 'AES-GCM', iv: pieceIv(sealed.iv, index), additionalData: pieceAad(aad, index, count) };
        plain.set(new Uint8Array(await crypto.subtle.decrypt(params, key, piece)), index * pieceBytes);
      }),
    );
    return plain.buffer;
  };

  /**
   * A file's bytes sealed in pieces (see {@link SealedBlob}) and collected into the Blob as they are
   * sealed, with at most {@link PIECES_AHEAD} being sealed at once; IndexedDB writes the Blob once it
   * is whole. Sealing every piece first and then building the Blob from all of them took 90–150 ms
   * for a 10 MB file (240–270 ms on a busier run) against 75–85 ms this way (Chromium, the 2-core
   * test machine, where the first use of memory costs ~5 ms per MB: our reading is that the few
   * pieces under way reuse the memory of those before them, where all at once needs it all afresh).
   * `plain` is read until this settles.
   */
  async function sealPieces(key: CryptoKey, plain: ArrayBuffer, aad: Uint8Array<ArrayBuffer>): Promise<SealedBlob> {
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

  const ownerHash = async (owner: string) =>
    hex(await crypto.subtle.digest('SHA-256', encoder.encode(`vita-docs:${owner.trim().toLowerCase()}`)));

  return {
    async open(person) {
      const db = await database();
      const key = await deviceKey(db);
      const owner = await ownerHash(person);
      const files: KeptFile[] = [];
      const lost: JournalEntry[] = [];
      const others = new Map<string, number>();
      const drop: string[] = [];
      for (const record of await db.getAll('entries')) {
        if (record.owner !== owner) {
          // Someone else's: deleted; counted (to tell them) only if it had not expired anyway.
          if (now() - record.savedAt <= lifetimeMs) others.set(record.owner, (others.get(record.owner) ?? 0) + 1);
          drop.push(record.id);
          continue;
        }
        let entry: JournalEntry;
        try {
          // Sealed by this code under this device's key: the tag vouches for the shape.
          entry = JSON.parse(new TextDecoder().decode(await unseal(key, record.entry, label(record.id, 'entry', owner)))) as JournalEntry;
        } catch {
          drop.push(record.id); // unreadable (another key): nothing to show
          continue;
        }
        if (now() - record.savedAt > lifetimeMs) {
          drop.push(record.id);
          continue;
        }
        const stored = await db.get('bytes', record.id);
        try {
          if (!stored) throw new Error('not kept');
          const bytes = await unseal(key, stored.bytes, label(record.id, 'bytes', owner));
          const file = new File([bytes], entry.name, { type: entry.type });
          files.push({ entry, file, savedAt: record.savedAt });
        } catch {
          lost.push(entry);
        }
      }
      if (drop.length) {
        const tx = db.transaction(['entries', 'bytes'], 'readwrite');
        await Promise.all(drop.flatMap((id) => [tx.objectStore('entries').delete(id), tx.objectStore('bytes').delete(id)]));
        await tx.done;
      }
      // The notes to tell people last no longer than the files did.
      const note = (hash: string): number => {
        const [count = 0, at = 0] = (storage.getItem(DELETED_KEY + hash) ?? '').split('@').map(Number);
        return now() - at <= lifetimeMs ? count : 0;
      };
      for (const [other, count] of others) storage.setItem(DELETED_KEY + other, `${note(other) + count}@${now()}`);
      const deletedForOthers = note(owner);
      storage.removeItem(DELETED_KEY + owner);
      files.sort((a, b) => a.savedAt - b.savedAt);

      const mine = epoch;
      const writable = async () => {
        const db = mine === epoch ? await database() : null;
        if (!db || mine !== epoch) throw new Error('This device no longer keeps files for this sign-in.');
        return db;
      };
      const journal = {
        async save(entry: JournalEntry, file: FileLike, read?: ArrayBuffer) {
          const sealedEntry = await seal(key, encoder.encode(JSON.stringify(entry)), label(entry.id, 'entry', owner));
          const record = { id: entry.id, owner, savedAt: now(), entry: sealedEntry };
          try {
            const sealedBytes = await sealPieces(key, read ?? (await file.arrayBuffer()), label(entry.id, 'bytes', owner));
            const tx = (await writable()).transaction(['entries', 'bytes'], 'readwrite');
            await Promise.all([tx.objectStore('entries').put(record), tx.objectStore('bytes').put({ id: entry.id, bytes: sealedBytes })]);
            await tx.done;
          } catch (error) {
            // The bytes did not fit (or could not be read): keep the entry alone, so the file is
            // named after a reload and can be chosen again.
            const tx = (await writable()).transaction(['entries', 'bytes'], 'readwrite');
            await Promise.all([tx.objectStore('entries').put(record), tx.objectStore('bytes').delete(entry.id)]);
            await tx.done;
            throw error;
          }
        },
        async remove(id: string) {
          if (mine !== epoch) return; // everything is gone already
          const tx = (await database()).transaction(['entries', 'bytes'], 'readwrite');
          await Promise.all([tx.objectStore('entries').delete(id), tx.objectStore('bytes').delete(id)]);
          await tx.done;
        },
      };
      return { journal, files, lost, deletedForOthers } satisfies OpenedJournal;
    },

    async destroy() {
      epoch += 1;
      const open = connection;
      connection = null;
      if (open) (await open.catch(() => null))?.close();
      // Another tab holding it open closes it on `versionchange` (`blocking` above); then this completes.
      const { deleteDB } = await import('idb');
      await deleteDB(name);
    },
  };
}
