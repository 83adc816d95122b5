import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import JSZip from 'jszip';
import { FIXED_CATEGORIES } from '@vita-docs/core';
import { SAMPLE_JPEG, samplePdf } from './storage.js';
import { createClient, sha256, upload } from './docs-helpers.js';
import { seedPeople, startApp, type TestApp } from './harness.js';
import { startS3rver } from './s3rver.js';

const STORES = ['local', 's3'] as const;

describe.each(STORES)('client documents (%s store)', (storeKind) => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  let s3: Awaited<ReturnType<typeof startS3rver>> | undefined;
  let clientId: string;

  beforeAll(async () => {
    s3 = storeKind === 's3' ? await startS3rver() : undefined;
    app = await startApp({ ...(s3?.env ?? {}), MAX_UPLOAD_MB: '1' });
    people = await seedPeople(app);
    clientId = await createClient(people.volA, 'doc-client@example.org');
  });
  afterAll(async () => {
    await app?.close();
    await s3?.close();
  });

  const list = async (docType: string) =>
    (await people.volA.get(`/api/docs/list/${clientId}?docType=${encodeURIComponent(docType)}`)).body
      .items as Array<{
      key: string;
      filename: string;
      size: number;
      contentType: string;
    }>;

  it('starts with the five fixed categories, all missing', async () => {
    expect((await people.volA.get(`/api/clients/${clientId}/docs/types`)).body).toEqual({
      types: [...FIXED_CATEGORIES],
    });
    const status = (await people.volA.get(`/api/clients/${clientId}/docs/status`)).body;
    expect(status).toEqual(Object.fromEntries(FIXED_CATEGORIES.map((t) => [t, false])));
  });

  it('round-trips a PDF and a JPEG: upload, list, view, download, rename, delete', async () => {
    const pdf = samplePdf('intake form');
    const k1 = await upload(people.volA, clientId, 'Michigan/Locality Intake', 'Intake form.pdf', pdf);
    const k2 = await upload(
      people.volA,
      clientId,
      'Michigan/Locality Intake',
      'photo.jpg',
      SAMPLE_JPEG,
      'image/jpeg',
    );
    expect(k1).toMatch(new RegExp(`^${clientId}/Michigan%2FLocality%20Intake/\\d+_Intake form\\.pdf$`));
    const status = (await people.volA.get(`/api/clients/${clientId}/docs/status`)).body;
    expect(status['Michigan/Locality Intake']).toBe(true);
    expect(status['13614-C']).toBe(false);

    const items = await list('Michigan/Locality Intake');
    expect(items.map((i) => i.filename)).toEqual(['Intake form.pdf', 'photo.jpg']);
    expect(items[0]).toMatchObject({
      key: k1,
      size: pdf.length,
      contentType: 'application/pdf',
      docType: 'Michigan/Locality Intake',
    });
    expect(items[1]).toMatchObject({ key: k2, size: SAMPLE_JPEG.length, contentType: 'image/jpeg' });

    const view = await people.volA.post('/api/docs/presign-view', { key: k1 });
    expect(Date.parse(view.body.expiresAt) - Date.now()).toBeLessThanOrEqual(60_000);
    const viewed = await fetch(view.body.url);
    expect(viewed.status).toBe(200);
    expect(sha256(new Uint8Array(await viewed.arrayBuffer()))).toBe(sha256(pdf));
    expect(viewed.headers.get('content-disposition')).toMatch(/^inline/);
    if (storeKind === 'local') expect(viewed.headers.get('x-content-type-options')).toBe('nosniff');

    const dl = await people.volA.post('/api/docs/presign-get', { key: k2, downloadAs: 'Front of ID.jpg' });
    const downloaded = await fetch(dl.body.url);
    expect(sha256(new Uint8Array(await downloaded.arrayBuffer()))).toBe(sha256(SAMPLE_JPEG));
    expect(downloaded.headers.get('content-disposition')).toMatch(/^attachment;.*Front of ID\.jpg/);

    const renamed = await people.volA.post('/api/docs/rename', { key: k1, filename: '  Local intake ' });
    expect(renamed.body.filename).toBe('Local intake.pdf');
    expect(renamed.body.newKey).toBe(k1.replace('Intake form.pdf', 'Local intake.pdf'));
    expect(
      (await people.volA.post('/api/docs/rename', { key: renamed.body.newKey, filename: 'Local intake.PDF' }))
        .body.newKey,
    ).toMatch(/Local intake\.PDF$/);
    expect((await list('Michigan/Locality Intake')).map((i) => i.filename)).toEqual([
      'Local intake.PDF',
      'photo.jpg',
    ]);
    const unchanged = await people.volA.post('/api/docs/rename', { key: k2, filename: 'photo.jpg' });
    expect(unchanged.body.newKey).toBe(k2);
    expect((await people.volA.post('/api/docs/rename', { key: k2, filename: '   ' })).body).toEqual({
      error: 'Please enter a file name',
      code: expect.any(String),
    });
    const k3 = await upload(
      people.volA,
      clientId,
      'Michigan/Locality Intake',
      'other.jpg',
      SAMPLE_JPEG,
      'image/jpeg',
    );
    // The numeric prefix keeps keys unique, so two files may share a display name (the ZIP de-duplicates).
    expect((await people.volA.post('/api/docs/rename', { key: k3, filename: 'photo' })).body.filename).toBe(
      'photo.jpg',
    );

    const keys = (await list('Michigan/Locality Intake')).map((i) => i.key);
    expect((await people.volA.post('/api/docs/delete', { keys })).body).toEqual({ ok: true, deleted: 3 });
    expect(await list('Michigan/Locality Intake')).toEqual([]);
  });

  it('adds custom categories from templates and deletes them with their files', async () => {
    const added = await people.volA.post(`/api/clients/${clientId}/docs/types`, {
      template: 'W-2',
      note: '  Acme,  Inc. ',
    });
    expect(added.body).toEqual({ ok: true, docType: 'W-2 (Acme, Inc.)' });
    expect(
      (await people.volA.post(`/api/clients/${clientId}/docs/types`, { template: 'W-2', note: 'Acme, Inc.' }))
        .status,
    ).toBe(400);
    expect(
      (await people.volA.post(`/api/clients/${clientId}/docs/types`, { template: 'W-9' })).body.error,
    ).toBe('Choose one of the document templates.');
    expect(
      (
        await people.volA.post(`/api/clients/${clientId}/docs/types`, {
          template: 'Other',
          note: 'x'.repeat(10_000),
        })
      ).status,
    ).toBe(400);
    await people.volA.post(`/api/clients/${clientId}/docs/types`, { template: '1099-INT' });
    expect((await people.volA.get(`/api/clients/${clientId}/docs/types`)).body.types.slice(5)).toEqual([
      'W-2 (Acme, Inc.)',
      '1099-INT',
    ]);

    await upload(people.volA, clientId, 'W-2 (Acme, Inc.)', 'w2.pdf', samplePdf('w2'));
    const fixed = await people.volA.del(`/api/clients/${clientId}/docs/types?docType=Banking%20Info`);
    expect(fixed.status).toBe(400);
    const gone = await people.volA.del(
      `/api/clients/${clientId}/docs/types?docType=${encodeURIComponent('W-2 (Acme, Inc.)')}`,
    );
    expect(gone.body).toEqual({ ok: true });
    expect(await list('W-2 (Acme, Inc.)')).toEqual([]);
    expect((await people.volA.get(`/api/clients/${clientId}/docs/types`)).body.types).not.toContain(
      'W-2 (Acme, Inc.)',
    );
    // A deleted custom category takes no uploads (the fixed ones need no lookup; custom ones do).
    const late = await people.volA.post(`/api/docs/presign/${clientId}`, {
      docType: 'W-2 (Acme, Inc.)',
      filename: 'a.pdf',
      contentType: 'application/pdf',
    });
    expect(late.status).toBe(400);
  });

  it('zips everything, or a chosen subset, with safe unique names and the exact bytes', async () => {
    const zipClient = await createClient(people.volA, 'zip-client@example.org');
    await people.volA.post(`/api/clients/${zipClient}/docs/types`, { template: 'Other', note: '../../etc' });
    const a = samplePdf('a');
    const b = samplePdf('b');
    const c = samplePdf('c');
    await upload(people.volA, zipClient, '13614-C', 'form.pdf', a);
    await upload(people.volA, zipClient, '13614-C', 'form.pdf', b);
    await upload(people.volA, zipClient, 'Michigan/Locality Intake', 'mi.pdf', c);
    await upload(people.volA, zipClient, 'Other (../../etc)', '..pdf', SAMPLE_JPEG, 'image/jpeg');

    const res = await fetch(`${app.url}/api/clients/${zipClient}/docs/download-all`, {
      headers: { cookie: [...people.volA.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="client-${zipClient}-all-docs.zip"`,
    );
    const zip = await JSZip.loadAsync(await res.arrayBuffer());
    const names = Object.keys(zip.files).filter((n) => !zip.files[n]!.dir);
    expect(names).toHaveLength(4);
    for (const name of names) {
      expect(name.startsWith('/')).toBe(false);
      expect(name.split('/').some((s) => s === '..')).toBe(false);
    }
    const bytes = async (name: string) => sha256(await zip.file(name)!.async('uint8array'));
    expect(await bytes('13614-C/form.pdf')).toBe(sha256(a));
    expect(await bytes('13614-C/form (2).pdf')).toBe(sha256(b));
    const mi = names.find((n) => n.endsWith('/mi.pdf'))!;
    expect(mi.split('/')).toHaveLength(2);
    expect(await bytes(mi)).toBe(sha256(c));

    const subset = await fetch(
      `${app.url}/api/clients/${zipClient}/docs/download-all?include=${encodeURIComponent('Michigan/Locality Intake')}`,
      {
        headers: { cookie: [...people.volA.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      },
    );
    const subsetZip = await JSZip.loadAsync(await subset.arrayBuffer());
    expect(Object.values(subsetZip.files).filter((f) => !f.dir)).toHaveLength(1);

    const empty = await people.volA.get(`/api/clients/${zipClient}/docs/download-all?include=`);
    expect(empty.status).toBe(200);
    const unknown = await people.volA.get(`/api/clients/${zipClient}/docs/download-all?include=Nope`);
    expect(unknown.status).toBe(400);
  });

  it('refuses hostile names, keys and uploads without writing anything', async () => {
    const bad = await people.volA.post(`/api/docs/presign/${clientId}`, {
      docType: '../../x',
      filename: 'a.pdf',
      contentType: 'application/pdf',
    });
    expect(bad.status).toBe(400);
    const html = await people.volA.post(`/api/docs/presign/${clientId}`, {
      docType: '13614-C',
      filename: 'a.html',
      contentType: 'text/html',
    });
    expect(html.status).toBe(415);
    // Names every plain object inherits must not pass the allow-list lookup.
    for (const contentType of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const inherited = await people.volA.post(`/api/docs/presign/${clientId}`, {
        docType: '13614-C',
        filename: 'a.pdf',
        contentType,
      });
      expect(inherited.status, contentType).toBe(415);
    }
    const key = await upload(people.volA, clientId, '13614-C', '../../etc/passwd', samplePdf());
    expect(key.split('/')).toHaveLength(3);
    const long = await upload(people.volA, clientId, '13614-C', `${'ü'.repeat(200)}.pdf`, samplePdf());
    expect(Buffer.byteLength(long.split('/')[2]!)).toBeLessThanOrEqual(220);
    for (const k of [
      '../../etc/passwd',
      `${clientId}/13614-C/../../x`,
      `${clientId}/../1_a.pdf`,
      `${clientId}/%ZZ/1_a.pdf`,
      'x',
    ]) {
      expect((await people.volA.post('/api/docs/presign-get', { key: k })).status, k).toBe(400);
    }
    // An encoded `../` is just an (unknown) category name inside the client: nothing to find.
    expect(
      (await people.volA.post('/api/docs/presign-get', { key: `${clientId}/..%2F/1_a.pdf` })).status,
    ).toBe(404);
    expect((await people.volB.post('/api/docs/presign-view', { key })).status).toBe(403);
    expect((await people.volB.post('/api/docs/delete', { keys: [key] })).status).toBe(403);
    expect((await people.volB.post('/api/docs/rename', { key, filename: 'mine.pdf' })).status).toBe(403);
    expect((await people.volB.get(`/api/docs/list/${clientId}?docType=13614-C`)).status).toBe(403);
    // A mixed request touching another client's key deletes nothing.
    const mixed = await people.volB.post('/api/docs/delete', { keys: [key] });
    expect(mixed.status).toBe(403);
    expect((await list('13614-C')).map((i) => i.key)).toContain(key);

    if (storeKind === 'local') {
      const presign = await people.volA.post(`/api/docs/presign/${clientId}`, {
        docType: '13614-C',
        filename: 'fake.pdf',
        contentType: 'application/pdf',
      });
      const wrongMagic = await fetch(presign.body.url, {
        method: 'PUT',
        headers: { 'content-type': 'application/pdf' },
        body: '<html>hi</html>',
      });
      expect(wrongMagic.status).toBe(415);
      const tampered = await fetch(presign.body.url.replace(/sig=[^&]+/, 'sig=AAAA'), {
        method: 'PUT',
        headers: { 'content-type': 'application/pdf' },
        body: samplePdf(),
      });
      expect(tampered.status).toBe(403);
      const big = await fetch(presign.body.url, {
        method: 'PUT',
        headers: { 'content-type': 'application/pdf' },
        body: samplePdf('big', 2 * 1024 * 1024),
      });
      expect(big.status).toBe(413);
      expect((await list('13614-C')).map((i) => i.filename)).not.toContain('fake.pdf');
    }
  });

  it('keeps clients of a deleted volunteer for reassignment, and an admin delete removes every file', async () => {
    const leaver = await createClient(people.volB, 'leaver-client@example.org');
    await upload(people.volB, leaver, 'Banking Info', 'bank.pdf', samplePdf());
    expect((await people.admin.del('/api/admin/users/volb%40example.org')).status).toBe(200);
    const orphans = (await people.officer.get('/api/officer/orphaned-clients')).body.items;
    expect(orphans).toEqual([
      expect.objectContaining({ clientId: leaver, createdBy: null, previousCreatedBy: 'volb@example.org' }),
    ]);
    expect(
      (
        await people.officer.post('/api/officer/orphaned-clients/reassign', {
          clientId: leaver,
          newVolunteerEmail: 'pending@example.org',
        })
      ).status,
    ).toBe(400);
    const moved = await people.officer.post('/api/officer/orphaned-clients/reassign', {
      clientId: leaver,
      newVolunteerEmail: 'vola@example.org',
    });
    expect(moved.body.client).toMatchObject({ clientId: leaver, createdBy: 'vola@example.org' });
    expect(
      (await people.volA.get(`/api/docs/list/${leaver}?docType=Banking%20Info`)).body.items,
    ).toHaveLength(1);
    expect((await people.admin.get(`/api/admin/client-meta/${leaver}`)).body).toEqual({
      createdBy: 'vola@example.org',
      clientEmail: 'leaver-client@example.org',
    });

    const del = await people.admin.post('/api/admin/clients/delete', {
      createdBy: 'vola@example.org',
      clientEmail: 'leaver-client@example.org',
    });
    expect(del.body).toEqual({ ok: true });
    expect(await app.server.services.store.list(`${leaver}/`)).toEqual([]);
    const audit = (await people.admin.get(`/api/admin/audit?clientId=${leaver}`)).body.items.map(
      (e: { action: string }) => e.action,
    );
    expect(audit).toEqual(expect.arrayContaining(['client.create', 'client.reassign', 'client.delete']));
  });

  it('never twice: the same bytes and name presigned again find the first upload, stored or pending', async () => {
    const type = '13614-C';
    const bytes = samplePdf('sent twice');
    const announce = () =>
      people.volA.post(`/api/docs/presign/${clientId}`, {
        docType: type,
        filename: 'intake.pdf',
        contentType: 'application/pdf',
        size: bytes.length,
        sha256: sha256(bytes),
      });
    // The first attempt's PUT never arrives (its answer was lost on the way out): the retry gets the same key.
    const first = await announce();
    const retry = await announce();
    expect(retry.status).toBe(200);
    expect(retry.body.key).toBe(first.body.key);
    expect(retry.body.alreadyStored).toBeUndefined();
    const put = await fetch(retry.body.url, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf', ...(retry.body.headers ?? {}) },
      body: bytes,
    });
    expect(put.ok).toBe(true);
    await people.volA.post('/api/docs/complete', { key: retry.body.key });
    // Stored now; a further retry (its answer lost after storing) is told so and sends nothing.
    const again = await announce();
    expect(again.body).toMatchObject({ key: first.body.key, alreadyStored: true, url: '' });
    expect((await list(type)).filter((d) => d.filename === 'intake.pdf')).toHaveLength(1);
    // Other bytes under the same name are a new upload.
    const other = samplePdf('another');
    const different = await people.volA.post(`/api/docs/presign/${clientId}`, {
      docType: type,
      filename: 'intake.pdf',
      contentType: 'application/pdf',
      size: other.length,
      sha256: sha256(other),
    });
    expect(different.body.key).not.toBe(first.body.key);
    await people.volA.post('/api/docs/delete', { keys: [first.body.key, different.body.key] });
  });

  it('a retake takes the replaced file’s place in the order; a foreign or unknown key changes nothing', async () => {
    const type = 'Banking Info';
    const a = await upload(people.volA, clientId, type, 'a.pdf', samplePdf('a'));
    const b = await upload(people.volA, clientId, type, 'b.pdf', samplePdf('b'));
    await upload(people.volA, clientId, type, 'c.pdf', samplePdf('c'));
    const presign = await people.volA.post(`/api/docs/presign/${clientId}`, {
      docType: type,
      filename: 'b-retaken.pdf',
      contentType: 'application/pdf',
      replaces: b,
    });
    expect(presign.status).toBe(200);
    const bytes = samplePdf('b again');
    const put = await fetch(presign.body.url, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: bytes,
    });
    expect(put.ok).toBe(true);
    await people.volA.post('/api/docs/complete', { key: presign.body.key });
    expect((await people.volA.post('/api/docs/delete', { keys: [b] })).status).toBe(200);
    expect((await list(type)).map((d) => d.filename)).toEqual(['a.pdf', 'b-retaken.pdf', 'c.pdf']);

    // Naming a file of another category (or none) is ignored: the upload goes last as usual.
    const other = await people.volA.post(`/api/docs/presign/${clientId}`, {
      docType: '13614-C',
      filename: 'late.pdf',
      contentType: 'application/pdf',
      replaces: a,
    });
    expect(Number(/\/(\d+)_/.exec(other.body.key as string)?.[1])).toBeGreaterThan(
      Number(/\/(\d+)_/.exec(a)?.[1]),
    );
    await people.volA.post('/api/docs/delete', { keys: (await list(type)).map((d) => d.key) });
  });
});
