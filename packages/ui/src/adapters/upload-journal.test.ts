// The IndexedDB journal against fake-indexeddb (the IndexedDB API in Node) and Node's WebCrypto:
// what it writes is encrypted and bound to its owner, another person's sign-in deletes (and later
// tells), the lifetime ends, bytes that could not be kept leave the name, destroy deletes all.
import 'fake-indexeddb/auto';
import { createMemoryStorage, createTestFile } from '@vita-docs/core/testing';
import type { JournalEntry } from '@vita-docs/core';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { createIndexedDbJournals, UPLOAD_JOURNAL_DB } from './upload-journal';

const HOUR = 3_600_000;
let now = 1_000_000;
let storage = createMemoryStorage();
const journals = () =>
  createIndexedDbJournals({ crypto: globalThis.crypto, storage, now: () => now, lifetimeMs: 12 * HOUR });

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
  Buffer.from(a instanceof Uint8Array ? a : new Uint8Array(a)).equals(Buffer.from(b instanceof Uint8Array ? b : new Uint8Array(b)));
const text = async (file: { arrayBuffer(): Promise<ArrayBuffer> }) => new TextDecoder().decode(await file.arrayBuffer());

/** The owners of every entry record. */
async function rawOwners(): Promise<string[]> {
  const db = await openDB(UPLOAD_JOURNAL_DB);
  const owners = ((await db.getAll('entries')) as { owner: string }[]).map((r) => r.owner);
  db.close();
  return owners;
}

/** Every value of a store as raw bytes of text, as anyone reading the browser profile would find them. */
async function rawRecords(): Promise<string> {
  const db = await openDB(UPLOAD_JOURNAL_DB);
  const found: unknown[] = [...(await db.getAll('entries')), ...(await db.getAll('bytes'))];
  db.close();
  const decode = async (value: unknown): Promise<string> => {
    if (value instanceof Blob) return new TextDecoder().decode(await value.arrayBuffer());
    if (value instanceof ArrayBuffer) return new TextDecoder().decode(value);
    if (ArrayBuffer.isView(value)) return new TextDecoder().decode(value);
    if (value && typeof value === 'object') return (await Promise.all(Object.values(value).map(decode))).join('|');
    return String(value);
  };
  return (await Promise.all(found.map(decode))).join('\n');
}

afterEach(async () => {
  await journals().destroy();
  now = 1_000_000;
  storage = createMemoryStorage();
});

