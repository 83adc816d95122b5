// The API client against the real server (apps/server from source, fresh data directory), driven
// the way the web app drives it: cookies kept by a jar, CSRF header from the cookie.
import { startTestServer } from '@vita-docs/test-server';
import type { TestServer } from '@vita-docs/test-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../src/api/client.js';
import type { ApiClient } from '../src/api/client.js';
import { ApiError } from '../src/api/errors.js';
import { createFetchPutFile, uploadToPresignedUrl } from '../src/api/upload.js';
import { createFileListFlow } from '../src/flows/file-list/file-list.js';
import { createLoginFlow } from '../src/flows/login/login.js';
import { createUploadFlow } from '../src/flows/upload/upload.js';
import { createImageConverter } from '../src/pdf/letter-pdf.js';
import { createSharpRaster } from '../src/pdf/raster.node.js';
import {
  createCookieJarFetch,
  createMemoryStorage,
  createRecordingDialogs,
  createTestFile,
} from '../src/testing/index.js';
import { makePhoto } from './images.js';
import { expectLetterPdf } from './pdf-expect.js';

const ADMIN = {
  email: 'ada.admin@example.org',
  pin: 'correct-horse-42',
  firstName: 'Ada',
  lastName: 'Admin',
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(async () => {
  await server?.stop({ keepData: false });
});

function browserLike() {
  const jar = createCookieJarFetch((url, init) => fetch(url, init), { pageUrl: server.apiUrl });
  return {
    jar,
    api: createApiClient({ baseUrl: server.apiUrl, fetch: jar.fetch, getCookie: jar.getCookie }),
  };
}

async function signIn(api: ApiClient, who = ADMIN): Promise<void> {
  const after = Date.now() - 1000;
  const { emailSent } = await api.loginInit({ body: { email: who.email, pin: who.pin } });
  expect(emailSent).toBe(true);
  await api.loginVerify({ body: { email: who.email, code: await server.latestCode(who.email, { after }) } });
}

describe('API client ↔ real server', () => {
  it('registers, signs in in two steps through the login flow, reads /me and signs out', async () => {
    const { api } = browserLike();
    // The first account of a fresh installation becomes an approved admin.
    expect(await api.register({ body: ADMIN })).toEqual({ ok: true, status: 'approved' });
    await expect(api.me()).rejects.toMatchObject({ kind: 'http', status: 401 });

    const platform = createRecordingDialogs();
    const login = createLoginFlow({ api, storage: createMemoryStorage(), platform });
    const after = Date.now() - 1000;
    await login.send({ type: 'submitCredentials', email: ADMIN.email, pin: ADMIN.pin });
    expect(login.getState()).toMatchObject({ status: 'code', email: ADMIN.email });
    await login.send({ type: 'submitCode', code: await server.latestCode(ADMIN.email, { after }) });
    expect(login.getState()).toMatchObject({
      status: 'signedIn',
      user: { email: ADMIN.email, isAdmin: true },
    });
    expect(platform.alerts).toEqual([]);

    expect((await api.me()).user).toMatchObject({ email: ADMIN.email, isAdmin: true, approved: true });
    await api.logout();
    await expect(api.me()).rejects.toBeInstanceOf(ApiError);
  });

  it("carries the server's error text, and the server refuses a state-changing call without the CSRF header", async () => {
    const { api, jar } = browserLike();
    const error = await api
      .loginInit({ body: { email: ADMIN.email, pin: 'wrong-pin-000' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBeGreaterThanOrEqual(400);
    expect((error as ApiError).message).not.toMatch(/^(Unauthorized|Bad Request|Forbidden)$/); // the server's own text

    const noCsrf = createApiClient({ baseUrl: server.apiUrl, fetch: jar.fetch });
    await expect(noCsrf.loginInit({ body: { email: ADMIN.email, pin: ADMIN.pin } })).rejects.toMatchObject({
      status: 403,
    });
  });

  it('round-trips a document: presign, direct PUT, list, rename, ZIP, delete', async () => {
    const { api } = browserLike();
    await signIn(api);
    const { client } = await api.createClient({
      body: { firstName: 'Cleo', lastName: 'Client', email: 'cleo@example.org', phone: '555-010-1234' },
    });
    const id = client.clientId;
    expect(await api.addDocType({ params: { id }, body: { template: 'W-2' } })).toEqual({
      ok: true,
      docType: 'W-2',
    });
    expect((await api.docTypes({ params: { id } })).types).toContain('W-2');

    const pdf = createTestFile(
      'W2 2024.pdf',
      '%PDF-1.4\n%âãÏÓ\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n',
      'application/pdf',
    );
    const presigned = await api.presignUpload({
      params: { id },
      body: { docType: 'W-2', filename: pdf.name, contentType: 'application/pdf' },
    });
    await uploadToPresignedUrl(presigned.url, pdf, { fetch: (url, init) => fetch(url, init) });

    const { items } = await api.listDocs({ params: { id }, query: { docType: 'W-2' } });
    expect(items).toEqual([
      expect.objectContaining({ key: presigned.key, filename: 'W2 2024.pdf', size: pdf.size }),
    ]);
    expect((await api.docStatus({ params: { id } }))['W-2']).toBe(true);

    const renamed = await api.renameDoc({ body: { key: presigned.key, filename: 'W-2 final.pdf' } });
    expect(renamed.filename).toBe('W-2 final.pdf');

    const zip = await api.downloadAll({ params: { id } });
    expect(zip.headers.get('content-type')).toMatch(/zip/);
    expect(new Uint8Array(await zip.arrayBuffer()).subarray(0, 2)).toEqual(new Uint8Array([0x50, 0x4b]));

    expect(await api.deleteDocs({ body: { keys: [renamed.newKey] } })).toEqual({ ok: true, deleted: 1 });
    expect((await api.listDocs({ params: { id }, query: { docType: 'W-2' } })).items).toEqual([]);
  });

  it('a rejected direct upload raises "Upload failed: <status>" with the body', async () => {
    const { api } = browserLike();
    await signIn(api);
    const { items } = await api.listClients();
    const presigned = await api.presignUpload({
      params: { id: items[0]!.clientId },
      body: { docType: '13614-C', filename: 'a.pdf', contentType: 'application/pdf' },
    });
    const tampered = presigned.url.replace(/sig(nature)?=[^&]+/i, (m) => `${m.split('=')[0]}=AAAA`);
    const error = await uploadToPresignedUrl(
      tampered === presigned.url ? `${presigned.url}x` : tampered,
      createTestFile('a.pdf', '%PDF'),
      {
        fetch: (url, init) => fetch(url, init),
      },
    ).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^Upload failed: 4\d\d/);
  });

  it('the upload flow converts a phone photo and stores it through the real server', async () => {
    const { api } = browserLike();
    await signIn(api);
    const { items } = await api.listClients();
    const target = { clientId: items[0]!.clientId, docType: 'Banking Info' };
    const platform = createRecordingDialogs();
    const list = createFileListFlow({ api, platform, target });
    const upload = createUploadFlow({
      api,
      putFile: createFetchPutFile((url, init) => fetch(url, init)),
      convert: createImageConverter({ raster: createSharpRaster() }),
      storage: createMemoryStorage(),
      platform,
      target,
      refresh: () => list.send({ type: 'refresh' }),
    });
    await upload.send({
      type: 'add',
      files: [createTestFile('cheque.jpg', await makePhoto('jpeg', 3000, 2000, 6), 'image/jpeg')],
    });
    await upload.send({ type: 'upload' });
    expect(platform.alerts).toEqual([]);
    expect(list.getState().items.map((i) => [i.filename, i.contentType])).toEqual([
      ['cheque.pdf', 'application/pdf'],
    ]);

    const { url } = await api.presignGet({ body: { key: list.getState().items[0]!.key } });
    const stored = new Uint8Array(await (await fetch(new URL(url, server.url))).arrayBuffer());
    await expectLetterPdf(stored, { width: 3000, height: 2000 });
  });
});
