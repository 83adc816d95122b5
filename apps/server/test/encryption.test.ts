/**
 * Encryption at rest against the real server and database: what is on disk, what is served, the
 * storage key's start-up checks, tampered files, the background encryption of files stored before,
 * and S3 server-side encryption. Each test fails if its control is undone.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { buildDocKey } from '@vita-docs/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/app.js';
import { encryptStoredFiles } from '../src/storage/encrypt-existing.js';
import { CHUNK_BYTES, HEADER_BYTES, storageKeyFrom } from '../src/storage/encryption.js';
import { objectPath } from '../src/storage/local-layout.js';
import { createLocalStore, type LocalObjectStore } from '../src/storage/local.js';
import { createClient, pdfBytes, sha256, upload } from './docs-helpers.js';
import { restartApp, seedPeople, startApp, TEST_STORAGE_KEY, type Agent, type TestApp } from './harness.js';
import { startS3rver } from './s3rver.js';

const RECORD = CHUNK_BYTES + 16;
const MAGIC = Buffer.from([0x89, 0x56, 0x44, 0x45, 0x4e, 0x43, 0x0a]);

/** A PDF of `size` bytes whose body repeats a recognisable "SSN", so a plaintext leak would show. */
function sensitivePdf(size: number): Buffer {
  const bytes = pdfBytes(size);
  const secret = Buffer.from(' SSN 123-45-6789 ');
  for (let at = 64; at + secret.length < size - 16; at += 4096) secret.copy(bytes, at);
  return bytes;
}

const onDisk = (app: TestApp, key: string) => objectPath(path.join(app.config.dataDir, 'files'), key);
const cookieOf = (agent: Agent) => [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

async function zipOf(app: TestApp, agent: Agent, clientId: string): Promise<JSZip> {
  const res = await fetch(`${app.url}/api/clients/${clientId}/docs/download-all`, {
    headers: { cookie: cookieOf(agent) },
  });
  expect(res.status).toBe(200);
  return JSZip.loadAsync(Buffer.from(await res.arrayBuffer()), { checkCRC32: true });
}

async function viewUrl(agent: Agent, key: string): Promise<string> {
  const view = await agent.post('/api/docs/presign-view', { key });
  expect(view.status).toBe(200);
  return view.body.url as string;
}

/** Flips one byte of a stored file at `offset`. */
async function flipByte(file: string, offset: number): Promise<void> {
  const handle = await fs.open(file, 'r+');
  try {
    const byte = Buffer.alloc(1);
    await handle.read(byte, 0, 1, offset);
    byte[0] = (byte[0] ?? 0) ^ 0x5a;
    await handle.write(byte, 0, 1, offset);
  } finally {
    await handle.close();
  }
}

/** Every window of 32 bytes of `plain` at a few places: none may appear in what is stored. */
function leaksPlaintext(stored: Buffer, plain: Buffer): boolean {
  const probes = [0, 9, 64, 5000, CHUNK_BYTES - 10, plain.length - 40].filter(
    (at) => at >= 0 && at + 32 <= plain.length,
  );
  return (
    probes.some((at) => stored.includes(plain.subarray(at, at + 32))) ||
    stored.includes(Buffer.from('123-45-6789'))
  );
}

const until = async (check: () => Promise<boolean>, ms = 20_000) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50)))
    if (await check()) return;
  throw new Error('timed out');
};

