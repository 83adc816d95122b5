/**
 * Kept uploads on the desk's disk, against real folders and a stand-in for the server's journal
 * keys: what a restart finds, that nothing on disk opens without the key the server hands the desk's
 * live session, a key the server destroyed or replaced, other people's files, the lifetime, a full
 * disk, a crash between the two writes, sign-out, and a folder an earlier version left in the clear.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileLike, JournalEntry, UploadJournals } from '@vita-docs/core';
import { createFakeJournalKeys } from '@vita-docs/core/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { removeFolder, tempFolder } from './inbox/test-support.js';
import { NOT_SIGNED_IN, createKeptUploadsHost } from './kept-uploads.js';
import { createFileJournals } from './upload-journal.js';
import { KeepUploadSchema } from '../shared/schemas.js';

const HOUR = 3_600_000;
let dir: string;
let time: number;
let server = createFakeJournalKeys({ now: () => time });
let made: UploadJournals[] = [];
const journals = () => {
  const j = createFileJournals({ dir, now: () => time, lifetimeMs: 12 * HOUR, journalKey: server.source });
  made.push(j);
  return j;
};
/** Signs `person` in with the server and opens their journal, as the desk does after a sign-in. */
const open = (person: string, j = journals()) => {
  server.signIn(person);
  return j.open(person);
};
const file = (text: string, name = 'a.pdf'): FileLike => {
  const bytes = new TextEncoder().encode(text);
  return { name, type: 'application/pdf', size: bytes.length, arrayBuffer: async () => bytes.buffer };
};
const entry = (id: string, f: FileLike): JournalEntry => ({
  id,
  target: { clientId: 'c1', docType: 'W-2' },
  clientName: 'Dora C.',
  name: f.name,
  type: f.type,
  size: f.size,
});
const text = async (f: FileLike) => new TextDecoder().decode(await f.arrayBuffer());
const itemFiles = async () =>
  (await readdir(dir)).filter((name) => /^[0-9a-f]{64}\.(json|bin)$/.test(name)).sort();
const keyIds = async () =>
  Promise.all(
    (await itemFiles())
      .filter((n) => n.endsWith('.json'))
      .map(async (n) => (JSON.parse(await readFile(join(dir, n), 'utf8')) as { keyId: string }).keyId),
  );

beforeEach(async () => {
  dir = join(await tempFolder('vita-kept-'), 'kept-uploads');
  time = 1_000_000;
  server = createFakeJournalKeys({ now: () => time });
});
afterEach(async () => {
  for (const j of made) await j.destroy();
  made = [];
  await removeFolder(join(dir, '..'));
});

