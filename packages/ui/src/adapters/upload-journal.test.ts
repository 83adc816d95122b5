// The IndexedDB journal against fake-indexeddb (the IndexedDB API in Node), Node's WebCrypto and a
// stand-in for the server's journal keys: what it writes is sealed under the signed-in person's key
// from the server and nothing stored opens it; without a live session nothing opens; a key the server
// destroyed leaves nothing readable and the next open deletes it; a key replaced while the page is
// open moves what it sealed; another person's sign-in deletes (and later tells), the lifetime ends,
// bytes that could not be kept leave the name, destroy deletes all.
import 'fake-indexeddb/auto';
import { ApiError, NOT_THE_OWNER } from '@vita-docs/core';
import { createFakeJournalKeys, createMemoryStorage, createTestFile } from '@vita-docs/core/testing';
import type { JournalEntry, JournalKeySource, UploadJournals } from '@vita-docs/core';
import { openDB, type IDBPDatabase } from 'idb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createIndexedDbJournals, UPLOAD_JOURNAL_DB } from './upload-journal';

const HOUR = 3_600_000;
let now = 1_000_000;
let storage = createMemoryStorage();
let server = createFakeJournalKeys({ now: () => now });
/** Every journals object a test made: each holds its open journal's key (and renews it) until destroyed. */
let made: UploadJournals[] = [];
const journals = (crypto: Crypto = globalThis.crypto, journalKey: JournalKeySource = server.source) => {
  const j = createIndexedDbJournals({
    crypto,
    journalKey,
    storage,
    now: () => now,
    lifetimeMs: 12 * HOUR,
  });
  made.push(j);
  return j;
};
/** Signs `person` in with the server and opens their journal, as the app does after a sign-in. */
const open = (person: string, j = journals()) => {
  server.signIn(person.trim().toLowerCase());
  return j.open(person);
};

/** A key source as a page with no connection has it. */
const noConnection = async () => Promise.reject(new ApiError('network', 0, 'Failed to fetch'));

const entry = (id: string, name: string): JournalEntry => ({
  id,
  target: { clientId: 'c1', docType: 'Banking Info' },
  clientName: 'Dora Client',
  name,
  type: 'application/pdf',
  size: 18,
});
const pdf = (name: string) => createTestFile(name, `%PDF-1.7 SSN 123-45-6789 ${name}`, 'application/pdf');
const randomBytes = (length: number) => {
  const bytes = new Uint8Array(length);
  for (let at = 0; at < length; at += 65_536) crypto.getRandomValues(bytes.subarray(at, at + 65_536));
  return bytes;
};
/** Byte-for-byte equality, fast on megabytes (vitest's deep equality walks them element by element). */
const sameBytes = (a: ArrayBuffer | Uint8Array, b: ArrayBuffer | Uint8Array) =>
  Buffer.from(a instanceof Uint8Array ? a : new Uint8Array(a)).equals(
    Buffer.from(b instanceof Uint8Array ? b : new Uint8Array(b)),
  );
const text = async (file: { arrayBuffer(): Promise<ArrayBuffer> }) =>
  new TextDecoder().decode(await file.arrayBuffer());
/** The server's raw key for `email`, as a WebCrypto key a test may use. */
const serverKey = (email: string) =>
  crypto.subtle.importKey('raw', Buffer.from(server.keyOf(email).key, 'base64'), 'AES-GCM', false, [
    'encrypt',
    'decrypt',
  ]);

/** Runs `read` on the journal's database as anyone could open it, and closes it whatever happens (an open one blocks its deletion). */
async function withDb<T>(read: (db: IDBPDatabase) => Promise<T>): Promise<T> {
  const db = await openDB(UPLOAD_JOURNAL_DB);
  try {
    return await read(db);
  } finally {
    db.close();
  }
}

