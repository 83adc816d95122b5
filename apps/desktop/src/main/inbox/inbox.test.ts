import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, readFile, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInbox } from './inbox.js';
import { putFile, removeFolder, startRecorded, tempFolder, type RecordedInbox } from './test-support.js';

let folder: string;
const open: RecordedInbox[] = [];

beforeEach(async () => {
  folder = await tempFolder();
});

afterEach(async () => {
  for (const recorded of open.splice(0)) await recorded.inbox.close();
  await removeFolder(folder);
});

async function start(options: Parameters<typeof startRecorded>[0] = { folder }): Promise<RecordedInbox> {
  const recorded = await startRecorded(options);
  open.push(recorded);
  return recorded;
}

async function restart(
  previous: RecordedInbox,
  options: Parameters<typeof startRecorded>[0] = { folder },
): Promise<RecordedInbox> {
  await previous.inbox.close();
  open.splice(open.indexOf(previous), 1);
  return start(options);
}

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * A slow scanner in another process (so a busy test process cannot pause it): writes a real PDF in
 * 10 chunks, 500 ms apart, pausing 1.6 s halfway (longer than the inbox's 1 s stability window, so
 * half a PDF sits unchanged), 6 s in all. Resolves with the bytes' sha256 on exit.
 */
async function slowScanner(path: string): Promise<{ sha256: string; size: number }> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.addPage([612, 792]);
  doc.setTitle('slow scan '.repeat(6000));
  const bytes = Buffer.from(await doc.save());
  // Hidden, so the inbox never takes it for a scan.
  const source = join(dirname(path), '.slow-source');
  await writeFile(source, bytes);
  const script = `
    const fs = require('node:fs');
    const bytes = fs.readFileSync(process.argv[2]);
    const fd = fs.openSync(process.argv[1], 'w');
    const size = Math.ceil(bytes.length / 10);
    let n = 0;
    const tick = () => {
      fs.writeSync(fd, bytes.subarray(n * size, (n + 1) * size));
      n += 1;
      if (n < 10) setTimeout(tick, n === 5 ? 1600 : 500); else fs.closeSync(fd);
    };
    tick();`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, path, source], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`writer exited with ${code}`));
      resolve({ sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length });
    });
  });
}

