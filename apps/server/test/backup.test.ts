/**
 * `npm run restore` against the production build: crafted backups (paths leaving the folder, links,
 * planted rows and tables) refused before anything is written. A backup taken while uploads run and
 * restored is the second tier's (test/reliability/backup-under-load.test.ts).
 */
import { createHmac, hkdfSync } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../src/backup/format.js';
import {
  backupCommand as command,
  freshDataDir,
  newClient,
  randomPdf,
  setUpProgramme,
  sha256,
  startServer,
  STORAGE_KEY,
  upload,
  type Browser,
} from '../reliability/harness.js';

const DOC_TYPE = 'Banking Info';

/** The backup's authentication key, as the storage key gives it (what only the key's holder can make). */
const macKey = Buffer.from(
  hkdfSync('sha256', Buffer.from(STORAGE_KEY, 'base64'), Buffer.alloc(0), 'vita-docs/backup-mac/v1', 32),
);

/** Whether `file` exists (a link counts, whatever it points to). */
const exists = (file: string) =>
  fs.lstat(file).then(
    () => true,
    () => false,
  );

describe('a restore trusts nothing a backup says', () => {
  let work: string;
  let genuine: string;

  beforeAll(async () => {
    work = await freshDataDir('crafted');
    // The embedded PostgreSQL's own user (the server runs as root here) must reach the data directories below.
    await fs.chmod(work, 0o711);
    const dataDir = await freshDataDir('crafted-source');
    const server = await startServer({ dataDir });
    try {
      const { volunteers } = await setUpProgramme(server.url, 1);
      const volunteer = volunteers[0] as Browser;
      const clientId = await newClient(volunteer, 'Crafted');
      await upload(volunteer, clientId, DOC_TYPE, 'one.pdf', randomPdf(20_000));
      genuine = path.join(work, 'genuine');
      await command('backup', genuine, dataDir);
    } finally {
      await server.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
  afterAll(async () => {
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  /**
   * A copy of the genuine backup in a folder of its own (`<case>/b/backup`), changed by `change`; with
   * `reseal`, authenticated again with the storage key, as only someone holding that key could: what
   * is then refused is refused for itself, not for a MAC that no longer verifies.
   */
  async function crafted(
    name: string,
    change: (folder: string, manifest: Manifest) => Promise<void>,
    options: { reseal: boolean },
  ) {
    const base = path.join(work, name);
    const folder = path.join(base, 'b', 'backup');
    await fs.mkdir(path.dirname(folder), { recursive: true, mode: 0o711 });
    await fs.cp(genuine, folder, { recursive: true, verbatimSymlinks: true });
    const manifestFile = path.join(folder, 'manifest.json');
    const manifest = JSON.parse(await fs.readFile(manifestFile, 'utf8')) as Manifest;
    await change(folder, manifest);
    const bytes = `${JSON.stringify(manifest, null, 1)}\n`;
    await fs.writeFile(manifestFile, bytes);
    if (options.reseal) {
      await fs.writeFile(
        path.join(folder, 'manifest.mac'),
        `${createHmac('sha256', macKey).update(bytes).digest('hex')}\n`,
      );
    }
    return { base, folder };
  }

  /** Restores `folder` into `<case>/d/data`; the outcome, and everything found under `<case>/d` after. */
  async function restoreCase(base: string, folder: string) {
    const parent = path.join(base, 'd');
    await fs.mkdir(parent, { recursive: true, mode: 0o711 });
    const dataDir = path.join(parent, 'data');
    const outcome = await command('restore', folder, dataDir).then(
      (done) => ({ code: 0, stderr: done.stderr }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    const written = (await fs.readdir(parent, { recursive: true })).filter((entry) => entry !== 'data');
    const inDataDir = await fs.readdir(dataDir).catch(() => []);
    return { ...outcome, written, inDataDir };
  }

  const firstStored = (manifest: Manifest) => {
    const doc = manifest.documents[0];
    if (!doc?.stored) throw new Error('the genuine backup has no stored file');
    return { doc, stored: doc.stored };
  };

  /** Sets the first document's stored file to `bytes` at `place` under the name `entry`. */
  async function plantFile(manifest: Manifest, entry: string, place: string, bytes: Buffer) {
    const { stored } = firstStored(manifest);
    await fs.mkdir(path.dirname(place), { recursive: true });
    await fs.writeFile(place, bytes);
    stored.path = entry;
    stored.sha256 = sha256(bytes);
    stored.bytes = bytes.length;
  }

  it.each([
    ['a path leaving the folder', '../../x'],
    ['an absolute path', 'ABSOLUTE'],
  ])(
    'refuses a stored file at %s, naming the entry, and writes nothing anywhere',
    async (name, given) => {
      const bytes = randomPdf(5_000);
      const { base, folder } = await crafted(
        name.replaceAll(' ', '-'),
        async (backup, manifest) => {
          const entry = given === 'ABSOLUTE' ? path.join(path.dirname(path.dirname(backup)), 'abs-x') : given;
          // Where a restore that trusted it would read it from (and, for the absolute one, from both).
          await plantFile(manifest, entry, path.join(backup, 'files', entry), bytes);
          if (path.isAbsolute(entry)) await fs.writeFile(entry, bytes);
        },
        { reseal: true },
      );
      const manifest = JSON.parse(await fs.readFile(path.join(folder, 'manifest.json'), 'utf8')) as Manifest;
      const entry = firstStored(manifest).stored.path;
      const result = await restoreCase(base, folder);
      // `../../x` from the restored files folder is `<case>/d/x`: not there, nor anything else.
      expect(await exists(path.join(base, 'd', 'x'))).toBe(false);
      expect(result.written).toEqual([]);
      expect(result.inDataDir).toEqual([]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(entry);
      expect(result.stderr).toMatch(/Nothing was written/);
    },
    120_000,
  );

  it.each([
    ['a stored file that is a link', 'file'],
    ['a folder of stored files that is a link', 'folder'],
  ])(
    'refuses %s, naming the entry, and writes nothing',
    async (name, which) => {
      let entry = '';
      const { base, folder } = await crafted(
        name.replaceAll(' ', '-'),
        async (backup, manifest) => {
          const { stored } = firstStored(manifest);
          const outside = path.join(path.dirname(path.dirname(backup)), 'outside');
          const secret = randomPdf(7_000);
          if (which === 'file') {
            const file = path.join(backup, 'files', stored.path);
            await fs.writeFile(path.join(outside + '.pdf'), secret);
            await fs.rm(file);
            await fs.symlink(`${outside}.pdf`, file);
            entry = `files/${stored.path}`;
          } else {
            // The client's folder, linked to a folder outside the backup holding the same layout.
            const top = stored.path.split('/')[0] as string;
            await fs.mkdir(path.join(outside, path.dirname(stored.path)), { recursive: true });
            await fs.writeFile(path.join(outside, stored.path), secret);
            await fs.rm(path.join(backup, 'files', top), { recursive: true });
            await fs.symlink(path.join(outside, top), path.join(backup, 'files', top));
            entry = `files/${top}`;
          }
          stored.sha256 = sha256(secret);
          stored.bytes = secret.length;
        },
        { reseal: true },
      );
      const result = await restoreCase(base, folder);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(entry);
      expect(result.stderr).toMatch(/link/);
      expect(result.stderr).toMatch(/Nothing was written/);
      expect(result.inDataDir).toEqual([]);
      expect(result.written).toEqual([]);
    },
    120_000,
  );

  it.each([
    ['a byte added to it', 'append'],
    ['a byte changed in it', 'flip'],
  ])(
    'refuses a stored file with %s, naming the entry, before anything is written (no database made)',
    async (name, how) => {
      let entry = '';
      const { base, folder } = await crafted(
        `damaged-${how}`,
        async (backup, manifest) => {
          const { stored } = firstStored(manifest);
          entry = `files/${stored.path}`;
          const file = path.join(backup, 'files', stored.path);
          if (how === 'append') await fs.appendFile(file, Buffer.from([0]));
          else {
            const bytes = await fs.readFile(file);
            bytes[bytes.length >> 1] = (bytes[bytes.length >> 1] as number) ^ 0xff;
            await fs.writeFile(file, bytes);
          }
        },
        { reseal: false },
      );
      const result = await restoreCase(base, folder);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(entry);
      expect(result.stderr).toMatch(how === 'append' ? /larger than/ : /SHA-256/);
      expect(result.stderr).toMatch(/Nothing was written/);
      expect(result.stderr).not.toMatch(/rows in/);
      expect(result.inDataDir).toEqual([]);
      expect(result.written).toEqual([]);
    },
    120_000,
  );

  it('refuses a backup whose table file was edited (a planted row) as not verifying, and writes nothing', async () => {
    const { base, folder } = await crafted(
      'planted-row',
      async (backup) => {
        const users = path.join(backup, 'database', 'users.jsonl');
        const [row] = (await fs.readFile(users, 'utf8')).split('\n');
        const planted = { ...(JSON.parse(row as string) as object), email: 'planted@example.org' };
        await fs.appendFile(users, `${JSON.stringify(planted)}\n`);
      },
      { reseal: false },
    );
    const result = await restoreCase(base, folder);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/does not verify/);
    expect(result.stderr).toContain('users');
    expect(result.inDataDir).toEqual([]);
  }, 120_000);

  it('refuses a manifest edited to load a table a backup never holds (sessions), and one authenticated again with the key', async () => {
    const plantSessions = async (backup: string, manifest: Manifest) => {
      const rows = `${JSON.stringify({ planted: true })}\n`;
      await fs.writeFile(path.join(backup, 'database', 'sessions.jsonl'), rows);
      manifest.tables.sessions = 1;
      const hashes = (manifest as { tableSha256?: Record<string, string> }).tableSha256;
      if (hashes) hashes.sessions = sha256(Buffer.from(rows));
    };
    const edited = await crafted('sessions-edited', plantSessions, { reseal: false });
    const refused = await restoreCase(edited.base, edited.folder);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/does not verify/);
    expect(refused.inDataDir).toEqual([]);

    const resealed = await crafted('sessions-resealed', plantSessions, { reseal: true });
    const still = await restoreCase(resealed.base, resealed.folder);
    expect(still.code).toBe(1);
    expect(still.stderr).toMatch(/sessions/);
    expect(still.stderr).toMatch(/Nothing was written/);
    expect(still.inDataDir).toEqual([]);
  }, 240_000);

  it('refuses a backup with no MAC as not authenticated, and writes nothing', async () => {
    const { base, folder } = await crafted(
      'unauthenticated',
      async (backup) => {
        await fs.rm(path.join(backup, 'manifest.mac'), { force: true });
      },
      { reseal: false },
    );
    const result = await restoreCase(base, folder);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/not authenticated/);
    expect(result.inDataDir).toEqual([]);
  }, 120_000);
});
