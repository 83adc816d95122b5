/**
 * Kept uploads on the desk's disk, against real folders: what a restart finds, other people's files,
 * the lifetime, a full disk, a crash between the two writes, and sign-out.
 */
import { createHash } from 'node:crypto';
import { readdir, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileLike, JournalEntry } from '@vita-docs/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeFolder, tempFolder } from './inbox/test-support.js';
import { NOT_SIGNED_IN, createKeptUploadsHost } from './kept-uploads.js';
import { createFileJournals } from './upload-journal.js';

const HOUR = 3_600_000;
let dir: string;
let time: number;
const journals = () => createFileJournals({ dir, now: () => time, lifetimeMs: 12 * HOUR });
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
const ownerDir = (owner: string) => join(dir, createHash('sha256').update(owner).digest('hex'));

beforeEach(async () => {
  dir = join(await tempFolder('vita-kept-'), 'kept-uploads');
  time = 1_000_000;
});
afterEach(async () => removeFolder(join(dir, '..')));

describe('kept uploads on disk', () => {
  it('gives a restarted desk back each kept file, oldest first, and forgets one removed', async () => {
    const opened = await journals().open('vera@example.org');
    const b = file('%PDF second', 'b.pdf');
    const a = file('%PDF first', 'a.pdf');
    await opened.journal.save(entry('item-2', b), b);
    time += 1000;
    await opened.journal.save(entry('item-1', a), a);
    await opened.journal.save(entry('item-3', a), a);
    await opened.journal.remove('item-3');

    const again = await journals().open('vera@example.org');
    expect(again.files.map((k) => [k.entry.id, k.entry.clientName, k.savedAt])).toEqual([
      ['item-2', 'Dora C.', 1_000_000],
      ['item-1', 'Dora C.', 1_001_000],
    ]);
    expect(await Promise.all(again.files.map((k) => text(k.file)))).toEqual(['%PDF second', '%PDF first']);
    expect(again.lost).toEqual([]);
    if (process.platform !== 'win32') {
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
      const [one] = await readdir(ownerDir('vera@example.org'));
      expect((await stat(join(ownerDir('vera@example.org'), one ?? ''))).mode & 0o777).toBe(0o600);
    }
  });

  it("deletes someone else's files when another person opens, and tells their owner once, on their next sign-in", async () => {
    const vera = await journals().open('vera@example.org');
    await vera.journal.save(entry('item-1', file('x')), file('x'));
    await vera.journal.save(entry('item-2', file('y')), file('y'));
    const sam = await journals().open('sam@example.org');
    expect(sam.files).toEqual([]);
    expect(sam.deletedForOthers).toBe(0);
    expect(await readdir(dir)).not.toContain(ownerDir('vera@example.org').split('/').pop());
    const back = await journals().open('vera@example.org');
    expect([back.files.length, back.deletedForOthers]).toEqual([0, 2]);
    expect((await journals().open('vera@example.org')).deletedForOthers).toBe(0);
  });

  it('drops files older than the lifetime', async () => {
    const opened = await journals().open('vera@example.org');
    await opened.journal.save(entry('item-1', file('x')), file('x'));
    time += 12 * HOUR + 1;
    expect((await journals().open('vera@example.org')).files).toEqual([]);
    expect(await readdir(ownerDir('vera@example.org'))).toEqual([]);
  });

  it('keeps the name of a file whose bytes could not be written, and of one whose bytes a crash cut short', async () => {
    const opened = await journals().open('vera@example.org');
    const unreadable: FileLike = { ...file('x', 'full.pdf'), arrayBuffer: () => Promise.reject(new Error('ENOSPC')) };
    await expect(opened.journal.save(entry('item-1', unreadable), unreadable)).rejects.toThrow('ENOSPC');
    await opened.journal.save(entry('item-2', file('%PDF whole', 'cut.pdf')), file('%PDF whole', 'cut.pdf'));
    const folder = ownerDir('vera@example.org');
    const bins = (await readdir(folder)).filter((name) => name.endsWith('.bin'));
    await truncate(join(folder, bins[0] ?? ''), 3);
    // Bytes written without their entry (a crash between the two writes) are never offered.
    await writeFile(join(folder, `${'0'.repeat(64)}.bin`), 'orphan');
    const again = await journals().open('vera@example.org');
    expect(again.files).toEqual([]);
    expect(again.lost.map((e) => e.name).sort()).toEqual(['cut.pdf', 'full.pdf']);
    expect(await readdir(folder)).not.toContain(`${'0'.repeat(64)}.bin`);
  });

  it('a journal of someone signed out (or replaced) writes nothing more; sign-out deletes every file', async () => {
    const desk = journals();
    const vera = await desk.open('vera@example.org');
    await vera.journal.save(entry('item-1', file('x')), file('x'));
    await desk.destroy();
    await vera.journal.save(entry('item-2', file('y')), file('y'));
    expect(await readdir(dir)).toEqual([]);
    expect((await desk.open('vera@example.org')).files).toEqual([]);
  });
});

describe('kept uploads behind the bridge', () => {
  it('opens only for the person the server says is signed in', async () => {
    let signedIn: string | null = 'vera@example.org';
    const host = createKeptUploadsHost({ journals: journals(), signedIn: async () => signedIn });
    await expect(host.open('sam@example.org')).rejects.toThrow(NOT_SIGNED_IN);
    await expect(host.keep({ entry: entry('item-1', file('x')), bytes: new TextEncoder().encode('x') })).rejects.toThrow(NOT_SIGNED_IN);
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
