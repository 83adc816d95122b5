/**
 * The local store's HTTP routes under attack and at their edges: forged, tampered and expired links,
 * traversal, oversize and mistyped uploads, killed uploads, and the headers files are served with.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildDocKey, categoryName } from '@vita-docs/core/contract';
import { storageKeyFrom } from './encryption.js';
import { objectPath } from './local-layout.js';
import { createLocalStore, type LocalObjectStore } from './local.js';
import { SAMPLE_JPEG, samplePdf, startStorageServer, type StorageTestServer } from '../../test/storage.js';

const MAX = 64 * 1024;
let root: string;
let store: LocalObjectStore;
let server: StorageTestServer;
let nowMs = Date.now();
let clientId: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'vita-local-attacks-'));
  store = createLocalStore({
    root,
    signingKey: randomBytes(32),
    baseUrl: '/api/storage',
    now: () => nowMs,
    encryption: storageKeyFrom(randomBytes(32)),
  });
  server = await startStorageServer(store);
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});
beforeEach(() => {
  nowMs = Date.now();
  clientId = `c_${randomBytes(9).toString('base64url')}`;
});

const keyFor = (name: string, docType = 'W-2') => buildDocKey(clientId, docType, Date.now(), name);
const abs = (url: string) => new URL(url, server.origin);

async function putUrl(key: string, contentType = 'application/pdf', maxBytes = MAX): Promise<URL> {
  return abs((await store.presignPut(key, contentType, { expiresInSeconds: 300, maxBytes })).url);
}

/** A PUT with node:http, so the test controls chunking and can kill the connection. */
function rawPut(
  url: URL,
  headers: Record<string, string>,
  chunks: Buffer[],
  options: { killAfterChunks?: number; beforeKill?: () => Promise<void> } = {},
): Promise<{ status: number; body: { error?: string } } | 'killed'> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'PUT', headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (c: string) => (text += c));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(text || '{}') as { error?: string } }),
      );
    });
    request.on('error', (error) =>
      options.killAfterChunks === undefined ? reject(error) : resolve('killed'),
    );
    void (async () => {
      for (const [i, chunk] of chunks.entries()) {
        if (i === options.killAfterChunks) {
          await options.beforeKill?.();
          request.destroy();
          return;
        }
        if (!request.write(chunk)) await new Promise((r) => request.once('drain', r));
      }
      request.end();
    })();
  });
}

const tempFiles = async () => readdir(path.join(root, '.tmp')).catch(() => [] as string[]);