/** The key ids of every entry record. */
async function rawKeyIds(): Promise<string[]> {
  const db = await openDB(UPLOAD_JOURNAL_DB);
  const ids = ((await db.getAll('entries')) as { keyId: string }[]).map((r) => r.keyId);
  db.close();
  return ids;
}

/** Every value of every store, as raw bytes of text, as anyone reading the browser profile would find them. */
async function rawRecords(): Promise<string> {
  const db = await openDB(UPLOAD_JOURNAL_DB);
  const found: unknown[] = [];
  for (const store of Array.from(db.objectStoreNames)) found.push(...(await db.getAll(store)));
  db.close();
  const decode = async (value: unknown): Promise<string> => {
    if (value instanceof Blob) return Buffer.from(await value.arrayBuffer()).toString('latin1');
    if (value instanceof ArrayBuffer) return Buffer.from(value).toString('latin1');
    if (ArrayBuffer.isView(value))
      return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('latin1');
    if (value && typeof value === 'object')
      return (await Promise.all(Object.values(value).map(decode))).join('|');
    return String(value);
  };
  return (await Promise.all(found.map(decode))).join('\n');
}

beforeEach(() => {
  server = createFakeJournalKeys({ now: () => now });
});
afterEach(async () => {
  for (const j of [...made, journals()]) await j.destroy();
  made = [];
  now = 1_000_000;
  storage = createMemoryStorage();
});

