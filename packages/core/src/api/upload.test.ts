import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../ports.js';
import { createTestFile } from '../testing/index.js';
import { createApiClient } from './client.js';
import { ApiError } from './errors.js';
import type { CompleteUploadRequest, DocItem, PresignRequest, PresignResponse } from './schemas.js';
import { createFetchPutFile, uploadDocument } from './upload.js';
import type { PutFile } from './upload.js';

/** SHA-256 of the three bytes `abc` (the FIPS 180-2 test vector). */
const ABC_SHA256 = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
const TARGET = { clientId: 'client0001', docType: 'W-2' };
const KEY = 'client0001/W-2/1700000000000_w2.pdf';

const stored: DocItem = {
  key: KEY,
  filename: 'w2.pdf',
  size: 3,
  docType: 'W-2',
  contentType: 'application/pdf',
  lastModified: '2025-01-15T12:00:00.000Z',
};

/**
 * A server that records the three steps in order: presign answers `headers`, the PUT answers
 * `putStatus`, and complete answers `complete` (a thrown error, or the stored item).
 */
function scripted(options: { headers?: Record<string, string>; putStatus?: number; complete?: Error } = {}) {
  const steps: string[] = [];
  const presigns: PresignRequest[] = [];
  const completes: CompleteUploadRequest[] = [];
  const puts: { url: string; contentType: string; headers: Readonly<Record<string, string>> | undefined }[] =
    [];
  const api = {
    async presignUpload({
      body,
    }: {
      params: { id: string };
      body: PresignRequest;
    }): Promise<PresignResponse> {
      steps.push('presign');
      presigns.push(body);
      const answer = {
        url: 'https://store.example/put?sig=1',
        key: KEY,
        expiresAt: '2025-01-15T12:15:00.000Z',
      };
      return options.headers ? { ...answer, headers: options.headers } : answer;
    },
    async completeUpload({ body }: { body: CompleteUploadRequest }) {
      steps.push('complete');
      completes.push(body);
      if (options.complete) throw options.complete;
      return { ok: true as const, item: stored };
    },
  };
  const putFile: PutFile = async (url, _file, contentType, _onProgress, headers) => {
    steps.push('put');
    puts.push({ url, contentType, headers });
    const status = options.putStatus ?? 200;
    return { status, ok: status < 300, body: status < 300 ? '' : 'SignatureDoesNotMatch' };
  };
  return { api, putFile, steps, presigns, completes, puts };
}

