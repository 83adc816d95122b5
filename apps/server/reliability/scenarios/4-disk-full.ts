/**
 * Disk full: the file store (`DATA_DIR/files`) on a small tmpfs (the database stays on the normal
 * disk). Uploads go on until the disk is full: the upload that does not fit must answer 507 with a
 * clear message, nothing partial may be listed or left behind, reads keep working, and once space is
 * freed (documents deleted through the API) uploads work again. Mounting needs root; elsewhere the
 * scenario says it did not run.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { isApiError } from '@vita-docs/core';
import {
  download,
  filesUnder,
  freshDataDir,
  MB,
  newClient,
  randomPdf,
  setUpProgramme,
  sha256,
  startServer,
  upload,
  type Browser,
  type Row,
  type Scenario,
} from '../harness.js';

const run = promisify(execFile);
const DISK_MB = 6;
const DOC_TYPE = 'Banking Info';

export const scenario: Scenario = {
  name: 'Disk full',
  async run({ log }): Promise<Row> {
    if (process.getuid?.() !== 0) {
      return { scenario: this.name, done: 'not run: mounting a small tmpfs needs root', held: '', broke: '' };
    }
    const dataDir = await freshDataDir('disk-full');
    const files = path.join(dataDir, 'files');
    await fs.mkdir(files, { mode: 0o700 });
    await run('mount', ['-t', 'tmpfs', '-o', `size=${DISK_MB}m,mode=0700`, 'tmpfs', files]);
    const server = await startServer({ dataDir, env: { MAX_UPLOAD_MB: '2' } });
    const problems: string[] = [];
    try {
      const { volunteers } = await setUpProgramme(server.url, 1);
      const volunteer = volunteers[0] as Browser;
      const clientId = await newClient(volunteer, 'Disk');
      const stored = new Map<string, string>();
      let refusal: { status: number; message: string } | undefined;
      for (let i = 0; i < 20 && !refusal; i += 1) {
        const bytes = randomPdf(MB);
        try {
          const key = await upload(volunteer, clientId, DOC_TYPE, `page-${i}.pdf`, bytes);
          stored.set(key, sha256(bytes));
        } catch (error) {
          refusal = isApiError(error)
            ? { status: error.status, message: error.message }
            : { status: 0, message: String(error) };
        }
      }
      log(
        `${stored.size} uploads of 1 MB fitted; then ${refusal?.status ?? 'none'} ${refusal?.message ?? ''}`,
      );
      if (!refusal) problems.push(`the ${DISK_MB} MB disk never filled`);
      else if (refusal.status !== 507 || !/out of storage space/.test(refusal.message)) {
        problems.push(`the upload that did not fit answered ${refusal.status} ${refusal.message}`);
      }

      // Nothing partial: the list is exactly what was acknowledged, with the right bytes; no temp file stays.
      const listed = async () =>
        (await volunteer.api.listDocs({ params: { id: clientId }, query: { docType: DOC_TYPE } })).items;
      const items = await listed();
      if (items.length !== stored.size || items.some((item) => stored.get(item.key) !== item.sha256)) {
        problems.push(`listed ${items.length}, acknowledged ${stored.size}`);
      }
      const temp = await filesUnder(path.join(files, '.tmp'));
      if (temp.length > 0) problems.push(`${temp.length} temp files left behind`);

      // Reads keep working on a full disk.
      let reads = 0;
      for (const item of items) {
        const { url } = await volunteer.api.presignView({ body: { key: item.key } });
        if (sha256(await download(volunteer, url)) === item.sha256) reads += 1;
      }
      const zip = await volunteer.api.downloadAll({ params: { id: clientId } });
      const zipBytes = (await zip.arrayBuffer()).byteLength;
      if (reads !== items.length) problems.push(`${items.length - reads} files could not be read back`);

      // Space freed through the API: uploads work again.
      const freed = items.slice(0, 3).map((item) => item.key);
      await volunteer.api.deleteDocs({ body: { keys: freed } });
      const again = await upload(volunteer, clientId, DOC_TYPE, 'after-freeing.pdf', randomPdf(MB)).then(
        () => 'ok',
        (error: unknown) => String(error),
      );
      if (again !== 'ok') problems.push(`an upload after freeing space failed: ${again}`);
      if (server.exited()) problems.push('the server exited');

      return {
        scenario: this.name,
        done: `file store on a ${DISK_MB} MB tmpfs, 1 MB uploads until it was full (${stored.size} fitted), reads, 3 deleted, one more upload`,
        held: problems.length
          ? ''
          : `the upload that did not fit answered 507 "${/"error":"([^"]*)"/.exec(refusal?.message ?? '')?.[1] ?? refusal?.message ?? ''}"; the list held exactly the ${stored.size} acknowledged files, no temp file left; every file read back and the ${(zipBytes / MB).toFixed(1)} MB ZIP streamed on the full disk; after deleting 3 the next upload worked`,
        broke: problems.join('; '),
      };
    } finally {
      await server.stop();
      await run('umount', [files]).catch(() => undefined);
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  },
};