describe('scanner inbox', () => {
  it('offers a PDF written slowly in chunks (pausing halfway) exactly once, and only when complete', async () => {
    const recorded = await start();
    const written = slowScanner(join(folder, 'slow scan.pdf'));
    const scan = await recorded.added('slow scan.pdf');
    const whole = await written;
    expect(scan.size).toBe(whole.size);
    expect(scan.sha256).toBe(whole.sha256);
    expect(scan.status).toBe('waiting');

    // A later file settling proves the first had every chance to be (wrongly) offered again.
    await putFile(folder, 'later.pdf');
    await recorded.added('later.pdf');
    expect(recorded.addedCount('slow scan.pdf')).toBe(1);
    expect(recorded.inbox.list().map((s) => s.name)).toEqual(['slow scan.pdf', 'later.pdf']);
  });

  it('offers files already in the folder and in nested folders, including folders made later', async () => {
    await putFile(folder, 'before.pdf');
    await putFile(folder, 'a/b/c/deep.jpg');
    const recorded = await start();
    await recorded.added('before.pdf');
    const deep = await recorded.added('a/b/c/deep.jpg');
    expect(deep.name).toBe('deep.jpg');
    expect(deep.path).toBe(join(folder, 'a', 'b', 'c', 'deep.jpg'));

    await putFile(folder, 'new folder/inner/scan.TIFF');
    await recorded.added('new folder/inner/scan.TIFF');
  });

  it('ignores hidden, temporary, system, unsupported files and the uploaded folder', async () => {
    const recorded = await start();
    const ignored = [
      'scan.pdf.~tmp',
      '.~tmp',
      'Thumbs.db',
      '.DS_Store',
      '~$letter.pdf',
      '.hidden.pdf',
      'download.pdf.crdownload',
      'firefox.pdf.part',
      'scan.tmp',
      'notes.txt',
      'uploaded/old.pdf',
      '.cache/inside.pdf',
    ];
    for (const name of ignored) await putFile(folder, name);
    // Two sentinels written after the ignored files: once the second settles, any ignored file
    // would have been offered already.
    await putFile(folder, 'sentinel-1.pdf');
    await recorded.added('sentinel-1.pdf');
    await putFile(folder, 'sentinel-2.png');
    await recorded.added('sentinel-2.png');
    expect(recorded.inbox.list().map((s) => s.relPath)).toEqual(['sentinel-1.pdf', 'sentinel-2.png']);
  });

  it('never offers a link: x.pdf pointing at a file outside the folder stays unread', async () => {
    const outside = await tempFolder();
    try {
      await writeFile(join(outside, 'secret.pdf'), "%PDF-1.7 someone else's file");
      const recorded = await start();
      await symlink(join(outside, 'secret.pdf'), join(folder, 'x.pdf'));
      await putFile(folder, 'sentinel.pdf');
      await recorded.added('sentinel.pdf');
      expect(recorded.inbox.list().map((s) => s.relPath)).toEqual(['sentinel.pdf']);
    } finally {
      await removeFolder(outside);
    }
  });

  it('offers a temporary file once it is renamed to its final name', async () => {
    const recorded = await start();
    const temp = await putFile(folder, 'scan-0001.pdf.~tmp');
    await rename(temp, join(folder, 'scan-0001.pdf'));
    const scan = await recorded.added('scan-0001.pdf');
    expect(scan.name).toBe('scan-0001.pdf');
  });

  it('flags a duplicate by content, of a waiting scan and of an uploaded one', async () => {
    const recorded = await start();
    const original = await putFile(folder, 'w2.pdf', 'same bytes');
    const first = await recorded.added('w2.pdf');
    expect(first.duplicateOf).toBeUndefined();

    await copyFile(original, join(folder, 'copy of w2.pdf'));
    const copy = await recorded.added('copy of w2.pdf');
    expect(copy.duplicateOf).toEqual({ id: first.id, name: 'w2.pdf', uploaded: false });

    await recorded.inbox.markUploaded(first.id);
    expect(recorded.inbox.get(copy.id)?.duplicateOf).toEqual({
      id: first.id,
      name: 'w2.pdf',
      uploaded: true,
    });

    await putFile(folder, 'sub/again.pdf', 'same bytes');
    const again = await recorded.added('sub/again.pdf');
    expect(again.duplicateOf).toMatchObject({ id: first.id, uploaded: true });
  });

  it('re-offers a waiting scan after a restart under the same id, and never an uploaded one', async () => {
    let recorded = await start();
    await putFile(folder, 'pending.pdf');
    await putFile(folder, 'sent.pdf');
    const pending = await recorded.added('pending.pdf');
    const sent = await recorded.added('sent.pdf');
    await recorded.inbox.markUploaded(sent.id);

    recorded = await restart(recorded);
    const again = await recorded.added('pending.pdf');
    expect(again.id).toBe(pending.id);
    await putFile(folder, 'sentinel.pdf');
    await recorded.added('sentinel.pdf');
    expect(recorded.inbox.list().map((s) => s.relPath)).toEqual(['pending.pdf', 'sentinel.pdf']);
    expect(recorded.events.some((e) => e.type === 'added' && e.scan.relPath.startsWith('uploaded/'))).toBe(
      false,
    );
  });

  it('moves a confirmed upload into uploaded/, keeping its sub-folder and a free name', async () => {
    const recorded = await start();
    const bytes = await readFile(await putFile(folder, 'desk 2/scan.pdf', 'first'));
    await putFile(folder, 'uploaded/desk 2/scan.pdf', 'an earlier scan of the same name');
    const scan = await recorded.added('desk 2/scan.pdf');
    await recorded.inbox.markUploading(scan.id, 'client/W-2');
    await recorded.inbox.markUploaded(scan.id);
    expect(await exists(join(folder, 'desk 2', 'scan.pdf'))).toBe(false);
    expect(await readFile(join(folder, 'uploaded', 'desk 2', 'scan (1).pdf'))).toEqual(bytes);
    expect(recorded.inbox.list()).toEqual([]);
    expect(recorded.events.at(-1)).toEqual({ type: 'removed', id: scan.id, reason: 'uploaded' });
  });

  it('deletes a confirmed upload when set to delete', async () => {
    const recorded = await start({ folder, afterUpload: 'delete' });
    const path = await putFile(folder, 'scan.png');
    const scan = await recorded.added('scan.png');
    await recorded.inbox.markUploaded(scan.id);
    expect(await exists(path)).toBe(false);
    expect(await exists(join(folder, 'uploaded'))).toBe(false);
  });

  it('never moves or deletes a scan whose upload failed, and keeps the error across a restart', async () => {
    let recorded = await start({ folder, afterUpload: 'delete' });
    const path = await putFile(folder, 'tax form.jpg');
    const before = await readFile(path);
    const scan = await recorded.added('tax form.jpg');
    await recorded.inbox.markUploading(scan.id, 'client/W-2');
    const failed = await recorded.inbox.markFailed(scan.id, 'Upload failed: 500');
    expect(failed).toMatchObject({ status: 'failed', error: 'Upload failed: 500' });
    expect(await readFile(path)).toEqual(before);

    recorded = await restart(recorded);
    const again = await recorded.added('tax form.jpg');
    expect(again).toMatchObject({ id: scan.id, status: 'failed', error: 'Upload failed: 500' });
    expect(await readFile(path)).toEqual(before);
    expect(await exists(join(folder, 'uploaded'))).toBe(false);
  });

  it('re-offers a scan whose upload was cut off by a stop, with the attempt to check', async () => {
    let recorded = await start();
    await putFile(folder, 'scan.pdf');
    const scan = await recorded.added('scan.pdf');
    await recorded.inbox.markUploading(scan.id, 'client/W-2');

    recorded = await restart(recorded);
    const again = await recorded.added('scan.pdf');
    expect(again).toMatchObject({ id: scan.id, status: 'waiting', attempt: { target: 'client/W-2' } });
  });

  it('finishes the move of a scan confirmed just before a crash instead of offering it again', async () => {
    const path = await putFile(folder, 'scan.pdf');
    const bytes = await readFile(path);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const { mtimeMs, size } = await stat(path);
    const entry = {
      id: 'x1',
      relPath: 'scan.pdf',
      size,
      mtimeMs,
      sha256,
      firstSeenAt: 1,
      status: 'uploaded',
      uploadedAt: 2,
      fileDone: false,
    };
    await writeFile(join(folder, '.vita-inbox.json'), JSON.stringify({ version: 1, entries: [entry] }));

    const recorded = await start();
    await putFile(folder, 'sentinel.pdf');
    await recorded.added('sentinel.pdf');
    expect(recorded.addedCount('scan.pdf')).toBe(0);
    expect(await readFile(join(folder, 'uploaded', 'scan.pdf'))).toEqual(bytes);
  });

  it('forgets a scan deleted from the folder, and survives an unreadable ledger', async () => {
    await writeFile(join(folder, '.vita-inbox.json'), '{ not json');
    const recorded = await start();
    expect(recorded.events[0]).toMatchObject({ type: 'error' });
    const path = await putFile(folder, 'scan.pdf');
    const scan = await recorded.added('scan.pdf');
    await removeFolder(path);
    await recorded.next(
      (e): e is Extract<typeof e, { type: 'removed' }> => e.type === 'removed' && e.id === scan.id,
    );
    expect(recorded.inbox.list()).toEqual([]);
    await expect(recorded.inbox.markUploaded(scan.id)).rejects.toThrow('no longer in the inbox');
  });

  it('lets only one intake watch a folder, and takes over a lock left by a crashed one', async () => {
    const first = await start();
    await expect(createInbox({ folder }).start()).rejects.toThrow('already watching this scanner folder');
    await first.inbox.close();
    open.splice(open.indexOf(first), 1);

    // A process that has exited cannot hold the folder.
    const gone = spawn(process.execPath, ['-e', '']);
    const deadPid = await new Promise<number>((resolve) => gone.on('exit', () => resolve(gone.pid ?? 0)));
    await writeFile(
      join(folder, '.vita-inbox.lock'),
      JSON.stringify({ pid: deadPid, host: hostname(), startedAt: Date.now() }),
    );
    const second = await start();
    await putFile(folder, 'scan.pdf');
    await second.added('scan.pdf');
  });
});
