/**
 * Scanner folders on network shares, half-written and damaged scans, and notices dismissed for
 * good: real folders, real polling (a short interval), a stubbed file-system type where a real
 * share would be needed.
 */
import { mkdir, readFile, readdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseMode, networkFilesystem } from './filesystem.js';
import type { InboxOptions } from './inbox.js';
import { pollPass } from './poller.js';
import { watchFilter } from './rules.js';
import type { InboxEvent } from './scan.js';
import {
  putFile,
  removeFolder,
  startRecorded,
  tempFolder,
  testPdf,
  type RecordedInbox,
} from './test-support.js';

const CIFS = 0xff534d42;
const EXT4 = 0xef53;

let root: string;
let folder: string;
const open: RecordedInbox[] = [];

beforeEach(async () => {
  root = await tempFolder();
  folder = join(root, 'Scans');
  await mkdir(folder);
});

afterEach(async () => {
  for (const recorded of open.splice(0)) await recorded.inbox.close();
  await removeFolder(root);
});

/** Short windows so a test takes seconds: 300 ms stable, polls every 200 ms, damaged after 1.5 s. */
async function start(options: Partial<InboxOptions> = {}): Promise<RecordedInbox> {
  const recorded = await startRecorded({
    folder,
    stableMs: 300,
    intervalMs: 200,
    damagedAfterMs: 1500,
    ...options,
  });
  open.push(recorded);
  return recorded;
}

async function restart(previous: RecordedInbox, options: Partial<InboxOptions> = {}): Promise<RecordedInbox> {
  await previous.inbox.close();
  open.splice(open.indexOf(previous), 1);
  return start(options);
}

const isProblem =
  (kind: 'damaged' | 'duplicate', relPath: string) =>
  (e: InboxEvent): e is Extract<InboxEvent, { type: 'problem' }> =>
    e.type === 'problem' && e.kind === kind && e.relPath === relPath;