describe('uploadDocument', () => {
  it('announces the exact size and the SHA-256 of the bytes in the presign', async () => {
    const server = scripted();
    await uploadDocument(
      server.api,
      server.putFile,
      TARGET,
      createTestFile('w2.pdf', 'abc', 'application/pdf'),
    );
    expect(server.presigns).toEqual([
      { docType: 'W-2', filename: 'w2.pdf', contentType: 'application/pdf', size: 3, sha256: ABC_SHA256 },
    ]);
  });

  it('hashes the bytes, not the name: an empty file and a binary one', async () => {
    const server = scripted();
    await uploadDocument(server.api, server.putFile, TARGET, createTestFile('empty.pdf', new Uint8Array(0)));
    await uploadDocument(
      server.api,
      server.putFile,
      TARGET,
      createTestFile('ff.pdf', new Uint8Array(1000).fill(255)),
    );
    expect(server.presigns.map(({ size, sha256 }) => ({ size, sha256 }))).toEqual([
      { size: 0, sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
      { size: 1000, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
    expect(server.presigns[1]?.sha256).not.toBe(server.presigns[0]?.sha256);
  });

  it('PUTs with the headers the presign answer signed, leaving out those a browser may not set', async () => {
    const server = scripted({
      headers: {
        'x-amz-checksum-sha256': 'ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=',
        'If-None-Match': '*',
        'Content-Length': '3',
        Host: 'store.example',
        'Content-Type': 'text/plain',
        'Sec-Fetch-Mode': 'cors',
        'Proxy-Authorization': 'Basic x',
      },
    });
    await uploadDocument(
      server.api,
      server.putFile,
      TARGET,
      createTestFile('w2.pdf', 'abc', 'application/pdf'),
    );
    expect(server.puts).toEqual([
      {
        url: 'https://store.example/put?sig=1',
        contentType: 'application/pdf',
        headers: {
          'x-amz-checksum-sha256': 'ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=',
          'if-none-match': '*',
        },
      },
    ]);
  });

  it('the fetch transport sends those headers with the signed content type', async () => {
    const sent: Record<string, string>[] = [];
    const fetch: FetchLike = async (_url, init = {}) => {
      sent.push(Object.fromEntries(new Headers(init.headers).entries()));
      return new Response(null, { status: 200 });
    };
    const server = scripted({ headers: { 'x-amz-checksum-sha256': 'abc=', 'if-none-match': '*' } });
    await uploadDocument(
      server.api,
      createFetchPutFile(fetch),
      TARGET,
      createTestFile('w2.pdf', 'abc', 'application/pdf'),
    );
    expect(sent).toEqual([
      { 'content-type': 'application/pdf', 'if-none-match': '*', 'x-amz-checksum-sha256': 'abc=' },
    ]);
  });

  it('completes the upload with its key after the PUT, and returns the key', async () => {
    const server = scripted();
    const key = await uploadDocument(
      server.api,
      server.putFile,
      TARGET,
      createTestFile('w2.pdf', 'abc', 'application/pdf'),
    );
    expect(key).toBe(KEY);
    expect(server.steps).toEqual(['presign', 'put', 'complete']);
    expect(server.completes).toEqual([{ key: KEY }]);
  });

  it('skips complete when the PUT answers that the server stored the document, and only then', async () => {
    const server = scripted();
    const storedBy =
      (body: string): PutFile =>
      async (url, file, contentType, onProgress, headers) => {
        await server.putFile(url, file, contentType, onProgress, headers);
        return { status: 200, ok: true, body };
      };
    const file = () => createTestFile('w2.pdf', 'abc', 'application/pdf');
    await uploadDocument(
      server.api,
      storedBy(JSON.stringify({ key: KEY, size: 3, stored: true })),
      TARGET,
      file(),
    );
    expect(server.steps).toEqual(['presign', 'put']);
    // Another key, no `stored`, or not JSON: the server is asked.
    await uploadDocument(
      server.api,
      storedBy(JSON.stringify({ key: 'other/W-2/1_x.pdf', stored: true })),
      TARGET,
      file(),
    );
    await uploadDocument(server.api, storedBy(JSON.stringify({ key: KEY, size: 3 })), TARGET, file());
    await uploadDocument(server.api, storedBy('<ETag>"abc"</ETag>'), TARGET, file());
    expect(server.completes).toHaveLength(3);
  });

  it('a refused PUT raises "Upload failed: <status> <body>" and is never completed', async () => {
    const server = scripted({ putStatus: 403 });
    await expect(
      uploadDocument(server.api, server.putFile, TARGET, createTestFile('w2.pdf', 'abc', 'application/pdf')),
    ).rejects.toMatchObject({ message: 'Upload failed: 403 SignatureDoesNotMatch', status: 403 });
    expect(server.steps).toEqual(['presign', 'put']);
  });

  it("a refused complete raises an ApiError with the server's message", async () => {
    const error = 'This file is not a PDF or an image it claims to be.';
    const fetch: FetchLike = async (url) => {
      if (url.endsWith('/docs/presign/client0001')) {
        return Response.json({
          url: 'https://store.example/put?sig=1',
          key: KEY,
          expiresAt: '2025-01-15T12:15:00.000Z',
        });
      }
      if (url.endsWith('/docs/complete')) return Response.json({ error }, { status: 415 });
      return new Response(null, { status: 200 });
    };
    const api = createApiClient({ baseUrl: 'https://vita.example/api', fetch });
    const failure = await uploadDocument(
      api,
      createFetchPutFile(fetch),
      TARGET,
      createTestFile('w2.pdf', 'abc'),
    ).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ kind: 'http', status: 415, message: error });
  });
});
