/**
 * Signed links and stored names: a link cannot be forged from anything the database holds, lives no
 * longer than the server signs, and every fetch through one is audited; a stored name keeps its real
 * type's extension everywhere it is shown or downloaded, names stored before that rule included.
 * docs/security.md lists each control beside its test here.
 */
import { createHmac } from 'node:crypto';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveDocument } from '../src/documents/rename.js';
import type { LocalObjectStore } from '../src/storage/local.js';
import { createClient, pdfBytes, upload } from './docs-helpers.js';
import { restartApp, seedPeople, startApp, type Agent, type TestApp } from './harness.js';

/** A view or download link signed the way an attacker with `key` would, for a year. */
function forgedLink(
  origin: string,
  key: string,
  docKey: string,
  label: string,
  version: 'v1' | 'v2',
): string {
  const derived = createHmac('sha256', key).update(label).digest();
  const expires = Math.floor(Date.now() / 1000) + 365 * 24 * 3600;
  const fields =
    version === 'v1'
      ? ['v1', 'GET', docKey, 'attachment', 'x.pdf', '', expires]
      : ['v2', 'GET', docKey, 'attachment', 'x.pdf', '', 0, expires];
  const sig = createHmac('sha256', derived).update(JSON.stringify(fields)).digest('base64url');
  const query = new URLSearchParams({
    k: docKey,
    d: 'attachment',
    n: 'x.pdf',
    ct: '',
    a: '0',
    exp: String(expires),
    sig,
  });
  return `${origin}/api/storage/get?${query.toString()}`;
}