describe('encryption at rest (local store)', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  const lines: string[] = [];

  beforeAll(async () => {
    app = await startApp({}, { logLines: lines });
    people = await seedPeople(app);
  });
  afterAll(() => app?.close());

  it('stores every file encrypted (never the plaintext) and gives the plaintext back in view, download and ZIP', async () => {
    const clientId = await createClient(people.volA);
    const plain = sensitivePdf(3 * CHUNK_BYTES + 777);
    const key = await upload(people.volA, clientId, 'Banking Info', 'statement.pdf', plain);

    const stored = await fs.readFile(onDisk(app, key));
    expect(stored.subarray(0, MAGIC.length).equals(MAGIC)).toBe(true);
    expect(stored.length).toBe(HEADER_BYTES + plain.length + 4 * 16);
    expect(leaksPlaintext(stored, plain)).toBe(false);
    // The temp file the upload streamed through held ciphertext too (it is the same file, renamed).
    expect(await fs.readdir(path.join(app.config.dataDir, 'files', '.tmp'))).toEqual([]);

    // The index describes the plaintext.
    const row = await app.server.services.db
      .selectFrom('documents')
      .selectAll()
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    expect({ size: Number(row.size), sha256: row.sha256 }).toEqual({
      size: plain.length,
      sha256: sha256(plain),
    });

    const viewed = await fetch(await viewUrl(people.volA, key));
    expect(viewed.headers.get('content-type')).toBe('application/pdf');
    expect(viewed.headers.get('content-length')).toBe(String(plain.length));
    expect(sha256(Buffer.from(await viewed.arrayBuffer()))).toBe(sha256(plain));
    const download = await people.volA.post('/api/docs/presign-get', { key });
    expect(sha256(Buffer.from(await (await fetch(download.body.url)).arrayBuffer()))).toBe(sha256(plain));
    const zip = await zipOf(app, people.volA, clientId);
    expect(sha256(await zip.file('Banking Info/statement.pdf')!.async('nodebuffer'))).toBe(sha256(plain));

    // A rename keeps the bytes encrypted (under a header bound to the new key) and readable.
    const renamed = await people.volA.post('/api/docs/rename', { key, filename: 'renamed.pdf' });
    expect(renamed.status).toBe(200);
    const after = await fs.readFile(onDisk(app, renamed.body.newKey));
    expect(leaksPlaintext(after, plain)).toBe(false);
    expect(
      sha256(Buffer.from(await (await fetch(await viewUrl(people.volA, renamed.body.newKey))).arrayBuffer())),
    ).toBe(sha256(plain));
  });

  it('serves byte ranges, decrypting only the chunks they touch', async () => {
    const clientId = await createClient(people.volA);
    const plain = sensitivePdf(2 * CHUNK_BYTES + 500);
    const key = await upload(people.volA, clientId, 'Banking Info', 'ranged.pdf', plain);
    const ranged = async (range: string) => fetch(await viewUrl(people.volA, key), { headers: { range } });

    const whole = await fetch(await viewUrl(people.volA, key));
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    await whole.arrayBuffer();
    const cases: Array<[string, number, number]> = [
      ['bytes=0-9', 0, 9],
      [`bytes=${CHUNK_BYTES - 4}-${CHUNK_BYTES + 4}`, CHUNK_BYTES - 4, CHUNK_BYTES + 4],
      [`bytes=${CHUNK_BYTES}-`, CHUNK_BYTES, plain.length - 1],
      ['bytes=-100', plain.length - 100, plain.length - 1],
      [`bytes=5-${plain.length + 1000}`, 5, plain.length - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await ranged(range);
      expect(res.status, range).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${plain.length}`);
      expect(Buffer.from(await res.arrayBuffer()).equals(plain.subarray(start, end + 1)), range).toBe(true);
    }
    const beyond = await ranged(`bytes=${plain.length}-`);
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${plain.length}`);
    await beyond.arrayBuffer();
    // Several ranges, or an If-Range that is not this file's date: the whole file.
    const several = await ranged('bytes=0-1,5-6');
    expect(several.status).toBe(200);
    expect((await several.arrayBuffer()).byteLength).toBe(plain.length);
    const stale = await fetch(await viewUrl(people.volA, key), {
      headers: { range: 'bytes=0-1', 'if-range': 'Mon, 01 Jan 2001 00:00:00 GMT' },
    });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
  });

  it('leaves a file that fails its check out of the ZIP, names it in MISSING-FILES.txt and logs it without names', async () => {
    const clientId = await createClient(people.volA);
    const good = sensitivePdf(100_000);
    await upload(people.volA, clientId, 'Banking Info', 'good.pdf', good);
    // One fails in its first chunk (left out before its entry starts), one in its last (part-way).
    const early = await upload(
      people.volA,
      clientId,
      'Banking Info',
      'early.pdf',
      sensitivePdf(3 * CHUNK_BYTES),
    );
    const late = await upload(
      people.volA,
      clientId,
      'Banking Info',
      'late.pdf',
      sensitivePdf(3 * CHUNK_BYTES),
    );
    const last = await upload(people.volA, clientId, 'Banking Info', 'zlast.pdf', good);
    await flipByte(onDisk(app, early), HEADER_BYTES + 100);
    await flipByte(onDisk(app, late), HEADER_BYTES + 2 * RECORD + 100);
    lines.length = 0;

    const zip = await zipOf(app, people.volA, clientId);
    const names = Object.keys(zip.files).filter((n) => !n.endsWith('/'));
    expect(names.sort()).toEqual(['Banking Info/good.pdf', 'Banking Info/zlast.pdf', 'MISSING-FILES.txt']);
    expect(sha256(await zip.file('Banking Info/good.pdf')!.async('nodebuffer'))).toBe(sha256(good));
    expect(sha256(await zip.file('Banking Info/zlast.pdf')!.async('nodebuffer'))).toBe(sha256(good));
    const note = await zip.file('MISSING-FILES.txt')!.async('string');
    expect(note).toContain('Banking Info/early.pdf (damaged');
    expect(note).toContain('Banking Info/late.pdf (damaged');

    const log = lines.join('');
    expect(log).toContain('failed its integrity check');
    expect(log).toContain(`${clientId}#`);
    expect(log).not.toMatch(/early\.pdf|late\.pdf|Banking|\bCli\b|\bEnt\b/);
    void last;
  });

  it('answers a view of a damaged file with a clear error, never a 500, and cuts a later failure short', async () => {
    const clientId = await createClient(people.volA);
    const header = await upload(people.volA, clientId, 'Banking Info', 'header.pdf', sensitivePdf(10_000));
    const first = await upload(people.volA, clientId, 'Banking Info', 'first.pdf', sensitivePdf(10_000));
    const later = await upload(
      people.volA,
      clientId,
      'Banking Info',
      'later.pdf',
      sensitivePdf(4 * CHUNK_BYTES),
    );
    await flipByte(onDisk(app, header), 60);
    await flipByte(onDisk(app, first), HEADER_BYTES + 10);
    await flipByte(onDisk(app, later), HEADER_BYTES + 3 * RECORD + 10);
    const message = /damaged on the server and cannot be opened/;

    // A damaged header is caught when the link is asked for: the app shows the message.
    const refused = await people.volA.post('/api/docs/presign-view', { key: header });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(message);

    // A damaged first chunk: the link answers the error, not the file.
    const res = await fetch(await viewUrl(people.volA, first));
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await res.json()) as { error: string }).error).toMatch(message);

    // A damaged later chunk: the answer stops short of its announced length, so it never looks whole.
    const cut = await fetch(await viewUrl(people.volA, later));
    expect(cut.status).toBe(200);
    await expect(cut.arrayBuffer()).rejects.toThrow();
    // The parts that are intact can still be read by range.
    const part = await fetch(await viewUrl(people.volA, later), { headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
  });

  it('refuses a plain file put in place of an encrypted one once every stored file is encrypted', async () => {
    const db = app.server.services.db;
    await until(
      async () =>
        (await db
          .selectFrom('server_jobs')
          .select('name')
          .where('name', '=', 'encrypt-stored-files')
          .executeTakeFirst()) !== undefined,
    );
    const clientId = await createClient(people.volA);
    const plain = sensitivePdf(20_000);
    const key = await upload(people.volA, clientId, 'Banking Info', 'swap.pdf', plain);
    // Written before encryption existed, this file would be served; now it can only be a substitution.
    await fs.writeFile(onDisk(app, key), plain);
    const refused = await people.volA.post('/api/docs/presign-view', { key });
    expect(refused.status).toBe(409);
  });
});