describe('IndexedDB upload journal', () => {
  it('gives a person back their files, byte for byte, oldest first, and forgets removed ones', async () => {
    const { journal } = await journals().open('vera@example.org');
    await journal.save(entry('a', 'a.pdf'), pdf('a.pdf'));
    now += 1;
    await journal.save(entry('b', 'b.pdf'), pdf('b.pdf'));
    now += 1;
    await journal.save(entry('c', 'c.pdf'), pdf('c.pdf'));
    await journal.remove('b');

    const opened = await journals().open('Vera@Example.org ');
    expect(opened.files.map((f) => f.entry)).toEqual([entry('a', 'a.pdf'), entry('c', 'c.pdf')]);
    expect(await text(opened.files[0]!.file)).toBe('%PDF-1.7 SSN 123-45-6789 a.pdf');
    expect(opened.files[1]!.file).toMatchObject({ name: 'c.pdf', type: 'application/pdf' });
    expect(opened.lost).toEqual([]);
  });

  it('holds the sealed bytes as a Blob, and still reads files kept before: one piece, as an ArrayBuffer or a Blob', async () => {
    const { journal } = await journals().open('vera@example.org');
    const file = pdf('a.pdf');
    // The bytes the caller read already are the ones kept.
    await journal.save(entry('a', 'a.pdf'), file, await file.arrayBuffer());
    const db = await openDB(UPLOAD_JOURNAL_DB);
    const record = (await db.get('bytes', 'a')) as { id: string; bytes: { iv: Uint8Array; data: unknown } };
    expect(record.bytes.data).toBeInstanceOf(Blob);
    // As kept before pieces: the whole file sealed once, under the record's label alone.
    const key = (await db.get('keys', 'device')) as CryptoKey;
    const { owner } = (await db.get('entries', 'a')) as { owner: string };
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const additionalData = new TextEncoder().encode(`${owner}/a/bytes`);
    const whole = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData }, key, await file.arrayBuffer());
    await db.put('bytes', { id: 'a', bytes: { iv, data: whole } });
    db.close();
    let opened = await journals().open('vera@example.org');
    expect(opened.lost).toEqual([]);
    expect(await text(opened.files[0]!.file)).toBe('%PDF-1.7 SSN 123-45-6789 a.pdf');

    const again = await openDB(UPLOAD_JOURNAL_DB);
    await again.put('bytes', { id: 'a', bytes: { iv, data: new Blob([whole]) } });
    again.close();
    opened = await journals().open('vera@example.org');
    expect(await text(opened.files[0]!.file)).toBe('%PDF-1.7 SSN 123-45-6789 a.pdf');
  });

  it('seals a large file in pieces and gives it back byte for byte; pieces moved, dropped or added do not open', async () => {
    const bytes = randomBytes(1_200_005);
    const big = new File([bytes], 'big.pdf', { type: 'application/pdf' });
    const { journal } = await journals().open('vera@example.org');
    await journal.save(entry('big', 'big.pdf'), big);
    const db = await openDB(UPLOAD_JOURNAL_DB);
    const record = (await db.get('bytes', 'big')) as { id: string; bytes: { iv: Uint8Array; data: Blob; pieceBytes: number } };
    db.close();
    expect(record.bytes.pieceBytes).toBe(512 * 1024);
    expect(record.bytes.data.size).toBe(1_200_005 + 3 * 16); // three pieces, a tag each

    const opened = await journals().open('vera@example.org');
    expect(sameBytes(await opened.files[0]!.file.arrayBuffer(), bytes)).toBe(true);

    const sealed = new Uint8Array(await record.bytes.data.arrayBuffer());
    const piece = 512 * 1024 + 16;
    const [first, second, last] = [sealed.slice(0, piece), sealed.slice(piece, 2 * piece), sealed.slice(2 * piece)];
    const tampered = {
      swapped: new Blob([second, first, last]),
      dropped: new Blob([first, second]),
      added: new Blob([first, second, second, last]),
    };
    for (const [how, data] of Object.entries(tampered)) {
      const write = await openDB(UPLOAD_JOURNAL_DB);
      await write.put('bytes', { ...record, bytes: { ...record.bytes, data } });
      write.close();
      const reopened = await journals().open('vera@example.org');
      expect(reopened.files, how).toEqual([]);
      expect(reopened.lost.map((e) => e.id), how).toEqual(['big']);
    }
  });

  it('still reads a file kept in pieces of another size (256 KiB, as kept before)', async () => {
    const bytes = randomBytes(300_005);
    const { journal } = await journals().open('vera@example.org');
    await journal.save(entry('old', 'old.pdf'), pdf('old.pdf'));
    const db = await openDB(UPLOAD_JOURNAL_DB);
    const key = (await db.get('keys', 'device')) as CryptoKey;
    const { owner } = (await db.get('entries', 'old')) as { owner: string };
    // Sealed as the journal seals: piece i under the iv with i in its last four bytes, and the
    // record's label, i and the number of pieces as additional data.
    const pieceBytes = 256 * 1024;
    const count = Math.ceil(bytes.length / pieceBytes);
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const label = new TextEncoder().encode(`${owner}/old/bytes`);
    const pieces = [];
    for (let index = 0; index < count; index++) {
      const nonce = new Uint8Array(iv);
      new DataView(nonce.buffer).setUint32(8, new DataView(iv.buffer).getUint32(8) ^ index);
      const additionalData = new Uint8Array(label.length + 8);
      additionalData.set(label);
      new DataView(additionalData.buffer).setUint32(label.length, index);
      new DataView(additionalData.buffer).setUint32(label.length + 4, count);
      const piece = bytes.subarray(index * pieceBytes, (index + 1) * pieceBytes);
      pieces.push(await crypto.subtle.encrypt({ name: 'AES-GCM', iv: nonce, additionalData }, key, piece));
    }
    await db.put('bytes', { id: 'old', bytes: { iv, data: new Blob(pieces), pieceBytes } });
    db.close();

    const opened = await journals().open('vera@example.org');
    expect(opened.lost).toEqual([]);
    expect(sameBytes(await opened.files[0]!.file.arrayBuffer(), bytes)).toBe(true);
  });

  it('gives back files of every size: empty, whole pieces, and more pieces than are sealed at once', async () => {
    const piece = 512 * 1024;
    const sizes = [0, 1, piece, 2 * piece, 5 * piece + 1];
    const { journal } = await journals().open('vera@example.org');
    const kept = sizes.map((size) => randomBytes(size));
    for (const [index, bytes] of kept.entries()) {
      now += 1;
      await journal.save(entry(`s${index}`, `s${index}.pdf`), new File([bytes], `s${index}.pdf`), bytes.slice().buffer);
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
    const opened = await journals().open('vera@example.org');
    expect(opened.lost).toEqual([]);
    expect(opened.files.map((f) => f.entry.id)).toEqual(['s0', 's1', 's2', 's3', 's4']);
    for (const [index, file] of opened.files.entries()) expect(sameBytes(await file.file.arrayBuffer(), kept[index]!), `s${index}`).toBe(true);
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
            return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
          }
          return (algorithm: AesGcmParams, key: CryptoKey, data: BufferSource) =>
            // The sixth piece: after the first four, when more are started as earlier ones are taken.
            data.byteLength === piece && ++pieces === 6
              ? Promise.reject(new Error('the sixth piece could not be sealed'))
              : target.encrypt(algorithm, key, data);
        },
      }),
    } as unknown as Crypto;
    const { journal } = await createIndexedDbJournals({ crypto: failing, storage, now: () => now, lifetimeMs: 12 * HOUR }).open(
      'vera@example.org',
    );
    const bytes = randomBytes(8 * piece);
    await expect(journal.save(entry('big', 'big.pdf'), new File([bytes], 'big.pdf'), bytes.buffer)).rejects.toThrow(
      'the sixth piece could not be sealed',
    );
    const opened = await journals().open('vera@example.org');
    expect(opened.files).toEqual([]);
    expect(opened.lost.map((e) => e.id)).toEqual(['big']);
  });

  it('keeps nothing readable: no bytes, names, clients or emails in the clear, and a key no script can export', async () => {
    const { journal } = await journals().open('vera@example.org');
    await journal.save(entry('a', 'dora-ssn-card.pdf'), pdf('dora-ssn-card.pdf'));
    const raw = await rawRecords();
    for (const secret of ['%PDF', '123-45-6789', 'dora-ssn-card', 'Dora Client', 'Banking', 'vera@example.org']) {
      expect(raw).not.toContain(secret);
    }
    const db = await openDB(UPLOAD_JOURNAL_DB);
    const key = (await db.get('keys', 'device')) as CryptoKey;
    db.close();
    expect(key.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
  });

  it('a record moved to another id, owner or part does not decrypt', async () => {
    const wes = await journals().open('wes@example.org');
    await wes.journal.save(entry('w', 'w.pdf'), pdf('w.pdf'));
    const { journal } = await journals().open('vera@example.org'); // wes's file is deleted here
    await journal.save(entry('a', 'a.pdf'), pdf('a.pdf'));
    await journal.save(entry('b', 'b.pdf'), pdf('b.pdf'));
    const db = await openDB(UPLOAD_JOURNAL_DB);
    const a = await db.get('entries', 'a');
    const aBytes = await db.get('bytes', 'a');
    const b = await db.get('entries', 'b');
    // Another id; b's entry sealed where its bytes go (parts swapped); vera's record given to wes.
    await db.put('entries', { ...a, id: 'z' });
    await db.put('bytes', { ...aBytes, id: 'z' });
    await db.put('bytes', { id: 'b', bytes: b.entry });
    const wesHash = (await rawOwners()).find((owner) => owner !== a.owner);
    expect(wesHash).toBeUndefined(); // wes has no records left: make one by hand
    await db.put('entries', { ...a, id: 'stolen', owner: 'f'.repeat(64) });
    db.close();
    const vera = await journals().open('vera@example.org');
    expect(vera.files.map((f) => f.entry.id)).toEqual(['a']);
    expect(vera.lost.map((e) => e.id)).toEqual(['b']); // its bytes do not open as bytes
    const other = await journals().open('f'.repeat(64));
    expect(other.files).toEqual([]);
  });

  it('deletes another person’s files when someone signs in, and tells their owner once, on their next sign-in', async () => {
    const vera = await journals().open('vera@example.org');
    await vera.journal.save(entry('a', 'a.pdf'), pdf('a.pdf'));
    await vera.journal.save(entry('b', 'b.pdf'), pdf('b.pdf'));

    const wes = await journals().open('wes@example.org');
    expect(wes.files).toEqual([]);
    expect(wes.deletedForOthers).toBe(0);
    expect(await rawRecords()).toBe('');

    const back = await journals().open('vera@example.org');
    expect(back.files).toEqual([]);
    expect(back.deletedForOthers).toBe(2);
    expect((await journals().open('vera@example.org')).deletedForOthers).toBe(0);
  });

  it('tells the owner only within the lifetime, and counts only files that had not expired anyway', async () => {
    const vera = await journals().open('vera@example.org');
    await vera.journal.save(entry('old', 'old.pdf'), pdf('old.pdf'));
    now += 13 * HOUR;
    await vera.journal.save(entry('new', 'new.pdf'), pdf('new.pdf'));
    await journals().open('wes@example.org');
    expect((await journals().open('vera@example.org')).deletedForOthers).toBe(1); // new.pdf, not old.pdf
  });

  it('forgets the note about deleted files once it is older than the lifetime', async () => {
    const vera = await journals().open('vera@example.org');
    await vera.journal.save(entry('a', 'a.pdf'), pdf('a.pdf'));
    await journals().open('wes@example.org');
    now += 12 * HOUR + 1;
    expect((await journals().open('vera@example.org')).deletedForOthers).toBe(0);
  });

  it('a save racing a sign-out writes nothing after the database is deleted', async () => {
    const j = journals();
    const { journal } = await j.open('vera@example.org');
    const saving = journal.save(entry('late', 'late.pdf'), pdf('late.pdf')).then(
      () => 'kept',
      (error: unknown) => String(error),
    );
    await j.destroy();
    expect(await saving).toBe('Error: This device no longer keeps files for this sign-in.');
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(UPLOAD_JOURNAL_DB);
  });

  it('drops files older than the lifetime', async () => {
    const { journal } = await journals().open('vera@example.org');
    await journal.save(entry('old', 'old.pdf'), pdf('old.pdf'));
    now += 11 * HOUR;
    await journal.save(entry('new', 'new.pdf'), pdf('new.pdf'));
    now += 1 * HOUR + 1;
    const opened = await journals().open('vera@example.org');
    expect(opened.files.map((f) => f.entry.id)).toEqual(['new']);
  });

  it('a file whose bytes could not be kept is still known by name: lost, to be chosen again', async () => {
    const { journal } = await journals().open('vera@example.org');
    const unreadable = { ...pdf('big.pdf'), arrayBuffer: () => Promise.reject(new Error('QuotaExceededError')) };
    await expect(journal.save(entry('big', 'big.pdf'), unreadable)).rejects.toThrow('QuotaExceededError');
    const opened = await journals().open('vera@example.org');
    expect(opened.files).toEqual([]);
    expect(opened.lost).toEqual([entry('big', 'big.pdf')]);
  });

  it('destroy deletes the database', async () => {
    const j = journals();
    const { journal } = await j.open('vera@example.org');
    await journal.save(entry('a', 'a.pdf'), pdf('a.pdf'));
    await j.destroy();
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(UPLOAD_JOURNAL_DB);
  });
});
