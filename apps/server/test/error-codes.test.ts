// Every refusal carries a machine `code` beside its words (docs/behaviour.md#api), and the core
// client hands it to callers, so programs branch on codes, never on text.
import { createApiClient, isApiError, type ErrorCode } from '@vita-docs/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalObjectStore } from '../src/storage/local.js';
import { createClient, pdfBytes, upload } from './docs-helpers.js';
import { seedPeople, startApp, type TestApp } from './harness.js';

describe('error codes', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  beforeAll(async () => {
    app = await startApp();
    people = await seedPeople(app);
  });
  afterAll(() => app.close());

  it('answers each kind of refusal with its own code beside the words', async () => {
    const cases: Array<
      [Promise<{ status: number; body: { error: string; code: ErrorCode } }>, number, ErrorCode]
    > = [
      [people.volA.post('/api/clients/new', { firstName: '' }), 400, 'invalid_request'],
      [people.anonymous.get('/api/clients'), 401, 'not_signed_in'],
      [people.volA.post('/api/clients/new', {}, { csrf: 'wrong' }), 403, 'bad_token'],
      [people.volA.get('/api/admin/audit'), 403, 'forbidden'],
      [people.volA.get('/api/no-such-route'), 404, 'not_found'],
    ];
    for (const [answer, status, code] of cases) {
      const { status: got, body } = await answer;
      expect({ got, code: body.code }).toEqual({ got: status, code });
      expect(body.error.length).toBeGreaterThan(0);
    }
  });

  it('tells an expired storage link from a tampered one', async () => {
    const clientId = await createClient(people.volA);
    const key = await upload(people.volA, clientId, 'Banking Info', 'coded.pdf', pdfBytes());
    const signer = (app.server.services.store as LocalObjectStore).signer;
    const grant = {
      method: 'GET',
      key,
      disposition: 'attachment',
      downloadName: 'c.pdf',
      contentType: '',
      issuedUnder: 0,
    } as const;
    const expired = await fetch(
      `${app.url}/api/storage/get?${signer.sign({ ...grant, expires: Math.floor(Date.now() / 1000) - 5 })}`,
    );
    expect([expired.status, ((await expired.json()) as { code: string }).code]).toEqual([
      403,
      'link_expired',
    ]);
    const tampered = await fetch(
      `${app.url}/api/storage/get?${signer.sign({ ...grant, expires: Math.floor(Date.now() / 1000) + 30 })}x`,
    );
    expect([tampered.status, ((await tampered.json()) as { code: string }).code]).toEqual([
      403,
      'link_invalid',
    ]);
  });

  it('reaches callers of the core client as ApiError.code', async () => {
    const api = createApiClient({ baseUrl: `${app.url}/api`, fetch: (url, init) => fetch(url, init) });
    const error = await api.listClients().catch((err: unknown) => err);
    expect(isApiError(error) && error.code).toBe('not_signed_in');
  });
});