async function eventually(check: () => Promise<boolean>, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('signed upload links', () => {
  it('accept the upload they were made for and answer with what was stored', async () => {
    const key = keyFor('return.pdf');
    const response = await fetch(await putUrl(key), {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: samplePdf(),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      key,
      size: samplePdf().length,
      contentType: 'application/pdf',
      stored: true,
    });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await tempFiles()).toEqual([]);
  });

  it('refuse any change to a signed field, a missing or repeated field, and the wrong method', async () => {
    const url = await putUrl(keyFor('a.pdf'));
    const changes: [string, string][] = [
      ['k', keyFor('b.pdf')],
      ['ct', 'image/png'],
      ['max', String(MAX * 100)],
      ['exp', String(Number(url.searchParams.get('exp')) + 3600)],
      ['sig', `${url.searchParams.get('sig')!.slice(0, -2)}AA`],
    ];
    const variants = changes.map(([name, value]) => {
      const forged = new URL(url);
      forged.searchParams.set(name, value);
      return forged;
    });
    const missing = new URL(url);
    missing.searchParams.delete('sig');
    const repeated = new URL(url);
    repeated.searchParams.append('k', keyFor('c.pdf'));
    for (const forged of [...variants, missing, repeated]) {
      const response = await fetch(forged, {
        method: 'PUT',
        headers: { 'content-type': forged.searchParams.get('ct')! },
        body: samplePdf(),
      });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({
        error: 'This link is not valid. Go back to the app and try again.',
        code: expect.any(String),
      });
    }
    // A download link's signature does not open the upload route, nor the reverse.
    const stored = keyFor('d.pdf');
    await store.put(stored, samplePdf(), 'application/pdf');
    const getUrl = abs(
      (await store.presignGet(stored, { expiresInSeconds: 60, disposition: 'inline', downloadName: 'd.pdf' }))
        .url,
    );
    const crossed = new URL(`/api/storage/put${getUrl.search}`, server.origin);
    expect(
      (
        await fetch(crossed, {
          method: 'PUT',
          headers: { 'content-type': 'application/pdf' },
          body: samplePdf(),
        })
      ).status,
    ).toBe(403);
    expect((await fetch(new URL(`/api/storage/get${url.search}`, server.origin))).status).toBe(403);
    expect(await store.list(`${clientId}/`)).toHaveLength(1);
  });

  it('expire', async () => {
    const key = keyFor('late.pdf');
    const url = abs(
      (await store.presignPut(key, 'application/pdf', { expiresInSeconds: 60, maxBytes: MAX })).url,
    );
    nowMs += 61_000;
    const response = await fetch(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: samplePdf(),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: 'This link has expired. Go back to the app and try again.',
      code: expect.any(String),
    });
    expect(await store.head(key)).toBeNull();
  });

  it('refuse a body over the signed limit, from Content-Length or while streaming, leaving nothing behind', async () => {
    const key = keyFor('big.pdf');
    const big = samplePdf('big', MAX * 2);
    const declared = await fetch(await putUrl(key), {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: big,
    });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({
      error: 'This file is larger than the 64 KB limit.',
      code: expect.any(String),
    });

    // Chunked: no Content-Length, so the limit is hit mid-stream.
    const chunks = Array.from({ length: 16 }, (_, i) => big.subarray(i * 8192, (i + 1) * 8192));
    const streamed = await rawPut(await putUrl(key), { 'content-type': 'application/pdf' }, chunks);
    expect(streamed).toEqual({
      status: 413,
      body: { error: 'This file is larger than the 64 KB limit.', code: 'too_large' },
    });
    expect(await store.head(key)).toBeNull();
    expect(await tempFiles()).toEqual([]);
  });

  it('refuse bytes that are not an allowed file type, whatever the Content-Type says', async () => {
    const bodies = [
      Buffer.from('<!doctype html><script>alert(1)</script>'.padEnd(100, ' ')),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'),
      Buffer.from('PK\x03\x04 a zip pretending to be a pdf'),
    ];
    for (const body of bodies) {
      const key = keyFor('fake.pdf');
      const response = await fetch(await putUrl(key), {
        method: 'PUT',
        headers: { 'content-type': 'application/pdf' },
        body,
      });
      expect(response.status).toBe(415);
      expect(((await response.json()) as { error: string }).error).toMatch(/Upload a PDF or an image/);
      expect(await store.head(key)).toBeNull();
    }
    const empty = await fetch(await putUrl(keyFor('empty.pdf')), {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: '',
    });
    expect(empty.status).toBe(415);
    expect(await empty.json()).toEqual({ error: 'The file is empty.', code: expect.any(String) });
    expect(await tempFiles()).toEqual([]);
  });

  it('refuse a Content-Type other than the signed one', async () => {
    const url = await putUrl(keyFor('scan.jpg'), 'image/jpeg');
    const wrong = await fetch(url, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: SAMPLE_JPEG,
    });
    expect(wrong.status).toBe(415);
    expect(await wrong.json()).toEqual({
      error: 'This upload link is for a file of type image/jpeg, but the file was sent as image/png.',
      code: expect.any(String),
    });
    const none = await rawPut(url, {}, [SAMPLE_JPEG]);
    expect(none).toMatchObject({ status: 415 });
    // A HEIC from a browser that calls it image/jpeg is still accepted: the bytes decide what it is.
    const heic = Buffer.concat([
      Buffer.from([0, 0, 0, 24]),
      Buffer.from('ftypheic\0\0\0\0mif1heic'),
      randomBytes(64),
    ]);
    const ok = await fetch(url, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: heic });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { contentType: string }).contentType).toBe('image/heic');
  });

  it('never show a killed upload, and clean its temp file', async () => {
    const key = keyFor('killed.pdf');
    const big = samplePdf('killed', MAX - 1000);
    const chunks = Array.from({ length: 8 }, (_, i) => big.subarray(i * 8192, (i + 1) * 8192));
    const result = await rawPut(
      await putUrl(key),
      { 'content-type': 'application/pdf', 'content-length': String(big.length) },
      chunks,
      {
        killAfterChunks: 3,
        // Kill only once the server is really writing the upload to its temp file.
        beforeKill: () => eventually(async () => (await tempFiles()).length === 1),
      },
    );
    expect(result).toBe('killed');
    await eventually(async () => (await tempFiles()).length === 0);
    expect(await store.head(key)).toBeNull();
    expect(await store.list(`${clientId}/`)).toEqual([]);
  });

  it('keep a forged traversal key out of the file system even with a valid signature', async () => {
    const expires = Math.floor(nowMs / 1000) + 60;
    for (const key of [
      '../../etc/passwd',
      `${clientId}/../1_x.pdf`,
      `${clientId}/W-2/1_../../x.pdf`,
      `../${clientId}/W-2/1_x.pdf`,
    ]) {
      const query = store.signer.sign({
        method: 'PUT',
        key,
        contentType: 'application/pdf',
        maxBytes: MAX,
        expires,
      });
      const response = await fetch(new URL(`/api/storage/put?${query}`, server.origin), {
        method: 'PUT',
        headers: { 'content-type': 'application/pdf' },
        body: samplePdf(),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: 'That file reference is not valid.',
        code: expect.any(String),
      });
    }
    expect((await readdir(root)).filter((name) => name !== '.tmp' && !name.startsWith('c_'))).toEqual([]);
  });

  it('keep dotted and very long category names inside the client folder', async () => {
    const dotted = keyFor('a.pdf', '..%2F..');
    const long = keyFor('b.pdf', categoryName('Other', '日本語のメモ'.repeat(13)));
    for (const key of [dotted, long]) {
      expect(
        (
          await fetch(await putUrl(key), {
            method: 'PUT',
            headers: { 'content-type': 'application/pdf' },
            body: samplePdf(),
          })
        ).status,
      ).toBe(200);
      expect(path.relative(path.join(root, clientId), objectPath(root, key))).not.toMatch(/^\.\./);
    }
    expect((await store.list(`${clientId}/`)).map((item) => item.key).sort()).toEqual([dotted, long].sort());
  });

  it('answer a CORS preflight, so the desktop app can upload too', async () => {
    const response = await fetch(await putUrl(keyFor('x.pdf')), { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-methods')).toBe('PUT');
  });
});

