/**
 * The ObjectStore contract, run against both stores with real HTTP: the local store behind a real
 * Fastify server, the S3 store against an in-process s3rver. What a volunteer does — upload a PDF and
 * a photo, list them, view and download them, rename, delete — must behave the same on both.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocKey, safeFileName } from '@vita-docs/core/contract';
import { storageKeyFrom } from './encryption.js';
import { createLocalStore } from './local.js';
import { createS3Store } from './s3.js';
import { SAMPLE_JPEG, samplePdf, startStorageServer } from '../../test/storage.js';
import { StorageError, type ObjectStore } from './types.js';

interface Harness {
  store: ObjectStore;
  /** Makes a presigned URL absolute (the local store's are path-only). */
  resolve(url: string): string;
  close(): Promise<void>;
}

async function localHarness(): Promise<Harness> {
  const root = await mkdtemp(path.join(tmpdir(), 'vita-local-store-'));
  const store = createLocalStore({
    root,
    signingKey: randomBytes(32),
    baseUrl: '/api/storage',
    encryption: storageKeyFrom(randomBytes(32)),
  });
  const server = await startStorageServer(store);
  return {
    store,
    resolve: (url) => new URL(url, server.origin).href,
    close: async () => {
      await server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** s3rver ships no types; this is the part of it the tests use. */
type S3rverCtor = new (options: Record<string, unknown>) => {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
};

/** Starts s3rver on a random port in a temp dir (it checks the access key, not V4 signatures). */
async function startS3rver(bucket: string): Promise<{ endpoint: string; close(): Promise<void> }> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverCtor;
  const directory = await mkdtemp(path.join(tmpdir(), 'vita-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

async function s3Harness(): Promise<Harness> {
  const bucket = 'vita-test';
  const s3rver = await startS3rver(bucket);
  const store = createS3Store({
    endpoint: s3rver.endpoint,
    bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    listPageSize: 2, // so every listing below crosses pages
  });
  return {
    store,
    resolve: (url) => url,
    close: async () => {
      store.client.destroy();
      await s3rver.close();
    },
  };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const newClientId = () => `c_${randomBytes(9).toString('base64url')}`;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function expectStorageError(promise: Promise<unknown>, kind: StorageError['kind']): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StorageError);
  expect((error as StorageError).kind).toBe(kind);
}

describe.each([
  { name: 'local', start: localHarness },
  { name: 's3', start: s3Harness },
])('$name object store', ({ start }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await start();
  });
  afterAll(() => h.close());

  /** What the browser does: presign, then PUT the bytes with the signed Content-Type. */
  async function upload(key: string, contentType: string, body: Buffer): Promise<Response> {
    const { url, expiresAt } = await h.store.presignPut(key, contentType, {
      expiresInSeconds: 300,
      maxBytes: 25 << 20,
    });
    expect(expiresAt.getTime()).toBeGreaterThan(Date.now());
    return fetch(h.resolve(url), { method: 'PUT', headers: { 'content-type': contentType }, body });
  }

  async function download(key: string, disposition: 'attachment' | 'inline', downloadName: string) {
    const { url } = await h.store.presignGet(key, { expiresInSeconds: 60, disposition, downloadName });
    const response = await fetch(h.resolve(url));
    return { response, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  it('uploads a PDF and a photo, lists, downloads the same bytes, renames and deletes them', async () => {
    const clientId = newClientId();
    const pdf = samplePdf('W-2 for 2024', 300_000);
    const pdfKey = buildDocKey(
      clientId,
      'Michigan/Locality Intake',
      1_700_000_000_001,
      safeFileName('W-2 2024.pdf'),
    );
    const jpegKey = buildDocKey(clientId, 'License/Other Identification', 1_700_000_000_002, 'licence.jpg');

    expect((await upload(pdfKey, 'application/pdf', pdf)).ok).toBe(true);
    expect((await upload(jpegKey, 'image/jpeg', SAMPLE_JPEG)).ok).toBe(true);

    const all = await h.store.list(`${clientId}/`);
    expect(all.map(({ key, size, contentType }) => ({ key, size, contentType }))).toEqual(
      [
        { key: pdfKey, size: pdf.length, contentType: 'application/pdf' },
        { key: jpegKey, size: SAMPLE_JPEG.length, contentType: 'image/jpeg' },
      ].sort((a, b) => (a.key < b.key ? -1 : 1)),
    );
    for (const item of all) expect(Math.abs(item.lastModified.getTime() - Date.now())).toBeLessThan(60_000);
    const oneCategory = await h.store.list(`${clientId}/${encodeURIComponent('Michigan/Locality Intake')}/`);
    expect(oneCategory.map((item) => item.key)).toEqual([pdfKey]);
    expect(await h.store.head(pdfKey)).toMatchObject({
      key: pdfKey,
      size: pdf.length,
      contentType: 'application/pdf',
    });

    const attachment = await download(pdfKey, 'attachment', 'W-2 2024.pdf');
    expect(attachment.response.status).toBe(200);
    expect(sha256(attachment.bytes)).toBe(sha256(pdf));
    expect(attachment.response.headers.get('content-type')).toBe('application/pdf');
    expect(attachment.response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="W-2 2024\.pdf"/,
    );

    const view = await download(jpegKey, 'inline', 'licence.jpg');
    expect(sha256(view.bytes)).toBe(sha256(SAMPLE_JPEG));
    expect(view.response.headers.get('content-type')).toBe('image/jpeg');
    expect(view.response.headers.get('content-disposition')).toMatch(/^inline; /);

    expect(sha256(await readAll(await h.store.read(pdfKey)))).toBe(sha256(pdf));

    // Rename = copy to the new key (same numeric prefix), then delete the old one.
    const renamedKey = buildDocKey(
      clientId,
      'Michigan/Locality Intake',
      1_700_000_000_001,
      'W-2 employer A.pdf',
    );
    await h.store.copy(pdfKey, renamedKey);
    await h.store.delete([pdfKey]);
    expect((await h.store.list(`${clientId}/`)).map((item) => item.key).sort()).toEqual(
      [jpegKey, renamedKey].sort(),
    );
    expect(sha256(await readAll(await h.store.read(renamedKey)))).toBe(sha256(pdf));

    await h.store.delete([renamedKey, pdfKey]); // pdfKey is already gone: not an error
    expect((await h.store.list(`${clientId}/`)).map((item) => item.key)).toEqual([jpegKey]);
    expect(await h.store.deletePrefix(`${clientId}/`)).toBe(1);
    expect(await h.store.list(`${clientId}/`)).toEqual([]);
  });

  it('keeps unicode category and file names exact, and serves the exact name for download', async () => {
    const clientId = newClientId();
    const docType = 'Other (Zoë’s 日本語 notes / 2024)';
    const name = safeFileName('Ünïcödé 📄 résumé (final).pdf');
    const key = buildDocKey(clientId, docType, Date.now(), name);
    expect((await upload(key, 'application/pdf', samplePdf())).ok).toBe(true);
    expect(
      (await h.store.list(`${clientId}/${encodeURIComponent(docType)}/`)).map((item) => item.key),
    ).toEqual([key]);
    const { response } = await download(key, 'attachment', name);
    const disposition = response.headers.get('content-disposition') ?? '';
    expect(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(disposition)?.[1] ?? '')).toBe(name);
  });

  it('stores a 255-byte name shortened to a safe key, and refuses the raw 255-byte key', async () => {
    const clientId = newClientId();
    const longName = `${'é'.repeat(125)}x.pdf`; // 250 + 5 = 255 bytes
    expect(Buffer.byteLength(longName)).toBe(255);
    const key = buildDocKey(clientId, 'W-2', Date.now(), safeFileName(longName));
    expect((await upload(key, 'application/pdf', samplePdf())).ok).toBe(true);
    expect((await h.store.list(`${clientId}/`)).map((item) => item.key)).toEqual([key]);
    await expectStorageError(
      h.store.presignPut(buildDocKey(clientId, 'W-2', 1, longName), 'application/pdf', {
        expiresInSeconds: 60,
        maxBytes: 1,
      }),
      'invalid_key',
    );
  });

  it('lists many files across pages, in key order', async () => {
    const clientId = newClientId();
    const keys = [5, 3, 1, 4, 2].map((n) => buildDocKey(clientId, 'W-2', n, `w2-${n}.jpg`));
    for (const key of keys) await h.store.put(key, SAMPLE_JPEG, 'image/jpeg'); // s3rver races on parallel first writes
    expect((await h.store.list(`${clientId}/`)).map((item) => item.key)).toEqual([...keys].sort());
    expect(await h.store.deletePrefix(`${clientId}/${encodeURIComponent('W-2')}/`)).toBe(5);
    expect(await h.store.list(`${clientId}/`)).toEqual([]);
  });

  it('reports missing files as not found', async () => {
    const key = buildDocKey(newClientId(), 'W-2', 1, 'gone.pdf');
    expect(await h.store.head(key)).toBeNull();
    await expectStorageError(h.store.read(key), 'not_found');
    await expectStorageError(
      h.store.presignGet(key, { expiresInSeconds: 60, disposition: 'attachment', downloadName: 'gone.pdf' }),
      'not_found',
    );
    await expectStorageError(h.store.copy(key, buildDocKey(newClientId(), 'W-2', 1, 'x.pdf')), 'not_found');
  });

  it('refuses malformed keys and prefixes in every method, before touching storage', async () => {
    const good = buildDocKey(newClientId(), 'W-2', 1, 'ok.pdf');
    const badKeys = [
      '../../etc/passwd',
      '/abs/1_x.pdf',
      'c_12345678/W-2/../../1_x.pdf',
      'c_12345678/W-2/1_../x.pdf',
      'c_12345678/../1_x.pdf',
      'c_12345678/./1_x.pdf',
      'c_12345678/W-2/1_.hidden',
      'c_12345678/W-2/x.pdf',
      'short/W-2/1_x.pdf',
      'c_12345678/W-2/1_x\u0000.pdf',
    ];
    for (const key of badKeys) {
      await expectStorageError(
        h.store.presignPut(key, 'application/pdf', { expiresInSeconds: 60, maxBytes: 1 }),
        'invalid_key',
      );
      await expectStorageError(
        h.store.presignGet(key, { expiresInSeconds: 60, disposition: 'inline', downloadName: 'x' }),
        'invalid_key',
      );
      await expectStorageError(h.store.head(key), 'invalid_key');
      await expectStorageError(h.store.read(key), 'invalid_key');
      await expectStorageError(h.store.put(key, SAMPLE_JPEG, 'image/jpeg'), 'invalid_key');
      await expectStorageError(h.store.copy(good, key), 'invalid_key');
      await expectStorageError(h.store.delete([key]), 'invalid_key');
    }
    for (const prefix of [
      '',
      '/',
      '../',
      'c_12345678',
      'c_12345678/../',
      'c_12345678/a/b/',
      '../c_12345678/',
    ]) {
      await expectStorageError(h.store.list(prefix), 'invalid_key');
      await expectStorageError(h.store.deletePrefix(prefix), 'invalid_key');
    }
  });

  it('refuses to sign an upload of a type outside the allow-list', async () => {
    const key = buildDocKey(newClientId(), 'W-2', 1, 'page.html');
    for (const type of ['text/html', 'image/svg+xml', 'application/octet-stream', '']) {
      await expectStorageError(
        h.store.presignPut(key, type, { expiresInSeconds: 60, maxBytes: 100 }),
        'unsupported_type',
      );
    }
  });
});

describe('s3 store specifics', () => {
  const bucket = 'vita-specifics';
  let s3rver: Awaited<ReturnType<typeof startS3rver>>;
  let store: ReturnType<typeof createS3Store>;
  beforeAll(async () => {
    s3rver = await startS3rver(bucket);
    store = createS3Store({
      endpoint: s3rver.endpoint,
      bucket,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
  });
  afterAll(async () => {
    store.client.destroy();
    await s3rver.close();
  });

  it('signs the Content-Type into an upload URL and asks for no checksum header', async () => {
    const key = buildDocKey(newClientId(), 'W-2', 1, 'w2.pdf');
    const url = new URL(
      (await store.presignPut(key, 'application/pdf', { expiresInSeconds: 300, maxBytes: 1 })).url,
    );
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('content-type');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    expect([...url.searchParams.keys()].filter((name) => /checksum/i.test(name))).toEqual([]);
  });

  it('serves an object stored with a dangerous type as an octet-stream attachment, even for viewing', async () => {
    const clientId = newClientId();
    const key = buildDocKey(clientId, 'W-2', 1, 'notes');
    await store.put(key, Buffer.from('<html><script>alert(1)</script></html>'), 'text/html');
    expect((await store.list(`${clientId}/`)).map((item) => item.contentType)).toEqual([
      'application/octet-stream',
    ]);
    const url = new URL(
      (await store.presignGet(key, { expiresInSeconds: 60, disposition: 'inline', downloadName: 'notes' }))
        .url,
    );
    expect(url.searchParams.get('response-content-type')).toBe('application/octet-stream');
    expect(url.searchParams.get('response-content-disposition')).toMatch(/^attachment; /);
    const response = await fetch(url);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; /);
  });

  it('deletes a whole client, stray objects included, in batches of 1000', async () => {
    const clientId = newClientId();
    const keys = Array.from({ length: 1003 }, (_, i) => buildDocKey(clientId, 'Other', i, `p${i}.jpg`));
    await store.put(keys[0]!, SAMPLE_JPEG, 'image/jpeg'); // s3rver races on parallel first writes to a folder
    for (let i = 1; i < keys.length; i += 50) {
      await Promise.all(keys.slice(i, i + 50).map((key) => store.put(key, SAMPLE_JPEG, 'image/jpeg')));
    }
    await store.client.send(
      new PutObjectCommand({ Bucket: bucket, Key: `${clientId}/stray.txt`, Body: 'x' }),
    );
    expect(await store.list(`${clientId}/`)).toHaveLength(1003);
    expect(await store.deletePrefix(`${clientId}/`)).toBe(1004);
    expect(await store.list(`${clientId}/`)).toEqual([]);
  }, 120_000);
});
