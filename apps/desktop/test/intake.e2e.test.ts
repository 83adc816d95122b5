/**
 * End to end without Electron: the headless intake against the real server (spawned from its
 * sources), a real scanner folder, real sign-in with the emailed code from the dev outbox.
 */
import { readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFetchPutFile, uploadDocument } from '@vita-docs/core';
import type { ApiClient } from '@vita-docs/core';
import type { TestServer } from '@vita-docs/test-server';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { attemptTarget, startIntake, type IntakeReport } from '../src/cli/uploader.js';
import { removeFolder, startRecorded, tempFolder, testPdf } from '../src/main/inbox/test-support.js';
import type { ServerFetch } from '../src/main/server-fetch.js';
import { EMAIL, PIN, startDeskServer } from './desk-server.js';
import { spawnIntake, type IntakeProcess } from './intake-process.js';

let server: TestServer;
let api: ApiClient;
let transport: ServerFetch;
let clientId: string;
let folder: string;
const running: IntakeProcess[] = [];

/** A one-page PDF; the title makes each one's bytes (and sha256) its own, so none is a duplicate. */
const pdf = (title: string) => testPdf(title);
const image = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } });

/** Drops a scan the way a scanner does: written under a temporary name, then renamed. */
async function scan(name: string, bytes: Uint8Array): Promise<void> {
  const temp = join(folder, `${name}.~tmp`);
  await writeFile(temp, bytes);
  await rename(temp, join(folder, name));
}

/** The stored bytes of a document, through a presigned download like the web app's. */
async function download(docType: string, filename: string): Promise<string> {
  const { items } = await api.listDocs({ params: { id: clientId }, query: { docType } });
  const item = items.find((i) => i.filename === filename);
  if (!item) throw new Error(`${filename} is not in ${docType}`);
  const { url } = await api.presignGet({ body: { key: item.key } });
  const response = await fetch(new URL(url, server.url));
  return Buffer.from(await response.arrayBuffer()).toString('latin1');
}

async function listing(docType: string) {
  const { items } = await api.listDocs({ params: { id: clientId }, query: { docType } });
  return items.map((item) => ({ filename: item.filename, contentType: item.contentType }));
}

/** Starts the intake and signs it in; resolves once it says how it follows the folder (`ready`). */
async function signedInIntake(
  extra: string[] = [],
  category = 'W-2',
  ready = /^Watching /,
): Promise<IntakeProcess> {
  const intake = spawnIntake([
    '--',
    '--server',
    server.url,
    '--folder',
    folder,
    '--client',
    clientId,
    '--category',
    category,
    '--email',
    EMAIL,
    ...extra,
  ]);
  running.push(intake);
  const asked = Date.now() - 1000;
  intake.answer(PIN);
  await intake.note(/Code from the email/);
  intake.answer(await server.latestCode(EMAIL, { after: asked, timeoutMs: 30_000 }));
  await intake.note(ready);
  return intake;
}

beforeAll(async () => {
  ({ server, transport, api, clientId } = await startDeskServer());
  await api.addDocType({ params: { id: clientId }, body: { template: '1099-NEC' } });
  folder = await tempFolder('vita-intake-');
}, 120_000);

afterEach(async () => {
  // A failed test must not leave its intake watching the folder for the next one.
  for (const intake of running.splice(0)) await intake.interrupt();
});

afterAll(async () => {
  await server?.stop({ keepData: false });
  if (folder) await removeFolder(folder);
});