describe('the storage key', () => {
  const dirs: string[] = [];
  const tempDir = async (name: string) => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), `vita-${name}-`));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  });

  it('is created on the first start in the config directory, private, with a log line saying to back it up separately', async () => {
    const config = await tempDir('config');
    const lines: string[] = [];
    const app = await startApp({ STORAGE_KEY: '', XDG_CONFIG_HOME: config }, { logLines: lines });
    try {
      const file = path.join(config, 'vita-docs', 'storage.key');
      expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
      expect((await fs.stat(path.dirname(file))).mode & 0o777).toBe(0o700);
      expect(Buffer.from((await fs.readFile(file, 'utf8')).trim(), 'base64')).toHaveLength(32);
      const warning = lines.find((line) => line.includes('back it up separately'));
      expect(warning).toContain(file);
      expect(JSON.parse(warning!).level).toBeGreaterThanOrEqual(40);
      // Only the fingerprint is in the database.
      const rows = await app.server.services.db.selectFrom('storage_key').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.fingerprint).toMatch(/^[0-9a-f]{64}$/);
      const master = Buffer.from((await fs.readFile(file, 'utf8')).trim(), 'base64');
      expect(JSON.stringify(rows)).not.toContain(master.toString('hex'));
      expect(JSON.stringify(rows)).not.toContain(master.toString('base64'));
    } finally {
      await app.close();
    }
  });

  it('stops the server with another key, or without the key once files are encrypted, and works again with it', async () => {
    const config = await tempDir('config');
    const emptyConfig = await tempDir('config-empty');
    let app = await startApp({ STORAGE_KEY: '', XDG_CONFIG_HOME: config });
    try {
      const people = await seedPeople(app);
      const clientId = await createClient(people.volA);
      const plain = sensitivePdf(5_000);
      const key = await upload(people.volA, clientId, 'Banking Info', 'kept.pdf', plain);

      await expect(restartApp(app, { STORAGE_KEY: randomBytes(32).toString('base64') })).rejects.toThrow(
        /STORAGE_KEY is not the key the stored files are encrypted with/,
      );
      await expect(restartApp(app, { STORAGE_KEY: '', XDG_CONFIG_HOME: emptyConfig })).rejects.toThrow(
        /encrypted with a storage key, but there is none at .*storage\.key/,
      );
      // No new key was made in its place.
      expect(await fs.readdir(emptyConfig)).toEqual([]);

      app = await restartApp(app, { STORAGE_KEY: '', XDG_CONFIG_HOME: config });
      const agent = people.volA.at(app.url);
      expect(sha256(Buffer.from(await (await fetch(await viewUrl(agent, key))).arrayBuffer()))).toBe(
        sha256(plain),
      );
    } finally {
      await app.close();
    }
  });

  it('refuses a key file inside the data directory, and malformed or doubled settings', async () => {
    const app = await startApp();
    try {
      const inside = path.join(app.config.dataDir, 'storage.key');
      await fs.writeFile(inside, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
      await expect(restartApp(app, { STORAGE_KEY: '', STORAGE_KEY_FILE: inside })).rejects.toThrow(
        /is inside the data directory/,
      );
      await expect(
        restartApp(app, {
          STORAGE_KEY: '',
          STORAGE_KEY_FILE: path.join(app.config.dataDir, '..', path.basename(app.config.dataDir), 'k'),
        }),
      ).rejects.toThrow(/is inside the data directory/);
    } finally {
      await app.close();
    }
    expect(() => loadConfig({ STORAGE_KEY: randomBytes(16).toString('base64') })).toThrow(
      /STORAGE_KEY: must be 32 random bytes/,
    );
    expect(() =>
      loadConfig({ STORAGE_KEY: randomBytes(32).toString('base64'), STORAGE_KEY_FILE: '/etc/k' }),
    ).toThrow(/set one of them/);
    expect(loadConfig({ XDG_CONFIG_HOME: '/cfg' }).storageKey).toEqual({
      kind: 'file',
      path: '/cfg/vita-docs/storage.key',
      createIfMissing: true,
    });
    expect(loadConfig({ HOME: '/home/v' }).storageKey).toMatchObject({
      path: '/home/v/.config/vita-docs/storage.key',
    });
    expect(loadConfig({ STORAGE_KEY_FILE: '/etc/vita/key' }).storageKey).toEqual({
      kind: 'file',
      path: '/etc/vita/key',
      createIfMissing: false,
    });
  });
});