/** Waits until `check` holds, looking again on each inbox event (and at least every 100 ms). */
async function until(recorded: RecordedInbox, check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Not reached; events: ${JSON.stringify(recorded.events)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A PDF cut short: what a scanner that stalled mid-write leaves. */
async function truncatedPdf(relPath: string): Promise<string> {
  const whole = await testPdf(relPath);
  const path = join(folder, relPath);
  await writeFile(path, whole.subarray(0, Math.floor(whole.length / 2)));
  return path;
}

describe('network file systems', () => {
  it('tells network file systems by their statfs type on Linux and by a UNC path on Windows', () => {
    const linux = (fsType: number) => networkFilesystem({ platform: 'linux', path: '/mnt/scans', fsType });
    expect(linux(0xff534d42)).toBe('cifs');
    expect(linux(0xfe534d42)).toBe('smb2');
    expect(linux(0x517b)).toBe('smb');
    expect(linux(0x6969)).toBe('nfs');
    expect(linux(0x65735546)).toBe('fuse');
    expect(linux(EXT4)).toBeNull();
    expect(linux(0x01021994)).toBeNull(); // tmpfs
    const windows = (path: string) => networkFilesystem({ platform: 'win32', path });
    expect(windows('\\\\server\\scans')).toBe('unc');
    expect(windows('\\\\?\\UNC\\server\\scans')).toBe('unc');
    expect(windows('D:\\Scans')).toBeNull();
    expect(windows('\\\\?\\D:\\Scans')).toBeNull();
    expect(networkFilesystem({ platform: 'darwin', path: '/Volumes/scans', fsType: CIFS })).toBeNull();
  });

  it('polls a network folder and watches a local one, unless the setting forces a mode', () => {
    const share = { platform: 'linux' as const, path: '/mnt/scans', fsType: CIFS };
    const local = { platform: 'linux' as const, path: '/home/desk/Scans', fsType: EXT4 };
    expect(chooseMode('auto', share)).toEqual({ mode: 'poll', network: 'cifs' });
    expect(chooseMode('auto', local)).toEqual({ mode: 'watch', network: null });
    expect(chooseMode('watch', share)).toEqual({ mode: 'watch', network: 'cifs' });
    expect(chooseMode('poll', local)).toEqual({ mode: 'poll', network: null });
  });

  it('polls a folder whose file system is a network one, and finds scans by polling', async () => {
    const recorded = await start({ readFsType: async () => CIFS });
    expect(recorded.inbox.status()).toMatchObject({ mode: 'poll', network: 'cifs', intervalMs: 200 });
    await putFile(folder, 'w2.pdf');
    await putFile(folder, 'sub/1099.jpg');
    await recorded.added('w2.pdf');
    await recorded.added('sub/1099.jpg');
    await until(recorded, () => recorded.inbox.status().lastPass?.files === 2);
    expect(recorded.inbox.status().lastScanAt).toBeGreaterThan(0);
  });

  it('walks a folder of 5 000 files in one pass, stats only', async () => {
    const names = Array.from({ length: 5000 }, (_, i) => `scan-${String(i).padStart(4, '0')}.pdf`);
    for (let i = 0; i < names.length; i += 500) {
      await mkdir(join(folder, `batch-${i}`));
      await Promise.all(
        names.slice(i, i + 500).map((name) => writeFile(join(folder, `batch-${i}`, name), '%PDF-')),
      );
    }
    const started = performance.now();
    const found = await pollPass(folder, watchFilter(folder));
    const ms = performance.now() - started;
    expect(found.size).toBe(5000);
    // The figure goes to docs/benchmarks.md#scanner-folder-poll; the test only proves a pass covers them all.
    console.info(`poll pass over 5 000 files: ${ms.toFixed(0)} ms`);
  });
});

describe('a folder that goes away', () => {
  for (const mode of ['poll', 'watch'] as const) {
    it(`(${mode}) says it is not reachable, and when it is back offers nothing twice`, async () => {
      const recorded = await start({ mode });
      await putFile(folder, 'w2.pdf');
      const scan = await recorded.added('w2.pdf');
      await rename(folder, join(root, 'away'));
      await until(recorded, () => !recorded.inbox.status().reachable);
      expect(recorded.inbox.list().map((s) => s.id)).toEqual([scan.id]);
      await putFile(join(root, 'away'), 'while away.pdf');
      await rename(join(root, 'away'), folder);
      await until(recorded, () => recorded.inbox.status().reachable);
      await recorded.added('while away.pdf');
      await putFile(folder, 'sentinel.pdf');
      await recorded.added('sentinel.pdf');
      expect(recorded.addedCount('w2.pdf')).toBe(1);
      expect(recorded.events.some((e) => e.type === 'removed')).toBe(false);
      expect(recorded.inbox.list().map((s) => s.relPath)).toEqual([
        'w2.pdf',
        'while away.pdf',
        'sentinel.pdf',
      ]);
    });
  }

  for (const mode of ['poll', 'watch'] as const) {
    it(`(${mode}) a folder removed and made again with the same scans (a share mounted again) offers nothing twice`, async () => {
      const recorded = await start({ mode });
      const bytes = await readFile(await putFile(folder, 'w2.pdf'));
      await recorded.added('w2.pdf');
      await removeFolder(folder);
      await until(recorded, () => !recorded.inbox.status().reachable);
      await mkdir(folder);
      await writeFile(join(folder, 'w2.pdf'), bytes);
      await until(recorded, () => recorded.inbox.status().reachable);
      await putFile(folder, 'sentinel.pdf');
      await recorded.added('sentinel.pdf');
      expect(recorded.addedCount('w2.pdf')).toBe(1);
      expect(recorded.events.some((e) => e.type === 'removed')).toBe(false);
      // The lock went with the folder: the inbox holds it again.
      expect((await stat(join(folder, '.vita-inbox.lock'))).isFile()).toBe(true);
    });
  }

  it('withdraws a scan deleted while the folder was away', async () => {
    const recorded = await start({ mode: 'poll' });
    await putFile(folder, 'w2.pdf');
    const scan = await recorded.added('w2.pdf');
    await rename(folder, join(root, 'away'));
    await until(recorded, () => !recorded.inbox.status().reachable);
    await removeFolder(join(root, 'away', 'w2.pdf'));
    await rename(join(root, 'away'), folder);
    await recorded.next((e): e is InboxEvent => e.type === 'removed' && e.id === scan.id);
    expect(recorded.inbox.list()).toEqual([]);
  });
});

describe('half-written and damaged scans', () => {
  it('never offers a PDF cut short; after the wait it is a damaged scan, listed by name and left alone', async () => {
    const recorded = await start();
    const path = await truncatedPdf('cut.pdf');
    const before = await readFile(path);
    await recorded.next(isProblem('damaged', 'cut.pdf'));
    expect(recorded.addedCount('cut.pdf')).toBe(0);
    expect(recorded.inbox.list()).toEqual([]);
    expect(recorded.inbox.notices()).toMatchObject([
      { kind: 'damaged', name: 'cut.pdf', relPath: 'cut.pdf' },
    ]);
    expect(await readFile(path)).toEqual(before);
  });

  it('offers a scan whose end arrives before the wait is over (a stalled writer)', async () => {
    const recorded = await start({ damagedAfterMs: 20_000 });
    const whole = await testPdf('stalled');
    const path = join(folder, 'stalled.pdf');
    await writeFile(path, whole.subarray(0, 200));
    // Written after the half PDF, settled after it: by then the half one held still long enough.
    await putFile(folder, 'sentinel.pdf');
    await recorded.added('sentinel.pdf');
    expect(recorded.addedCount('stalled.pdf')).toBe(0);
    await writeFile(path, whole);
    const scan = await recorded.added('stalled.pdf');
    expect(scan.size).toBe(whole.length);
  });

  it('an image without its end is damaged too', async () => {
    const recorded = await start();
    const jpeg = await readFile(await putFile(root, 'whole.jpg'));
    await writeFile(join(folder, 'photo.jpg'), jpeg.subarray(0, jpeg.length - 40));
    await recorded.next(isProblem('damaged', 'photo.jpg'));
    expect(recorded.addedCount('photo.jpg')).toBe(0);
  });
});

describe('nothing retried forever', () => {
  it('a duplicate and a damaged scan dismissed stay dismissed after a restart', async () => {
    let recorded = await start();
    await putFile(folder, 'w2.pdf', 'same');
    const original = await recorded.added('w2.pdf');
    await recorded.inbox.markUploaded(original.id);
    await putFile(folder, 'w2 again.pdf', 'same');
    await truncatedPdf('cut.pdf');
    const again = await recorded.added('w2 again.pdf');
    await recorded.next(isProblem('damaged', 'cut.pdf'));
    const notices = recorded.inbox.notices();
    expect(notices).toMatchObject([
      { kind: 'duplicate', name: 'w2 again.pdf', duplicateOf: 'w2.pdf' },
      { kind: 'damaged', name: 'cut.pdf' },
    ]);
    for (const notice of notices) await recorded.inbox.dismiss(notice.id);
    expect(recorded.inbox.notices()).toEqual([]);
    expect(recorded.inbox.get(again.id)).toBeUndefined();

    recorded = await restart(recorded);
    await putFile(folder, 'sentinel.pdf');
    await recorded.added('sentinel.pdf');
    // A damaged file written after the restart: once it is listed, the wait is over for cut.pdf too.
    await truncatedPdf('later cut.pdf');
    await recorded.next(isProblem('damaged', 'later cut.pdf'));
    expect(recorded.addedCount('w2 again.pdf')).toBe(0);
    expect(recorded.events.filter((e) => e.type === 'problem')).toHaveLength(1);
    expect(recorded.inbox.notices()).toMatchObject([{ name: 'later cut.pdf' }]);
    await recorded.inbox.dismiss(recorded.inbox.notices()[0]?.id ?? '');
    expect(recorded.inbox.notices()).toEqual([]);
    expect(await readdir(folder)).toEqual(expect.arrayContaining(['w2 again.pdf', 'cut.pdf']));
  });

  it('a new scan saved under a dismissed name is offered (other bytes)', async () => {
    const recorded = await start();
    await truncatedPdf('cut.pdf');
    await recorded.next(isProblem('damaged', 'cut.pdf'));
    await recorded.inbox.dismiss(recorded.inbox.notices()[0]?.id ?? '');
    await putFile(folder, 'cut.pdf', 'scanned again');
    await recorded.added('cut.pdf');
  });

  it('set to move: duplicates go to duplicates/ and damaged scans to could-not-read/, never deleted', async () => {
    const recorded = await start({ problemScans: 'move' });
    await putFile(folder, 'w2.pdf', 'same');
    const original = await recorded.added('w2.pdf');
    await recorded.inbox.markUploaded(original.id);
    const copy = await readFile(await putFile(folder, 'desk/w2 again.pdf', 'same'));
    const cut = await readFile(await truncatedPdf('cut.pdf'));
    const moved = await recorded.next(isProblem('duplicate', 'desk/w2 again.pdf'));
    expect(moved.movedTo).toBe('duplicates/desk/w2 again.pdf');
    await recorded.next(isProblem('damaged', 'cut.pdf'));
    expect(await readFile(join(folder, 'duplicates', 'desk', 'w2 again.pdf'))).toEqual(copy);
    expect(await readFile(join(folder, 'could-not-read', 'cut.pdf'))).toEqual(cut);
    expect(await stat(join(folder, 'cut.pdf')).catch(() => null)).toBeNull();
    expect(recorded.addedCount('desk/w2 again.pdf')).toBe(0);
    expect(recorded.inbox.notices()).toEqual([]);
  });
});