describe('signed links and stored names', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  let clientId: string;

  beforeAll(async () => {
    app = await startApp();
    people = await seedPeople(app);
    clientId = await createClient(people.volA);
  });
  afterAll(() => app.close());

  const store = () => app.server.services.store as LocalObjectStore;
  const docs = async (agent: Agent, docType: string) =>
    (await agent.get(`/api/docs/list/${clientId}?docType=${encodeURIComponent(docType)}`)).body
      .items as Array<{ key: string; filename: string }>;

  describe('signed links', () => {
    it('cannot be signed with anything the database holds', async () => {
      const key = await upload(people.volA, clientId, 'Banking Info', 'forged.pdf', pdfBytes());
      const secrets = await app.server.services.db.selectFrom('server_secrets').select('value').execute();
      expect(secrets.length).toBeGreaterThan(0);
      for (const { value } of secrets) {
        for (const material of [Buffer.from(value, 'base64'), value]) {
          for (const label of ['vita-docs/local-storage-url/v1', 'vita-docs/local-storage-url/v2']) {
            for (const version of ['v1', 'v2'] as const) {
              const response = await fetch(forgedLink(app.url, material as string, key, label, version));
              expect(response.status).toBe(403);
            }
          }
        }
      }
    });

    it('refuses a link that lives longer than the server ever signs, even with a valid signature', async () => {
      const key = await upload(people.volA, clientId, 'Banking Info', 'year.pdf', pdfBytes());
      const now = Math.floor(Date.now() / 1000);
      const sign = (method: 'GET' | 'PUT', seconds: number) =>
        method === 'GET'
          ? store().signer.sign({
              method,
              key,
              disposition: 'attachment',
              downloadName: 'y.pdf',
              contentType: '',
              issuedUnder: 0,
              expires: now + seconds,
            })
          : store().signer.sign({
              method,
              key: `${clientId}/Banking%20Info/1_new.pdf`,
              contentType: 'application/pdf',
              maxBytes: 1000,
              expires: now + seconds,
            });
      expect((await fetch(`${app.url}/api/storage/get?${sign('GET', 365 * 24 * 3600)}`)).status).toBe(403);
      expect((await fetch(`${app.url}/api/storage/get?${sign('GET', 10 * 60)}`)).status).toBe(403);
      expect((await fetch(`${app.url}/api/storage/get?${sign('GET', 50)}`)).status).toBe(200);
      const put = await fetch(`${app.url}/api/storage/put?${sign('PUT', 2 * 3600)}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/pdf' },
        body: pdfBytes(),
      });
      expect(put.status).toBe(403);
      await expect(
        store().presignGet(key, { expiresInSeconds: 3600, disposition: 'inline', downloadName: 'x.pdf' }),
      ).rejects.toThrow(RangeError);
    });

    it('audits every fetch of a document’s bytes: whom the link was issued to, the document, the address', async () => {
      const key = await upload(people.volA, clientId, 'Banking Info', 'fetched.pdf', pdfBytes());
      const { url } = (await people.volA.post('/api/docs/presign-view', { key })).body as { url: string };
      expect((await fetch(url)).status).toBe(200);
      expect((await fetch(url, { headers: { range: 'bytes=0-9' } })).status).toBe(206);
      const { items } = (await people.admin.get('/api/admin/audit?action=doc.fetch')).body as {
        items: Array<{ actor: string | null; keys: string[]; ip: string | null; clientId: string | null }>;
      };
      const mine = items.filter((entry) => entry.keys.includes(key));
      expect(mine).toHaveLength(2);
      for (const entry of mine)
        expect(entry).toMatchObject({ actor: 'vola@example.org', clientId, ip: '127.0.0.1' });
    });
  });

  describe('stored names', () => {
    it('keep their real type’s extension through rename, ZIP and Content-Disposition', async () => {
      const key = await upload(people.volA, clientId, 'Banking Info', 'statement.pdf', pdfBytes());
      const dots = await people.volA.post('/api/docs/rename', { key, filename: '..' });
      expect(dots).toMatchObject({ status: 400, body: { error: 'Please enter a file name' } });
      expect((await people.volA.post('/api/docs/rename', { key, filename: ' . . ' })).status).toBe(400);

      const renamed = await people.volA.post('/api/docs/rename', { key, filename: 'statement.cmd' });
      expect(renamed.status).toBe(200);
      expect(renamed.body.filename).toBe('statement.cmd.pdf');
      const again = await people.volA.post('/api/docs/rename', {
        key: renamed.body.newKey,
        filename: 'run.hta',
      });
      expect(again.body.filename).toBe('run.hta.pdf');

      const { url } = (
        await people.volA.post('/api/docs/presign-get', {
          key: again.body.newKey,
          downloadAs: 'a_;x=1;evil.html',
        })
      ).body as { url: string };
      const download = await fetch(url);
      expect(download.headers.get('content-disposition')).toMatch(
        /filename="a__x=1_evil\.html\.pdf"|filename="a_;x=1;evil\.html\.pdf"/,
      );
      expect(download.headers.get('content-disposition')).toMatch(/\.pdf$/);

      const zip = await fetch(`${app.url}/api/clients/${clientId}/docs/download-all`, {
        headers: { cookie: [...people.volA.cookies].map(([n, v]) => `${n}=${v}`).join('; ') },
      });
      const names = Object.keys((await JSZip.loadAsync(await zip.arrayBuffer())).files).filter((n) =>
        n.startsWith('Banking Info/'),
      );
      expect(names).toContain('Banking Info/run.hta.pdf');
      for (const name of names) expect(name).toMatch(/\.pdf$/);
    });

    it('gives names stored before the rule their type’s extension at the next start, audited', async () => {
      const key = await upload(
        people.volA,
        clientId,
        'License/Other Identification',
        'letter.pdf',
        pdfBytes(),
      );
      const parts = key.split('/');
      const oldKey = `${parts[0]}/${parts[1]}/${parts[2]!.replace('letter.pdf', 'letter.cmd')}`;
      // As an older version could have left it: the bytes of a PDF under a `.cmd` name.
      expect(
        await moveDocument(
          app.server.services,
          { key, newKey: oldKey, filename: 'letter.cmd', clientId },
          { actor: null, ip: null },
        ),
      ).toBe('moved');
      await app.server.services.db
        .deleteFrom('server_jobs')
        .where('name', '=', 'document-names-typed/v1')
        .execute();
      const volA = people.volA;
      app = await restartApp(app);
      people = { ...people, volA: volA.at(app.url), admin: people.admin.at(app.url) };
      let names: string[] = [];
      for (let attempt = 0; attempt < 200 && !names.includes('letter.cmd.pdf'); attempt += 1) {
        names = (await docs(people.volA, 'License/Other Identification')).map((d) => d.filename);
        if (!names.includes('letter.cmd.pdf')) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(names).toEqual(['letter.cmd.pdf']);
      const { items } = (await people.admin.get('/api/admin/audit?action=doc.rename')).body as {
        items: Array<{ actor: string | null; keys: string[] }>;
      };
      expect(items.find((entry) => entry.keys[0] === oldKey)).toMatchObject({ actor: null });
    });
  });
});