describe('kept uploads on disk', () => {
  it('gives a restarted desk back each kept file, oldest first, and forgets one removed', async () => {
    const opened = await open('vera@example.org');
    const b = file('%PDF second', 'b.pdf');
    const a = file('%PDF first', 'a.pdf');
    await opened.journal.save(entry('item-2', b), b);
    time += 1000;
    await opened.journal.save(entry('item-1', a), a);
    await opened.journal.save(entry('item-3', a), a);
    await opened.journal.remove('item-3');

    const again = await open('vera@example.org');
    expect(again.files.map((k) => [k.entry.id, k.entry.clientName, k.savedAt])).toEqual([
      ['item-2', 'Dora C.', 1_000_000],
      ['item-1', 'Dora C.', 1_001_000],
    ]);
    expect(await Promise.all(again.files.map((k) => text(k.file)))).toEqual(['%PDF second', '%PDF first']);
    expect(again.lost).toEqual([]);
    if (process.platform !== 'win32') {
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
      const [one] = await itemFiles();
      expect((await stat(join(dir, one ?? ''))).mode & 0o777).toBe(0o600);
    }
  });

  it('keeps nothing readable and no key on disk: every file is sealed under the key the server handed the desk', async () => {
    const opened = await open('vera@example.org');
    const f = file('%PDF SSN 123-45-6789', 'dora-ssn-card.pdf');
    await opened.journal.save(entry('item-1', f), f);
    const { key, keyId } = server.keyOf('vera@example.org');
    const raw = Buffer.from(key, 'base64');
    const names = await readdir(dir, { recursive: true });
    const onDisk = Buffer.concat(
      await Promise.all(names.map((name) => readFile(join(dir, name)).catch(() => Buffer.alloc(0)))),
    );
    for (const secret of [
      '%PDF',
      '123-45-6789',
      'dora-ssn-card',
      'Dora C.',
      'W-2',
      'vera@example.org',
      key,
      raw.toString('hex'),
    ]) {
      expect(onDisk.includes(secret), secret).toBe(false);
    }
    expect(onDisk.includes(raw)).toBe(false);
    expect(names.join('\n')).not.toContain(createHash('sha256').update('vera@example.org').digest('hex'));
    expect(await keyIds()).toEqual([keyId]);
  });

  it('opens nothing without a live session, and leaves what is kept for when there is one', async () => {
    const opened = await open('vera@example.org');
    await opened.journal.save(entry('item-1', file('x')), file('x'));
    server.signOut();
    await expect(journals().open('vera@example.org')).rejects.toThrow('Please sign in.');
    expect(await itemFiles()).toHaveLength(2);
    expect((await open('vera@example.org')).files.map((k) => k.entry.id)).toEqual(['item-1']);
  });

  it('deletes what was sealed under a key the server destroyed, and tells nobody about it', async () => {
    const opened = await open('vera@example.org');
    await opened.journal.save(entry('item-1', file('x')), file('x'));
    server.destroy('vera@example.org'); // signed out elsewhere, suspended, a new PIN, 12 hours
    const again = await open('vera@example.org');
    expect([again.files, again.lost, again.deletedForOthers]).toEqual([[], [], 0]);
    expect(await itemFiles()).toEqual([]);
  });

  it('moves what it kept under the new key when the server replaces the key while the desk is open', async () => {
    const first = await open('vera@example.org');
    await first.journal.save(entry('item-1', file('%PDF kept')), file('%PDF kept'));
    server.expireAt('vera@example.org', time + 25);
    const desk = await open('vera@example.org');
    server.destroy('vera@example.org');
    time += 26;
    await vi.waitFor(async () => expect(await keyIds()).toEqual([server.keyOf('vera@example.org').keyId]), {
      timeout: 5_000,
    });
    // What the desk offered before is read with the key it holds now.
    expect(await text(desk.files[0]!.file)).toBe('%PDF kept');
    const again = await open('vera@example.org');
    expect(await text(again.files[0]!.file)).toBe('%PDF kept');
  });

  it('deletes a folder of files an earlier version kept in the clear', async () => {
    const legacy = join(dir, createHash('sha256').update('vera@example.org').digest('hex'));
    await mkdir(legacy, { recursive: true });
    await writeFile(join(legacy, `${'1'.repeat(64)}.bin`), '%PDF SSN 123-45-6789');
    await open('vera@example.org');
    expect(await readdir(dir)).toEqual([]);
  });

  it("deletes someone else's files when another person opens, and tells their owner once, on their next sign-in", async () => {
    const vera = await open('vera@example.org');
    await vera.journal.save(entry('item-1', file('x')), file('x'));
    await vera.journal.save(entry('item-2', file('y')), file('y'));
    const sam = await open('sam@example.org');
    expect(sam.files).toEqual([]);
    expect(sam.deletedForOthers).toBe(0);
    expect(await itemFiles()).toEqual([]);
    const back = await open('vera@example.org');
    expect([back.files.length, back.deletedForOthers]).toEqual([0, 2]);
    expect((await open('vera@example.org')).deletedForOthers).toBe(0);
  });

  it('drops files older than the lifetime', async () => {
    const opened = await open('vera@example.org');
    await opened.journal.save(entry('item-1', file('x')), file('x'));
    time += 12 * HOUR + 1;
    expect((await open('vera@example.org')).files).toEqual([]);
    expect(await itemFiles()).toEqual([]);
  });

  it('keeps the name of a file whose bytes could not be written, and of one whose bytes a crash cut short', async () => {
    const opened = await open('vera@example.org');
    const unreadable: FileLike = {
      ...file('x', 'full.pdf'),
      arrayBuffer: () => Promise.reject(new Error('ENOSPC')),
    };
    await expect(opened.journal.save(entry('item-1', unreadable), unreadable)).rejects.toThrow('ENOSPC');
    await opened.journal.save(entry('item-2', file('%PDF whole', 'cut.pdf')), file('%PDF whole', 'cut.pdf'));
    const bins = (await itemFiles()).filter((name) => name.endsWith('.bin'));
    await truncate(join(dir, bins[0] ?? ''), 3);
    // Bytes written without their entry (a crash between the two writes) are never offered.
    await writeFile(join(dir, `${'0'.repeat(64)}.bin`), 'orphan');
    const again = await open('vera@example.org');
    expect(again.files).toEqual([]);
    expect(again.lost.map((e) => e.name).sort()).toEqual(['cut.pdf', 'full.pdf']);
    expect(await readdir(dir)).not.toContain(`${'0'.repeat(64)}.bin`);
  });

  it('a journal of someone signed out (or replaced) writes nothing more; sign-out deletes every file', async () => {
    const desk = journals();
    const vera = await open('vera@example.org', desk);
    await vera.journal.save(entry('item-1', file('x')), file('x'));
    await desk.destroy();
    await vera.journal.save(entry('item-2', file('y')), file('y'));
    expect(await readdir(dir)).toEqual([]);
    expect((await open('vera@example.org', desk)).files).toEqual([]);
  });
});

