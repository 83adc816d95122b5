/**
 * End to end without Electron: the headless intake against the real server (spawned from its
 * sources), a real scanner folder, real sign-in with the emailed code from the dev outbox
 * (intake-world.ts). What it uploads and refuses; outages and restarts are intake-outages.e2e.test.ts.
 */
import { readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFetchPutFile, uploadDocument } from '@vita-docs/core';
import { describe, expect, it } from 'vitest';
import { attemptTarget, startIntake, type IntakeReport } from '../src/cli/uploader.js';
import { removeFolder, startRecorded, tempFolder } from '../src/main/inbox/test-support.js';
import { EMAIL, PIN } from './desk-server.js';
import { image, intakeWorld, pdf } from './intake-world.js';

const world = intakeWorld();
const { signedInIntake, scan, listing } = world;

/** The stored bytes of a document, through a presigned download like the web app's. */
async function download(docType: string, filename: string): Promise<string> {
  const { items } = await world.api.listDocs({ params: { id: world.clientId }, query: { docType } });
  const item = items.find((i) => i.filename === filename);
  if (!item) throw new Error(`${filename} is not in ${docType}`);
  const { url } = await world.api.presignGet({ body: { key: item.key } });
  const response = await fetch(new URL(url, world.server.url));
  return Buffer.from(await response.arrayBuffer()).toString('latin1');
}

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
    expect((await readdir(join(world.folder, 'uploaded'))).sort()).toEqual([
      'w2-page1.pdf',
      'w2-photo.jpg',
      'w2-wide.png',
    ]);
    expect(
      (await readdir(world.folder)).filter((name) => !name.startsWith('.') && name !== 'uploaded'),
    ).toEqual([]);

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
      `Polling ${world.folder} every 2 s for scans -> client ${world.clientId}, "W-2". Ctrl-C to stop.`,
    );
    await scan('polled.pdf', await pdf('polled'));
    await intake.line(/^uploaded polled\.pdf -> polled\.pdf/);
    expect((await listing('W-2')).filter((item) => item.filename === 'polled.pdf')).toHaveLength(1);
    expect((await stat(join(world.folder, 'uploaded', 'polled.pdf'))).isFile()).toBe(true);
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
    expect((await stat(join(world.folder, 'not-a.heic'))).isFile()).toBe(true);
    expect((await listing('W-2')).map((item) => item.filename)).not.toContain('not-a.heic');
    expect(await intake.interrupt()).toBe(0);
    await rm(join(world.folder, 'not-a.heic')); // the next tests count their own lines
  }, 120_000);

  it('refuses a category the client does not have, before watching anything', async () => {
    const intake = world.spawn([
      '--server',
      world.server.url,
      '--folder',
      world.folder,
      '--client',
      world.clientId,
      '--category',
      'Nope',
      '--email',
      EMAIL,
    ]);
    const asked = Date.now() - 1000;
    intake.answer(PIN);
    await intake.note(/Code from the email/);
    intake.answer(await world.server.latestCode(EMAIL, { after: asked, timeoutMs: 30_000 }));
    expect(await intake.exited).toBe(1);
    expect(intake.stderr.join('\n')).toContain('no category "Nope"');
  }, 120_000);

  it('does not upload twice a scan whose upload reached the server just before the desk stopped', async () => {
    const own = await tempFolder('vita-cut-');
    const target = { clientId: world.clientId, docType: '1099-NEC' };
    const putFile = createFetchPutFile(world.transport.fetch);
    const upload = (file: File) => uploadDocument(world.api, putFile, target, file);
    const list = async () =>
      (await world.api.listDocs({ params: { id: world.clientId }, query: { docType: target.docType } }))
        .items;
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
        api: world.api,
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
