/**
 * Moving a document to another category of its client (`POST /api/docs/move`): the category is added
 * when the client lacks it, the file keeps its name, bytes and place, and the move is audited.
 * Who may move is in authorization-matrix.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, sha256, upload } from './docs-helpers.js';
import { seedPeople, startApp, type TestApp } from './harness.js';
import { startS3rver } from './s3rver.js';
import { samplePdf } from './storage.js';

describe.each(['local', 's3'] as const)('moving a document (%s store)', (storeKind) => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  let s3: Awaited<ReturnType<typeof startS3rver>> | undefined;
  let clientId: string;

  beforeAll(async () => {
    s3 = storeKind === 's3' ? await startS3rver() : undefined;
    app = await startApp({ ...(s3?.env ?? {}) });
    people = await seedPeople(app);
    clientId = await createClient(people.volA);
    await people.volA.post(`/api/clients/${clientId}/docs/types`, { template: 'W-2' });
  });
  afterAll(async () => {
    await app?.close();
    await s3?.close();
  });

  const list = async (docType: string) =>
    (await people.volA.get(`/api/docs/list/${clientId}?docType=${encodeURIComponent(docType)}`)).body
      .items as Array<{ key: string; filename: string; docType: string }>;
  const move = (key: string, docType: unknown) => people.volA.post('/api/docs/move', { key, docType });

  it('moves a file to a category the client lacks, adding it; the old one is missing again', async () => {
    const pdf = samplePdf('interest income');
    const key = await upload(people.volA, clientId, 'W-2', 'bank.pdf', pdf);
    const moved = await move(key, '1099-INT');
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({
      ok: true,
      newKey: key.replace('/W-2/', '/1099-INT/'),
      docType: '1099-INT',
    });
    expect(await list('W-2')).toEqual([]);
    expect(await list('1099-INT')).toMatchObject([{ key: moved.body.newKey, filename: 'bank.pdf' }]);
    const status = (await people.volA.get(`/api/clients/${clientId}/docs/status`)).body;
    expect(status).toMatchObject({ 'W-2': false, '1099-INT': true });
    const view = await people.volA.post('/api/docs/presign-view', { key: moved.body.newKey });
    expect(sha256(new Uint8Array(await (await fetch(view.body.url)).arrayBuffer()))).toBe(sha256(pdf));
    // The old key is gone: a second click is told so, and nothing changes.
    const again = await move(key, '1099-INT');
    expect(again.status).toBe(404);
    expect(again.body.error).toMatch(/no longer exists/);

    const audit = (await people.admin.get(`/api/admin/audit?clientId=${clientId}`)).body.items as Array<{
      action: string;
      detail: string | null;
      keys: string[];
    }>;
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'doctype.add', detail: '1099-INT' }),
        expect.objectContaining({
          action: 'doc.move',
          detail: 'W-2 → 1099-INT',
          keys: [key, moved.body.newKey],
        }),
      ]),
    );
  });

  it('moves into a fixed or an existing category; into its own category changes nothing', async () => {
    const key = await upload(people.volA, clientId, 'W-2', 'check.pdf', samplePdf('void check'));
    expect((await move(key, 'W-2')).body).toEqual({ ok: true, newKey: key, docType: 'W-2' });
    const moved = await move(key, 'Banking Info');
    expect(moved.status).toBe(200);
    expect((await list('Banking Info')).map((i) => i.key)).toEqual([moved.body.newKey]);
    const back = await move(moved.body.newKey, 'W-2');
    expect(back.body.newKey).toBe(key);
  });

  it('refuses bad input with a 400 and a message, and a taken name with a 409, changing nothing', async () => {
    const key = await upload(people.volA, clientId, 'W-2', 'w2.pdf', samplePdf('wages'));
    const cases: Array<[unknown, RegExp]> = [
      [undefined, /Document type is required/],
      ['', /Document type is required/],
      [42, /Document type/],
      ['Groceries', /Unknown document type “Groceries”/],
      ['W-2 (nobody)', /Unknown document type/],
    ];
    for (const [docType, message] of cases) {
      const res = await move(key, docType);
      expect(res.status, String(docType)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    expect((await people.volA.post('/api/docs/move', { key: '../etc/passwd', docType: 'W-2' })).status).toBe(
      400,
    );
    expect((await people.volA.post('/api/docs/move', { docType: 'W-2' })).status).toBe(400);

    // A file of the same name and place already in the target: refused, both stay.
    const parts = key.split('/');
    const twin = await app.server.services.db
      .insertInto('documents')
      .values({
        key: `${clientId}/Banking%20Info/${parts[2]}`,
        client_id: clientId,
        doc_type: 'Banking Info',
        ord: Number(parts[2]!.split('_')[0]),
        filename: 'w2.pdf',
        state: 'pending',
        content_type: 'application/pdf',
        max_bytes: 1,
        expires_at: new Date(Date.now() + 60_000),
      })
      .returning('key')
      .executeTakeFirstOrThrow();
    const taken = await move(key, 'Banking Info');
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe('A file with this name is already in “Banking Info”.');
    expect((await list('W-2')).map((i) => i.key)).toContain(key);
    await app.server.services.db.deleteFrom('documents').where('key', '=', twin.key).execute();
    const types = (await people.volA.get(`/api/clients/${clientId}/docs/types`)).body.types as string[];
    expect(types).not.toContain('Groceries');
  });
});