describe('kept uploads behind the bridge', () => {
  it('opens only for the person the server says is signed in', async () => {
    let signedIn: string | null = 'vera@example.org';
    server.signIn('vera@example.org');
    const host = createKeptUploadsHost({ journals: journals(), signedIn: async () => signedIn });
    await expect(host.open('sam@example.org')).rejects.toThrow(NOT_SIGNED_IN);
    await expect(
      host.keep({ entry: entry('item-1', file('x')), bytes: new TextEncoder().encode('x') }),
    ).rejects.toThrow(NOT_SIGNED_IN);
    await host.open('Vera@example.org');
    await host.keep({ entry: entry('item-1', file('x')), bytes: new TextEncoder().encode('x') });
    const opened = await host.open('vera@example.org');
    expect(opened.files.map((f) => f.entry.id)).toEqual(['item-1']);
    expect(new TextDecoder().decode((await host.read('item-1')).bytes)).toBe('x');
    signedIn = null;
    await expect(host.open('vera@example.org')).rejects.toThrow(NOT_SIGNED_IN);
    await expect(host.read('item-1')).rejects.toThrow(NOT_SIGNED_IN);
  });
});

describe('a photo kept with the choice its PDF is made with', () => {
  it('comes back with its turn and corners, through the bridge and off the disk; an entry without them stays without', async () => {
    const photo: FileLike = { ...file('jpeg bytes', 'Banking Info 1.jpg'), type: 'image/jpeg' };
    const corners = [
      { x: 0.1, y: 0.1 },
      { x: 0.9, y: 0.1 },
      { x: 0.9, y: 0.9 },
      { x: 0.1, y: 0.9 },
    ] as const;
    const chosen: JournalEntry = {
      ...entry('item-1', photo),
      convert: { rotate: 90, crop: { mode: 'corners', corners } },
    };
    const bytes = new TextEncoder().encode('jpeg bytes');
    // The page's payload as main parses it: the choice is not stripped on the way.
    expect(KeepUploadSchema.parse({ entry: chosen, bytes }).entry).toEqual(chosen);
    expect(() => KeepUploadSchema.parse({ entry: { ...chosen, convert: { rotate: 45 } }, bytes })).toThrow();

    const opened = await open('vera@example.org');
    await opened.journal.save(chosen, photo);
    const pdf = file('%PDF old');
    await opened.journal.save(entry('item-2', pdf), pdf);
    const again = await open('vera@example.org');
    expect(again.files.map((k) => k.entry)).toEqual([chosen, entry('item-2', pdf)]);
  });

  it('keeps its unanswered warnings, and that its check had not answered, through the bridge', () => {
    const photo: FileLike = { ...file('jpeg bytes', 'Banking Info 1.jpg'), type: 'image/jpeg' };
    const bytes = new TextEncoder().encode('jpeg bytes');
    const waiting: JournalEntry = {
      ...entry('item-1', photo),
      convert: { rotate: 0 },
      warnings: ['tooDark'],
    };
    expect(KeepUploadSchema.parse({ entry: waiting, bytes }).entry).toEqual(waiting);
    const unchecked: JournalEntry = { ...entry('item-2', photo), convert: { rotate: 0 }, checkPending: true };
    expect(KeepUploadSchema.parse({ entry: unchecked, bytes }).entry).toEqual(unchecked);
    expect(() => KeepUploadSchema.parse({ entry: { ...waiting, warnings: ['nope'] }, bytes })).toThrow();
  });
});