describe('encrypting the files stored before encryption', () => {
  it('encrypts them in place in the background; index, digests and every view still describe the plaintext', async () => {
    let app = await startApp({}, { unencryptedStorage: true });
    try {
      const people = await seedPeople(app);
      const clientId = await createClient(people.volA);
      const files = [sensitivePdf(1_000), sensitivePdf(CHUNK_BYTES), sensitivePdf(2 * CHUNK_BYTES + 3)];
      const keys: string[] = [];
      for (const [i, bytes] of files.entries())
        keys.push(await upload(people.volA, clientId, 'Banking Info', `old-${i}.pdf`, bytes));
      for (const [i, key] of keys.entries())
        expect((await fs.readFile(onDisk(app, key))).equals(files[i]!)).toBe(true);

      app = await restartApp(app);
      const db = app.server.services.db;
      await until(
        async () =>
          (await db
            .selectFrom('server_jobs')
            .select('name')
            .where('name', '=', 'encrypt-stored-files')
            .executeTakeFirst()) !== undefined,
      );
      const agent = people.volA.at(app.url);
      for (const [i, key] of keys.entries()) {
        const stored = await fs.readFile(onDisk(app, key));
        expect(stored.subarray(0, MAGIC.length).equals(MAGIC)).toBe(true);
        expect(leaksPlaintext(stored, files[i]!)).toBe(false);
        expect(sha256(Buffer.from(await (await fetch(await viewUrl(agent, key))).arrayBuffer()))).toBe(
          sha256(files[i]!),
        );
      }
      const rows = await db
        .selectFrom('documents')
        .select(['key', 'sha256', 'size'])
        .where('client_id', '=', clientId)
        .orderBy('ord')
        .execute();
      expect(rows.map((r) => [r.sha256, Number(r.size)])).toEqual(files.map((f) => [sha256(f), f.length]));
      const zip = await zipOf(app, agent, clientId);
      expect(sha256(await zip.file('Banking Info/old-2.pdf')!.async('nodebuffer'))).toBe(sha256(files[2]!));
    } finally {
      await app.close();
    }
  });

  it('resumes after an interruption: never a half-encrypted file, nothing encrypted twice, done once all are', async () => {
    let app = await startApp({}, { unencryptedStorage: true });
    try {
      const people = await seedPeople(app);
      const clientId = await createClient(people.volA);
      const files = Array.from({ length: 4 }, (_, i) => sensitivePdf(CHUNK_BYTES + i * 1000));
      const keys: string[] = [];
      for (const [i, bytes] of files.entries())
        keys.push(await upload(people.volA, clientId, 'Banking Info', `f-${i}.pdf`, bytes));
      const db = app.server.services.db;
      const done = async () =>
        (await db
          .selectFrom('server_jobs')
          .select('name')
          .where('name', '=', 'encrypt-stored-files')
          .executeTakeFirst()) !== undefined;

      // A run stopped after its first file (as by a shutdown)…
      const store = createLocalStore({
        root: path.join(app.config.dataDir, 'files'),
        signingKey: randomBytes(32),
        baseUrl: '/api/storage',
        encryption: storageKeyFrom(Buffer.from(TEST_STORAGE_KEY, 'base64')),
      });
      const stop = new AbortController();
      const encryptOne = store.encryptInPlace.bind(store);
      store.encryptInPlace = async (key) => {
        const result = await encryptOne(key);
        stop.abort();
        return result;
      };
      expect(
        await encryptStoredFiles(store, { db, log: app.server.services.log }, { signal: stop.signal }),
      ).toMatchObject({ encrypted: 1 });
      // …and a temp file a crash left mid-write: the other files are untouched plain documents.
      await fs.writeFile(path.join(app.config.dataDir, 'files', '.tmp', 'crashed.part'), randomBytes(5000));
      const sealed = async () =>
        Promise.all(
          keys.map(async (key) =>
            (await fs.readFile(onDisk(app, key))).subarray(0, MAGIC.length).equals(MAGIC),
          ),
        );
      expect(await sealed()).toEqual([true, false, false, false]);
      for (const [i, key] of keys.entries())
        if (i > 0) expect((await fs.readFile(onDisk(app, key))).equals(files[i]!)).toBe(true);
      expect(await done()).toBe(false);

      // The next start carries on from there, and only there.
      const lines: string[] = [];
      app = await restartApp(app, {}, { logLines: lines });
      const after = app.server.services.db;
      await until(
        async () =>
          (await after
            .selectFrom('server_jobs')
            .select('name')
            .where('name', '=', 'encrypt-stored-files')
            .executeTakeFirst()) !== undefined,
      );
      expect(await sealed()).toEqual([true, true, true, true]);
      const report = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.msg === 'encrypting stored files: done');
      expect(report).toMatchObject({ encrypted: 3, already: 1, failed: 0 });
      const agent = people.volA.at(app.url);
      for (const [i, key] of keys.entries()) {
        expect(sha256(Buffer.from(await (await fetch(await viewUrl(agent, key))).arrayBuffer()))).toBe(
          sha256(files[i]!),
        );
      }
      // Running again changes nothing.
      await after.deleteFrom('server_jobs').where('name', '=', 'encrypt-stored-files').execute();
      const again = await encryptStoredFiles(app.server.services.store as LocalObjectStore, {
        db: after,
        log: app.server.services.log,
      });
      expect(again).toEqual({ encrypted: 0, already: 4, gone: 0, unrecognised: 0, failed: 0 });
    } finally {
      await app.close();
    }
  });
});