describe('headless intake against the real server', () => {
  it('uploads a PDF, a JPEG and a PNG into the category, converting the images, and moves them to uploaded/', async () => {
    const intake = await signedInIntake();
    await scan('w2-page1.pdf', await pdf('w2 page 1'));
    await scan('w2-photo.jpg', await image(1200, 1600).jpeg().toBuffer());
    await scan('w2-wide.png', await image(1600, 900).png().toBuffer());

    await intake.line(/^uploaded w2-page1\.pdf -> w2-page1\.pdf/);
    await intake.line(/^uploaded w2-photo\.jpg -> w2-photo\.pdf/);
    await intake.line(/^uploaded w2-wide\.png -> w2-wide\.pdf/);

    expect((await listing('W-2')).sort((a, b) => a.filename.localeCompare(b.filename))).toEqual([
      { filename: 'w2-page1.pdf', contentType: 'application/pdf' },
      { filename: 'w2-photo.pdf', contentType: 'application/pdf' },
      { filename: 'w2-wide.pdf', contentType: 'application/pdf' },
    ]);
    // The stored files really are PDFs wrapping the image (page geometry is core's converter's, tested there).
    for (const name of ['w2-photo.pdf', 'w2-wide.pdf']) {
      const stored = await download('W-2', name);
      expect(stored.startsWith('%PDF-')).toBe(true);
      expect(stored).toMatch(/\/Subtype\s*\/Image/);
    }
    expect((await readdir(join(folder, 'uploaded'))).sort()).toEqual([
      'w2-page1.pdf',
      'w2-photo.jpg',
      'w2-wide.png',
    ]);
    expect((await readdir(folder)).filter((name) => !name.startsWith('.') && name !== 'uploaded')).toEqual(
      [],
    );

    expect(await intake.interrupt()).toBe(0);
    expect(intake.stderr.join('\n')).toContain('Stopped.');
  }, 240_000);

  it('keeps images as they are with --no-convert', async () => {
    const intake = await signedInIntake(['--no-convert'], '1099-NEC');
    await scan('nec.jpg', await image(800, 600).jpeg().toBuffer());
    await intake.line(/^uploaded nec\.jpg -> nec\.jpg/);
    expect(await listing('1099-NEC')).toEqual([{ filename: 'nec.jpg', contentType: 'image/jpeg' }]);
    expect(await intake.interrupt()).toBe(0);
  }, 240_000);

  it('with --poll, polls the folder every 2 s and uploads a scan written there', async () => {
    const intake = await signedInIntake(['--poll'], 'W-2', /^Polling /);
    expect(intake.stderr).toContain(
      `Polling ${folder} every 2 s for scans -> client ${clientId}, "W-2". Ctrl-C to stop.`,
    );
    await scan('polled.pdf', await pdf('polled'));
    await intake.line(/^uploaded polled\.pdf -> polled\.pdf/);
    expect((await listing('W-2')).filter((item) => item.filename === 'polled.pdf')).toHaveLength(1);
    expect((await stat(join(folder, 'uploaded', 'polled.pdf'))).isFile()).toBe(true);
    expect(await intake.interrupt()).toBe(0);
  }, 240_000);

  it('keeps scans while the server is down and uploads each exactly once when it is back', async () => {
    const intake = await signedInIntake();
    await server.stop();
    await scan('late-1.pdf', await pdf('late 1'));
    await scan('late-2.png', await image(640, 480).png().toBuffer());
    await intake.line(/^failed late-1\.pdf: /);
    await intake.line(/^failed late-2\.png: /);
    expect((await stat(join(folder, 'late-1.pdf'))).isFile()).toBe(true);
    expect((await stat(join(folder, 'late-2.png'))).isFile()).toBe(true);

    await server.restart();
    await intake.line(/^uploaded late-1\.pdf -> late-1\.pdf/, 150_000);
    await intake.line(/^uploaded late-2\.png -> late-2\.pdf/, 150_000);
    const names = (await listing('W-2')).map((item) => item.filename);
    expect(names.filter((name) => name === 'late-1.pdf')).toHaveLength(1);
    expect(names.filter((name) => name === 'late-2.pdf')).toHaveLength(1);
    expect(intake.stdout.filter((line) => line.startsWith('uploaded late-'))).toHaveLength(2);
    expect(await intake.interrupt()).toBe(0);
  }, 300_000);

  it('after a restart of the intake, uploads what arrived meanwhile and repeats nothing', async () => {
    await scan('while-off.pdf', await pdf('while off'));
    const before = (await listing('W-2')).length;
    const intake = await signedInIntake();
    await intake.line(/^uploaded while-off\.pdf -> while-off\.pdf/);
    await scan('sentinel.pdf', await pdf('sentinel'));
    await intake.line(/^uploaded sentinel\.pdf/);
    expect(intake.stdout.filter((line) => line.startsWith('uploaded'))).toHaveLength(2);
    expect((await listing('W-2')).length).toBe(before + 2);
    expect(await intake.interrupt()).toBe(0);
  }, 240_000);

  it('a scan the server refuses stays in the folder with its reason and is not sent again', async () => {
    const intake = await signedInIntake();
    // AVIF bytes named .heic: whole to the desk (an ISO-BMFF image with its header), a type the server refuses.
    await scan('not-a.heic', Buffer.from('\0\0\0\x18ftypavif\0\0\0\0mif1avif', 'latin1'));
    const refused = await intake.line(/^failed not-a\.heic: /);
    expect(refused).not.toContain('retrying');
    await scan('after.pdf', await pdf('after the refusal'));
    await intake.line(/^uploaded after\.pdf/);
    expect(intake.stdout.filter((line) => line.startsWith('failed not-a.heic'))).toHaveLength(1);
    expect((await stat(join(folder, 'not-a.heic'))).isFile()).toBe(true);
    expect((await listing('W-2')).map((item) => item.filename)).not.toContain('not-a.heic');
    expect(await intake.interrupt()).toBe(0);
    await rm(join(folder, 'not-a.heic')); // the next tests count their own lines
  }, 120_000);

  it('refuses a category the client does not have, before watching anything', async () => {
    const intake = spawnIntake([
      '--server',
      server.url,
      '--folder',
      folder,
      '--client',
      clientId,
      '--category',
      'Nope',
      '--email',
      EMAIL,
    ]);
    running.push(intake);
    const asked = Date.now() - 1000;
    intake.answer(PIN);
    await intake.note(/Code from the email/);
    intake.answer(await server.latestCode(EMAIL, { after: asked, timeoutMs: 30_000 }));
    expect(await intake.exited).toBe(1);
    expect(intake.stderr.join('\n')).toContain('no category "Nope"');
  }, 120_000);

  it('does not upload twice a scan whose upload reached the server just before the desk stopped', async () => {
    const own = await tempFolder('vita-cut-');
    const target = { clientId, docType: '1099-NEC' };
    const putFile = createFetchPutFile(transport.fetch);
    const upload = (file: File) => uploadDocument(api, putFile, target, file);
    const list = async () =>
      (await api.listDocs({ params: { id: clientId }, query: { docType: target.docType } })).items;
    try {
      // First run: the upload goes through, then the desk stops before the server's listing confirmed it.
      const first = await startRecorded({ folder: own });
      await writeFile(join(own, 'cut.pdf'), await pdf('cut'));
      const offered = await first.added('cut.pdf');
      await first.inbox.markUploading(offered.id, attemptTarget(target));
      await upload(new File([await readFile(offered.path)], 'cut.pdf', { type: 'application/pdf' }));
      await first.inbox.close();

      const second = await startRecorded({ folder: own });
      await second.added('cut.pdf');
      const reports: IntakeReport[] = [];
      const intake = startIntake({
        inbox: second.inbox,
        target,
        api,
        putFile,
        report: (r) => reports.push(r),
        onFatal: (e) => reports.push({ kind: 'skipped', scan: offered, reason: e.message }),
      });
      await intake.idle();
      await intake.stop();
      await second.inbox.close();
      expect(reports).toMatchObject([{ kind: 'already-there', uploadedAs: 'cut.pdf' }]);
      expect((await list()).filter((item) => item.filename === 'cut.pdf')).toHaveLength(1);
      expect((await stat(join(own, 'uploaded', 'cut.pdf'))).isFile()).toBe(true);
    } finally {
      await removeFolder(own);
    }
  }, 120_000);
});