describe('IndexedDB upload journal', () => {
  it('gives a person back their files, byte for byte, oldest first, and forgets removed ones', async () => {
    const { journal } = await open('vera@example.org');
    await journal.save(entry('a', 'a.pdf'), pdf('a.pdf'));
    now += 1;
    await journal.save(entry('b', 'b.pdf'), pdf('b.pdf'));
    now += 1;
    await journal.save(entry('c', 'c.pdf'), pdf('c.pdf'));
    await journal.remove('b');

    const opened = await open('Vera@Example.org ');
    expect(opened.files.map((f) => f.entry)).toEqual([entry('a', 'a.pdf'), entry('c', 'c.pdf')]);
    expect(await text(opened.files[0]!.file)).toBe('%PDF-1.7 SSN 123-45-6789 a.pdf');
    expect(opened.files[1]!.file).toMatchObject({ name: 'c.pdf', type: 'application/pdf' });
    expect(opened.lost).toEqual([]);
  });

  it('with no connection, counts the person’s kept files and seals new ones to the public half it kept; only the next live session opens them', async () => {
    const first = await open('vera@example.org');
    await first.journal.save(entry('a', 'a.pdf'), pdf('a.pdf'));
    // The page is reloaded on a dead wi-fi: the key cannot be asked for.
    const dead = journals(undefined, noConnection);
    const sealOnly = await dead.open('Vera@example.org');
    expect(sealOnly).toMatchObject({
      files: [],
      lost: [],
      deletedForOthers: 0,
      sealOnly: true,
      sealedCount: 1,
    });
    await sealOnly.journal.save(entry('b', 'b.pdf'), pdf('b.pdf'));
    const raw = await rawRecords();
    for (const secret of ['%PDF', 'b.pdf', 'Dora Client']) expect(raw).not.toContain(secret);
    // Nobody else, and no other failure than a lost connection, gets a journal.
    await expect(dead.open('wes@example.org')).rejects.toThrow('Failed to fetch');
    const refused = journals(undefined, async () =>
      Promise.reject(new ApiError('http', 401, 'Please sign in.')),
    );
    await expect(refused.open('vera@example.org')).rejects.toThrow('Please sign in.');

    // The live session is back: both files open, byte for byte.
    server.signIn('vera@example.org');
    const back = await journals().open('vera@example.org');
    expect(back.files.map((f) => f.entry.name)).toEqual(['a.pdf', 'b.pdf']);
    expect(await text(back.files[1]!.file)).toBe('%PDF-1.7 SSN 123-45-6789 b.pdf');

    // Past the key's end nothing is sealed to it, by a journal opened before it either: the server
    // has destroyed it.
    const stillOpen = await dead.open('vera@example.org');
    now += 12 * HOUR;
    await expect(stillOpen.journal.save(entry('c', 'c.pdf'), pdf('c.pdf'))).rejects.toThrow();
    await expect(dead.open('vera@example.org')).rejects.toThrow('Failed to fetch');
  });

  it('with no connection, takes no public half whose end is further off than a key lives', async () => {
    await open('vera@example.org');
    const key = `vita-docs.journalSeal.${UPLOAD_JOURNAL_DB}`;
    const record = JSON.parse(storage.getItem(key) ?? '{}') as { expiresAt: number };
    storage.setItem(key, JSON.stringify({ ...record, expiresAt: now + 13 * HOUR }));
    const dead = journals(undefined, noConnection);
    await expect(dead.open('vera@example.org')).rejects.toThrow('Failed to fetch');
    storage.setItem(key, JSON.stringify(record));
    await expect(dead.open('vera@example.org')).resolves.toMatchObject({ sealOnly: true });
  });

  it('keeps nothing readable and no key: no bytes, names, clients or emails in the clear, and nothing stored opens a record', async () => {
    const { journal } = await open('vera@example.org');
    await journal.save(entry('a', 'dora-ssn-card.pdf'), pdf('dora-ssn-card.pdf'));
    const raw = await rawRecords();
    for (const secret of [
      '%PDF',
      '123-45-6789',
      'dora-ssn-card',
      'Dora Client',
      'Banking',
      'vera@example.org',
    ]) {
      expect(raw).not.toContain(secret);
    }
    // The key the server handed out is in no store and in no form, nor in the page's storage.
    const { key, keyId } = server.keyOf('vera@example.org');
    const rawKey = Buffer.from(key, 'base64');
    for (const form of [rawKey.toString('latin1'), key, rawKey.toString('hex')])
      expect(raw).not.toContain(form);
    expect(JSON.stringify([...storage.entries])).not.toContain(key);
    const [stores, record] = await withDb(
      async (db) =>
        [
          Array.from(db.objectStoreNames).sort(),
          (await db.get('entries', 'a')) as { keyId: string; entry: { iv: Uint8Array; data: ArrayBuffer } },
        ] as const,
    );
    expect(stores).toEqual(['bytes', 'entries']);
    // Each record names its key and holds ciphertext, which the server's key (and only it) opens.
    expect(Object.keys(record).sort()).toEqual(['entry', 'id', 'keyId', 'savedAt']);
    expect(record.keyId).toBe(keyId);
    const params = {
      name: 'AES-GCM',
      iv: record.entry.iv as Uint8Array<ArrayBuffer>,
      additionalData: new TextEncoder().encode(`${keyId}/a/entry`),
    };
    expect(
      JSON.parse(
        new TextDecoder().decode(
          await crypto.subtle.decrypt(params, await serverKey('vera@example.org'), record.entry.data),
        ),
      ),
    ).toEqual(entry('a', 'dora-ssn-card.pdf'));
  });

  it('opens nothing without a live session, and leaves what is kept for when there is one', async () => {
    const { journal } = await open('vera@example.org');
    await journal.save(entry('a', 'a.pdf'), pdf('a.pdf'));
    server.signOut();
    await expect(journals().open('vera@example.org')).rejects.toThrow('Please sign in.');
    expect(await rawKeyIds()).toHaveLength(1);
    // Nor for a session that is someone else's (the page thinks one person is signed in, the server another).
    server.signIn('wes@example.org');
    await expect(journals().open('vera@example.org')).rejects.toThrow(NOT_THE_OWNER);
    expect(await rawKeyIds()).toHaveLength(1);
    expect((await open('vera@example.org')).files.map((f) => f.entry.id)).toEqual(['a']);
  });

  it('deletes what was sealed under a key the server destroyed, and tells nobody about it', async () => {
    const { journal } = await open('vera@example.org');
    await journal.save(entry('a', 'a.pdf'), pdf('a.pdf'));
    const before = server.keyOf('vera@example.org');
    server.destroy('vera@example.org'); // signed out elsewhere, suspended, a new PIN, 12 hours
    const opened = await open('vera@example.org');
    expect(opened.files).toEqual([]);
    expect(opened.lost).toEqual([]);
    expect(opened.deletedForOthers).toBe(0);
    expect(await rawRecords()).toBe('');
    expect(server.keyOf('vera@example.org').keyId).not.toBe(before.keyId);
  });

  it('deletes what an earlier version kept under a key of its own in the database', async () => {
    const old = await openDB(UPLOAD_JOURNAL_DB, 1, {
      upgrade(db) {
        db.createObjectStore('entries', { keyPath: 'id' });
        db.createObjectStore('bytes', { keyPath: 'id' });
        db.createObjectStore('keys');
      },
    });
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ]);
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const data = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv },
      key,
      new TextEncoder().encode(JSON.stringify(entry('a', 'a.pdf'))),
    );
    await old.put('keys', key, 'device');
    await old.put('entries', { id: 'a', owner: 'f'.repeat(64), savedAt: now, entry: { iv, data } });
    old.close();
    const opened = await open('vera@example.org');
    expect(opened.files).toEqual([]);
    const [stores, entries] = await withDb(
      async (db) => [Array.from(db.objectStoreNames).sort(), await db.getAll('entries')] as const,
    );
    expect(stores).toEqual(['bytes', 'entries']);
    expect(entries).toEqual([]);
  });

  it('moves what it kept under the new key when the server replaces the key while the page is open', async () => {
    const first = await open('vera@example.org');
    await first.journal.save(entry('a', 'a.pdf'), pdf('a.pdf'));
    const old = server.keyOf('vera@example.org');
    // Opened again with the key about to expire (the server's word): the open page renews it itself.
    server.expireAt('vera@example.org', now + 25);
    const page = journals();
    const opened = await open('vera@example.org', page);
    expect(opened.files.map((f) => f.entry.id)).toEqual(['a']);
    server.destroy('vera@example.org');
    now += 26;
    await vi.waitFor(
      async () => expect(await rawKeyIds()).toEqual([server.keyOf('vera@example.org').keyId]),
      { timeout: 5_000 },
    );
    expect(server.keyOf('vera@example.org').keyId).not.toBe(old.keyId);
    // A save after it is sealed under the new key too; both open with it.
    await opened.journal.save(entry('b', 'b.pdf'), pdf('b.pdf'));
    const reopened = await open('vera@example.org');
    expect(reopened.files.map((f) => f.entry.id)).toEqual(['a', 'b']);
    expect(await text(reopened.files[0]!.file)).toBe('%PDF-1.7 SSN 123-45-6789 a.pdf');
  });

  it('renews an expired key before a save; without a live session the save keeps nothing', async () => {
    const { journal } = await open('vera@example.org');
    await journal.save(entry('a', 'a.pdf'), pdf('a.pdf'));
    now += 12 * HOUR; // the key has expired; the file has not
    server.destroy('vera@example.org');
    server.signOut();
    await expect(journal.save(entry('b', 'b.pdf'), pdf('b.pdf'))).rejects.toThrow('Please sign in.');
    server.signIn('vera@example.org');
    await journal.save(entry('c', 'c.pdf'), pdf('c.pdf'));
    expect(await rawKeyIds()).toEqual([
      server.keyOf('vera@example.org').keyId,
      server.keyOf('vera@example.org').keyId,
    ]);
    expect((await open('vera@example.org')).files.map((f) => f.entry.id)).toEqual(['a', 'c']);
  });

  it('holds the sealed bytes as a Blob, in pieces of the size its record names', async () => {
    const { journal } = await open('vera@example.org');
    const file = pdf('a.pdf');
    // The bytes the caller read already are the ones kept.
    await journal.save(entry('a', 'a.pdf'), file, await file.arrayBuffer());
    const record = await withDb(
      async (db) =>
        (await db.get('bytes', 'a')) as {
          id: string;
          bytes: { iv: Uint8Array; data: unknown; pieceBytes: number };
        },
    );
    expect(record.bytes.data).toBeInstanceOf(Blob);
    expect(record.bytes.pieceBytes).toBe(512 * 1024);

    // A file in pieces of another size (256 KiB) opens by its record's size.
    const bytes = randomBytes(300_005);
    const { keyId } = server.keyOf('vera@example.org');
    const key = await serverKey('vera@example.org');
    const pieceBytes = 256 * 1024;
    const count = Math.ceil(bytes.length / pieceBytes);
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const label = new TextEncoder().encode(`${keyId}/a/bytes`);
    const pieces: ArrayBuffer[] = [];
    for (let index = 0; index < count; index++) {
      const nonce = new Uint8Array(iv);
      new DataView(nonce.buffer).setUint32(8, new DataView(iv.buffer).getUint32(8) ^ index);
      const additionalData = new Uint8Array(label.length + 8);
      additionalData.set(label);
      new DataView(additionalData.buffer).setUint32(label.length, index);
      new DataView(additionalData.buffer).setUint32(label.length + 4, count);
      pieces.push(
        await crypto.subtle.encrypt(
          { name: 'AES-GCM', iv: nonce, additionalData },
          key,
          bytes.subarray(index * pieceBytes, (index + 1) * pieceBytes),
        ),
      );
    }
    await withDb((db) => db.put('bytes', { id: 'a', bytes: { iv, data: new Blob(pieces), pieceBytes } }));
    const opened = await open('vera@example.org');
    expect(opened.lost).toEqual([]);
    expect(sameBytes(await opened.files[0]!.file.arrayBuffer(), bytes)).toBe(true);
  });

  it('seals a large file in pieces and gives it back byte for byte; pieces moved, dropped or added do not open', async () => {
    const bytes = randomBytes(1_200_005);
    const big = new File([bytes], 'big.pdf', { type: 'application/pdf' });
    const { journal } = await open('vera@example.org');
    await journal.save(entry('big', 'big.pdf'), big);
    const db = await openDB(UPLOAD_JOURNAL_DB);
    const record = (await db.get('bytes', 'big')) as {
      id: string;
      bytes: { iv: Uint8Array; data: Blob; pieceBytes: number };
    };
    db.close();
    expect(record.bytes.pieceBytes).toBe(512 * 1024);
    expect(record.bytes.data.size).toBe(1_200_005 + 3 * 16); // three pieces, a tag each

    const opened = await open('vera@example.org');
    expect(sameBytes(await opened.files[0]!.file.arrayBuffer(), bytes)).toBe(true);

    const sealed = new Uint8Array(await record.bytes.data.arrayBuffer());
    const piece = 512 * 1024 + 16;
    const [first, second, last] = [
      sealed.slice(0, piece),
      sealed.slice(piece, 2 * piece),
      sealed.slice(2 * piece),
    ];
    const tampered = {
      swapped: new Blob([second, first, last]),
      dropped: new Blob([first, second]),
      added: new Blob([first, second, second, last]),
    };
    for (const [how, data] of Object.entries(tampered)) {
      const write = await openDB(UPLOAD_JOURNAL_DB);
      await write.put('bytes', { ...record, bytes: { ...record.bytes, data } });
      write.close();
      const reopened = await open('vera@example.org');
      expect(reopened.files, how).toEqual([]);
      expect(
        reopened.lost.map((e) => e.id),
        how,
      ).toEqual(['big']);
    }
  });

  it('gives back files of every size: empty, whole pieces, and more pieces than are sealed at once', async () => {
    const piece = 512 * 1024;
    const sizes = [0, 1, piece, 2 * piece, 5 * piece + 1];
    const { journal } = await open('vera@example.org');
    const kept = sizes.map((size) => randomBytes(size));
    for (const [index, bytes] of kept.entries()) {
      now += 1;
      await journal.save(
        entry(`s${index}`, `s${index}.pdf`),
        new File([bytes], `s${index}.pdf`),
        bytes.slice().buffer,
      );
    }
    const db = await openDB(UPLOAD_JOURNAL_DB);
    const stored = (await db.getAll('bytes')) as { id: string; bytes: { data: Blob } }[];
    db.close();
    // A tag per piece; an empty file is one piece, a whole number of pieces has no empty one after.
    expect(Object.fromEntries(stored.map((r) => [r.id, r.bytes.data.size]))).toEqual({
      s0: 16,
      s1: 1 + 16,
      s2: piece + 16,
      s3: 2 * piece + 2 * 16,
      s4: 5 * piece + 1 + 6 * 16,
    });
    const opened = await open('vera@example.org');
    expect(opened.lost).toEqual([]);
    expect(opened.files.map((f) => f.entry.id)).toEqual(['s0', 's1', 's2', 's3', 's4']);
    for (const [index, file] of opened.files.entries())
      expect(sameBytes(await file.file.arrayBuffer(), kept[index]!), `s${index}`).toBe(true);
  });

  it('a piece that cannot be sealed fails the save with its own error; the file is then known by name only', async () => {
    const piece = 512 * 1024;
    let pieces = 0;
    const subtle = globalThis.crypto.subtle;
    const failing = {
      getRandomValues: <T extends ArrayBufferView>(array: T) => globalThis.crypto.getRandomValues(array),
      subtle: new Proxy(subtle, {
        get(target, name) {
          if (name !== 'encrypt') {
            const value = Reflect.get(target, name, target) as unknown;
            return typeof value === 'function'
              ? (value as (...args: unknown[]) => unknown).bind(target)
              : value;
          }
          return (algorithm: AesGcmParams, key: CryptoKey, data: BufferSource) =>
            // The sixth piece: after the first four, when more are started as earlier ones are taken.
            data.byteLength === piece && ++pieces === 6
              ? Promise.reject(new Error('the sixth piece could not be sealed'))
              : target.encrypt(algorithm, key, data);
        },
      }),
    } as unknown as Crypto;
    const { journal } = await open('vera@example.org', journals(failing));
    const bytes = randomBytes(8 * piece);
    await expect(
      journal.save(entry('big', 'big.pdf'), new File([bytes], 'big.pdf'), bytes.buffer),
    ).rejects.toThrow('the sixth piece could not be sealed');
    const opened = await open('vera@example.org');
    expect(opened.files).toEqual([]);
    expect(opened.lost.map((e) => e.id)).toEqual(['big']);
  });

  it('a record moved to another id, key or part does not open', async () => {
    const { journal } = await open('vera@example.org');
    await journal.save(entry('a', 'a.pdf'), pdf('a.pdf'));
    await journal.save(entry('b', 'b.pdf'), pdf('b.pdf'));
    await journal.save(entry('c', 'c.pdf'), pdf('c.pdf'));
    const wesKey = server.keyOf('wes@example.org').keyId;
    const db = await openDB(UPLOAD_JOURNAL_DB);
    const a = await db.get('entries', 'a');
    const aBytes = await db.get('bytes', 'a');
    const b = await db.get('entries', 'b');
    const c = await db.get('entries', 'c');
    // Another id; b's entry sealed where its bytes go (parts swapped); c's record given to wes's key.
    await db.put('entries', { ...a, id: 'z' });
    await db.put('bytes', { ...aBytes, id: 'z' });
    await db.put('bytes', {
      id: 'b',
      bytes: { ...b.entry, data: new Blob([b.entry.data]), pieceBytes: 512 * 1024 },
    });
    await db.put('entries', { ...c, keyId: wesKey });
    db.close();
    const vera = await open('vera@example.org');
    expect(vera.files.map((f) => f.entry.id)).toEqual(['a']);
    expect(vera.lost.map((e) => e.id)).toEqual(['b']); // its bytes do not open as bytes
    // Vera's open deleted c as someone else's; made again under wes's key, it does not open for him.
    const again = await openDB(UPLOAD_JOURNAL_DB);
    await again.put('entries', { ...c, keyId: wesKey });
    again.close();
    const wes = await open('wes@example.org');
    expect(wes.files).toEqual([]);
    expect(wes.lost).toEqual([]);
  });

  it('deletes another person’s files when someone signs in, and tells their owner once, on their next sign-in', async () => {
    const vera = await open('vera@example.org');
    await vera.journal.save(entry('a', 'a.pdf'), pdf('a.pdf'));
    await vera.journal.save(entry('b', 'b.pdf'), pdf('b.pdf'));

    const wes = await open('wes@example.org');
    expect(wes.files).toEqual([]);
    expect(wes.deletedForOthers).toBe(0);
    expect(await rawRecords()).toBe('');

    const back = await open('vera@example.org');
    expect(back.files).toEqual([]);
    expect(back.deletedForOthers).toBe(2);
    expect((await open('vera@example.org')).deletedForOthers).toBe(0);
  });

  it('tells the owner only within the lifetime, and counts only files that had not expired anyway', async () => {
    const vera = await open('vera@example.org');
    await vera.journal.save(entry('old', 'old.pdf'), pdf('old.pdf'));
    now += 11 * HOUR;
    await vera.journal.save(entry('new', 'new.pdf'), pdf('new.pdf'));
    now += 1 * HOUR + 1;
    await open('wes@example.org');
    expect((await open('vera@example.org')).deletedForOthers).toBe(1); // new.pdf, not old.pdf
  });

  it('forgets the note about deleted files once it is older than the lifetime', async () => {
    const vera = await open('vera@example.org');
    await vera.journal.save(entry('a', 'a.pdf'), pdf('a.pdf'));
    await open('wes@example.org');
    now += 12 * HOUR + 1;
    expect((await open('vera@example.org')).deletedForOthers).toBe(0);
  });

  it('a save racing a sign-out writes nothing after the database is deleted', async () => {
    const j = journals();
    const { journal } = await open('vera@example.org', j);
    const saving = journal.save(entry('late', 'late.pdf'), pdf('late.pdf')).then(
      () => 'kept',
      (error: unknown) => String(error),
    );
    await j.destroy();
    expect(await saving).toBe('Error: This device no longer keeps files for this sign-in.');
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(UPLOAD_JOURNAL_DB);
  });

  it('drops files older than the lifetime', async () => {
    const { journal } = await open('vera@example.org');
    await journal.save(entry('old', 'old.pdf'), pdf('old.pdf'));
    now += 11 * HOUR;
    await journal.save(entry('new', 'new.pdf'), pdf('new.pdf'));
    now += 1 * HOUR + 1;
    const opened = await open('vera@example.org');
    expect(opened.files.map((f) => f.entry.id)).toEqual(['new']);
  });

  it('a file whose bytes could not be kept is still known by name: lost, to be chosen again', async () => {
    const { journal } = await open('vera@example.org');
    const unreadable = {
      ...pdf('big.pdf'),
      arrayBuffer: () => Promise.reject(new Error('QuotaExceededError')),
    };
    await expect(journal.save(entry('big', 'big.pdf'), unreadable)).rejects.toThrow('QuotaExceededError');
    const opened = await open('vera@example.org');
    expect(opened.files).toEqual([]);
    expect(opened.lost).toEqual([entry('big', 'big.pdf')]);
  });

  it('destroy deletes the database', async () => {
    const j = journals();
    const { journal } = await open('vera@example.org', j);
    await journal.save(entry('a', 'a.pdf'), pdf('a.pdf'));
    await j.destroy();
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(UPLOAD_JOURNAL_DB);
  });
});