describe('S3 server-side encryption', () => {
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  beforeAll(async () => {
    s3 = await startS3rver('vita-sse', { record: true });
    app = await startApp({ ...s3.env, S3_SSE: 'aws:kms', S3_SSE_KMS_KEY_ID: 'alias/vita-docs' });
    people = await seedPeople(app);
  });
  afterAll(async () => {
    await app?.close();
    await s3?.close();
  });

  it('asks S3 to encrypt every write: signed into the upload URL and named for the client, sent with server-side writes and copies', async () => {
    const clientId = await createClient(people.volA);
    const bytes = pdfBytes(20_000);
    const sse = {
      'x-amz-server-side-encryption': 'aws:kms',
      'x-amz-server-side-encryption-aws-kms-key-id': 'alias/vita-docs',
    };
    for (const declared of [true, false]) {
      const presign = await people.volA.post(`/api/docs/presign/${clientId}`, {
        docType: 'Banking Info',
        filename: `sse-${declared}.pdf`,
        contentType: 'application/pdf',
        ...(declared && { size: bytes.length, sha256: sha256(bytes) }),
      });
      expect(presign.status).toBe(200);
      // The client must send these headers (the core client sends every header the answer names).
      expect(presign.body.headers).toMatchObject(sse);
      const signed = new URL(presign.body.url).searchParams.get('X-Amz-SignedHeaders')?.split(';') ?? [];
      expect(signed).toEqual(expect.arrayContaining(Object.keys(sse)));
      // Not hoisted into the query, where S3 would ignore them.
      expect([...new URL(presign.body.url).searchParams.keys()].map((k) => k.toLowerCase())).not.toContain(
        'x-amz-server-side-encryption',
      );
      s3.requests.length = 0;
      const put = await fetch(presign.body.url, {
        method: 'PUT',
        headers: { 'content-type': 'application/pdf', ...presign.body.headers },
        body: bytes,
      });
      expect(put.status).toBe(200);
      await put.arrayBuffer();
      expect(s3.requests.find((r) => r.method === 'PUT')?.headers).toMatchObject(sse);
      expect((await people.volA.post('/api/docs/complete', { key: presign.body.key })).status).toBe(200);
    }

    s3.requests.length = 0;
    const list = await people.volA.get(
      `/api/docs/list/${clientId}?docType=${encodeURIComponent('Banking Info')}`,
    );
    const renamed = await people.volA.post('/api/docs/rename', {
      key: list.body.items[0].key,
      filename: 'renamed.pdf',
    });
    expect(renamed.status).toBe(200);
    const copy = s3.requests.find((r) => r.method === 'PUT' && r.headers['x-amz-copy-source']);
    expect(copy?.headers).toMatchObject(sse);

    s3.requests.length = 0;
    await app.server.services.store.put(
      buildDocKey(clientId, 'Banking Info', 1, 'server.pdf'),
      bytes,
      'application/pdf',
    );
    expect(s3.requests.find((r) => r.method === 'PUT')?.headers).toMatchObject(sse);

    expect(loadConfig({ S3_BUCKET: 'bucket', S3_SSE: 'AES256' }).s3?.sse).toEqual({ algorithm: 'AES256' });
    expect(() => loadConfig({ S3_BUCKET: 'bucket', S3_SSE: 'aes' })).toThrow(
      /S3_SSE: must be AES256 or aws:kms/,
    );
    expect(() => loadConfig({ S3_BUCKET: 'bucket', S3_SSE: 'AES256', S3_SSE_KMS_KEY_ID: 'k' })).toThrow(
      /S3_SSE_KMS_KEY_ID: needs S3_SSE=aws:kms/,
    );
  });
});