describe('signed download links', () => {
  async function served(key: string, disposition: 'attachment' | 'inline', downloadName = 'file.pdf') {
    const { url } = await store.presignGet(key, { expiresInSeconds: 60, disposition, downloadName });
    return fetch(abs(url));
  }

  it('serve attachments locked down: nosniff, no-store, exact length, never framed', async () => {
    const key = keyFor('w2.pdf');
    const pdf = samplePdf();
    await store.put(key, pdf, 'application/pdf');
    const response = await served(key, 'attachment', 'W-2 "final"\r\nSet-Cookie: x=1.pdf');
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'application/pdf',
      'content-length': String(pdf.length),
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
      'referrer-policy': 'no-referrer',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
      // Quotes replaced, CR/LF dropped: no header can be smuggled in through a file name.
      'content-disposition': `attachment; filename="W-2 _final_Set-Cookie_ x=1.pdf"; filename*=UTF-8''W-2%20_final_Set-Cookie_%20x%3D1.pdf`,
    });
    expect(response.headers.get('set-cookie')).toBeNull();
    expect((await response.arrayBuffer()).byteLength).toBe(pdf.length);
  });

  it('answer HEAD with the same headers and no body', async () => {
    const key = keyFor('head.pdf');
    await store.put(key, samplePdf(), 'application/pdf');
    const { url } = await store.presignGet(key, {
      expiresInSeconds: 60,
      disposition: 'attachment',
      downloadName: 'h.pdf',
    });
    const response = await fetch(abs(url), { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(samplePdf().length));
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  it('serve PDF and image views inline, framable by the app only', async () => {
    const pdfKey = keyFor('view.pdf');
    const jpegKey = keyFor('view.jpg');
    await store.put(pdfKey, samplePdf(), 'application/pdf');
    await store.put(jpegKey, SAMPLE_JPEG, 'image/jpeg');
    const pdf = await served(pdfKey, 'inline');
    expect(pdf.headers.get('content-disposition')).toMatch(/^inline; /);
    expect(pdf.headers.get('content-security-policy')).toBe("frame-ancestors 'self'");
    const jpeg = await served(jpegKey, 'inline', 'view.jpg');
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
    expect(jpeg.headers.get('content-security-policy')).toContain("sandbox; frame-ancestors 'self'");
  });

  it('never serve a foreign file as HTML, even when signed for viewing', async () => {
    const key = keyFor('page.pdf');
    const file = objectPath(root, key);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '<html><script>alert(document.cookie)</script></html>');
    // Every file of an encrypted store is encrypted: a foreign one is not served at all.
    await expect(served(key, 'inline')).rejects.toMatchObject({ kind: 'damaged' });
    // A store without encryption serves it, but never as anything a browser would render.
    const plain = createLocalStore({
      root,
      signingKey: randomBytes(32),
      baseUrl: '/api/storage',
      encryption: null,
    });
    const plainServer = await startStorageServer(plain);
    try {
      const { url } = await plain.presignGet(key, {
        expiresInSeconds: 60,
        disposition: 'inline',
        downloadName: 'file.pdf',
      });
      // A connection of its own (no keep-alive), so nothing is left open when that server closes.
      const headers = await new Promise<http.IncomingHttpHeaders>((resolve, reject) => {
        http
          .get(new URL(url, plainServer.origin), { agent: false }, (response) => {
            response.resume();
            response.on('end', () => resolve(response.headers));
          })
          .on('error', reject);
      });
      expect(headers['content-type']).toBe('application/octet-stream');
      expect(headers['content-disposition']).toMatch(/^attachment; /);
      expect(headers['content-security-policy']).toContain('sandbox');
    } finally {
      await plainServer.close();
    }
  });

  it('refuse tampered and expired links, and say so in JSON', async () => {
    const key = keyFor('x.pdf');
    await store.put(key, samplePdf(), 'application/pdf');
    const url = abs(
      (
        await store.presignGet(key, {
          expiresInSeconds: 30,
          disposition: 'attachment',
          downloadName: 'x.pdf',
        })
      ).url,
    );
    for (const [name, value] of [
      ['d', 'inline'],
      ['n', 'other.pdf'],
      ['ct', 'text/html'],
      ['k', keyFor('y.pdf')],
    ] as const) {
      const forged = new URL(url);
      forged.searchParams.set(name, value);
      const response = await fetch(forged);
      expect(response.status).toBe(403);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    }
    nowMs += 31_000;
    const expired = await fetch(url);
    expect(expired.status).toBe(403);
    expect(await expired.json()).toEqual({
      error: 'This link has expired. Go back to the app and try again.',
      code: expect.any(String),
    });
  });

  it('answer 404 in JSON for a file deleted after the link was made', async () => {
    const key = keyFor('gone.pdf');
    await store.put(key, samplePdf(), 'application/pdf');
    const { url } = await store.presignGet(key, {
      expiresInSeconds: 60,
      disposition: 'attachment',
      downloadName: 'gone.pdf',
    });
    await store.delete([key]);
    const response = await fetch(abs(url));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: 'That file no longer exists. Refresh the list and try again.',
      code: expect.any(String),
    });
  });
});

describe('temp files', () => {
  it('are swept when older than the limit, and only then', async () => {
    await mkdir(path.join(root, '.tmp'), { recursive: true });
    const old = path.join(root, '.tmp', 'old.part');
    const fresh = path.join(root, '.tmp', 'fresh.part');
    await writeFile(old, 'x');
    await writeFile(fresh, 'x');
    const longAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    await utimes(old, longAgo, longAgo);
    expect(await store.removeStaleTemp()).toBe(1);
    expect(await tempFiles()).toEqual(['fresh.part']);
    await rm(fresh);
  });
});
