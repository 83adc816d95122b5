/**
 * `npm run backup` while uploads run, against the production build: every upload acknowledged
 * before the backup began is in it; the data directory wiped, the backup restored into an empty one
 * and the server started on it, every document is listed with its bytes and no session survives.
 * Whole server processes on embedded PostgreSQL clusters of their own: the second tier.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/backup/format.js';
import {
  ADMIN,
  backupCommand as command,
  download,
  freshDataDir,
  newClient,
  randomPdf,
  setUpProgramme,
  sha256,
  signIn,
  startServer,
  upload,
  type Browser,
} from '../../reliability/harness.js';

const DOC_TYPE = 'Banking Info';

/** Uploads one document after another until stopped; returns what was acknowledged, with when. */
function keepUploading(volunteer: Browser, clientId: string) {
  const acknowledged: Array<{ key: string; sha256: string; at: number }> = [];
  let running = true;
  const done = (async () => {
    for (let i = 0; running; i += 1) {
      const bytes = randomPdf(60_000 + i * 1_000);
      const key = await upload(volunteer, clientId, DOC_TYPE, `during-${i}.pdf`, bytes);
      acknowledged.push({ key, sha256: sha256(bytes), at: Date.now() });
    }
  })();
  return {
    acknowledged,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

describe('backup and restore', () => {
  it('backs up a running server while uploads run; restored into an empty DATA_DIR every document is listed with equal bytes, sessions are not', async () => {
    const dataDir = await freshDataDir('backup');
    const server = await startServer({ dataDir });
    const { volunteers } = await setUpProgramme(server.url, 2);
    const clients = await Promise.all(volunteers.map((v, i) => newClient(v, `Backup ${i}`)));
    for (let i = 0; i < 6; i += 1) {
      await upload(
        volunteers[i % 2] as Browser,
        clients[i % 2] as string,
        DOC_TYPE,
        `before-${i}.pdf`,
        randomPdf(80_000),
      );
    }
    const loops = volunteers.map((v, i) => keepUploading(v, clients[i] as string));
    while (loops.reduce((n, loop) => n + loop.acknowledged.length, 0) < 4)
      await new Promise((r) => setTimeout(r, 20));
    const folder = path.join(await freshDataDir('backup-folder'), 'backup');
    const began = Date.now();
    const taken = await command('backup', folder, dataDir);
    await Promise.all(loops.map((loop) => loop.stop()));
    await server.stop();
    expect(taken.stdout).toMatch(/storage key .* is NOT in the backup/);

    const manifest = JSON.parse(await fs.readFile(path.join(folder, 'manifest.json'), 'utf8')) as Manifest;
    const inManifest = new Map(manifest.documents.map((doc) => [doc.key, doc.sha256]));
    // Everything acknowledged before the backup began is in it, with its bytes' hash.
    const before = loops.flatMap((loop) => loop.acknowledged.filter((a) => a.at < began));
    expect(before.length).toBeGreaterThanOrEqual(4);
    for (const ack of before) expect(inManifest.get(ack.key)).toBe(ack.sha256);
    expect(manifest.tables.sessions).toBeUndefined();
    expect(manifest.tables.client_link_sessions).toBeUndefined();

    // A restore over a data directory in use is refused.
    const refused = await command('restore', folder, dataDir).catch(
      (error: { stderr: string; code: number }) => error,
    );
    expect(refused).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/Refusing to restore into .*: it is not empty/),
    });

    await fs.rm(dataDir, { recursive: true, force: true });
    // A table file the manifest does not list is not loaded (these rows would not even insert).
    await fs.writeFile(path.join(folder, 'database', 'sessions.jsonl'), '{"planted":true}\n');
    const restoredDir = await freshDataDir('restored');
    const restored = await command('restore', folder, restoredDir);
    expect(restored.stdout).toMatch(/Restored \d+ documents/);
    const again = await startServer({ dataDir: restoredDir });
    try {
      // Sessions were not restored: the old cookie is refused, everyone signs in again.
      const old = await fetch(`${again.url}/api/clients`, {
        headers: { cookie: (volunteers[0] as Browser).cookieHeader() },
      });
      expect(old.status).toBe(401);
      const admin = await signIn(again.url, ADMIN.email, ADMIN.pin);
      const listed: string[] = [];
      for (const clientId of clients) {
        const { items } = await admin.api.listDocs({
          params: { id: clientId },
          query: { docType: DOC_TYPE },
        });
        for (const item of items) {
          listed.push(item.key);
          const { url } = await admin.api.presignGet({ body: { key: item.key } });
          expect(sha256(await download(admin, url)), item.key).toBe(inManifest.get(item.key));
        }
      }
      expect(listed.sort()).toEqual([...inManifest.keys()].sort());
    } finally {
      await again.stop();
      await fs.rm(restoredDir, { recursive: true, force: true });
      await fs.rm(path.dirname(folder), { recursive: true, force: true });
    }
  }, 120_000);
});
