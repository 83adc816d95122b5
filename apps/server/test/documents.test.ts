/**
 * The documents index against both stores: verified uploads, what a crash or a late upload leaves
 * and how the sweeper settles it, indexing an existing store once, duplicates, and ZIPs built from
 * recorded CRCs that never ship a damaged file silently.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocKey, endpoints } from '@vita-docs/core';
import { indexStoredFiles, settleInterrupted, sweep } from '../src/documents/lifecycle.js';
import { samplePdf } from './storage.js';
import { inspectZip } from './zip-inspect.js';
import { createClient, pdfBytes, requestLink, sha256, upload } from './docs-helpers.js';
import { seedPeople, startApp, type TestApp } from './harness.js';
import { startS3rver } from './s3rver.js';

const STORES = ['local', 's3'] as const;

describe.each(STORES)('documents index (%s store)', (storeKind) => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  let s3: Awaited<ReturnType<typeof startS3rver>> | undefined;

  beforeAll(async () => {
    s3 = storeKind === 's3' ? await startS3rver() : undefined;
    app = await startApp({ ...(s3?.env ?? {}), MAX_UPLOAD_MB: '1' });
    people = await seedPeople(app);
  });
  afterAll(async () => {
    await app?.close();
    await s3?.close();
  });

  const services = () => app.server.services;
  const list = async (clientId: string, docType = 'Banking Info') =>
    (await people.volA.get(`/api/docs/list/${clientId}?docType=${encodeURIComponent(docType)}`)).body
      .items as Array<{
      key: string;
      filename: string;
      size: number;
      sha256?: string;
      duplicateOf?: { key: string; filename: string; docType: string };
    }>;
  const rows = async (clientId: string) =>
    services()
      .db.selectFrom('documents')
      .select(['key', 'state'])
      .where('client_id', '=', clientId)
      .execute();

  /** The core client's path: presign with size and SHA-256, PUT with the signed headers, complete. */
  async function verifiedUpload(clientId: string, filename: string, bytes: Buffer, declared = bytes) {
    const presign = await people.volA.post(`/api/docs/presign/${clientId}`, {
      docType: 'Banking Info',
      filename,
      contentType: 'application/pdf',
      size: declared.length,
      sha256: sha256(declared),
    });
    expect(presign.status).toBe(200);
    const put = await fetch(presign.body.url, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf', ...presign.body.headers },
      body: bytes,
    });
    const complete = put.ok
      ? await people.volA.post('/api/docs/complete', { key: presign.body.key })
      : undefined;
    return { key: presign.body.key as string, put, complete };
  }

  it('stores what was declared and verified, with its SHA-256, and lists it only then', async () => {
    const clientId = await createClient(people.volA);
    const bytes = pdfBytes(50_000);
    const { key, put, complete } = await verifiedUpload(clientId, 'statement.pdf', bytes);
    expect(put.status).toBe(200);
    expect(complete?.body).toMatchObject({
      ok: true,
      item: { key, size: bytes.length, sha256: sha256(bytes) },
    });
    expect(await list(clientId)).toEqual([expect.objectContaining({ key, sha256: sha256(bytes) })]);
    // Completing again answers the same; the row is stored once.
    expect((await people.volA.post('/api/docs/complete', { key })).body.item.key).toBe(key);
    expect(await rows(clientId)).toEqual([{ key, state: 'stored' }]);
  });

  it('lists an upload whose client never called complete (the presign-and-PUT API alone), in status and list', async () => {
    const clientId = await createClient(people.volA);
    const spec = async (filename: string, bytes: Buffer) => {
      const presign = await people.volA.post(`/api/docs/presign/${clientId}`, {
        docType: 'Banking Info',
        filename,
        contentType: 'application/pdf',
      });
      const put = await fetch(presign.body.url, {
        method: 'PUT',
        headers: { 'content-type': 'application/pdf' },
        body: bytes,
      });
      expect(put.status).toBe(200);
      return presign.body.key as string;
    };
    const first = pdfBytes(6_000);
    const firstKey = await spec('first.pdf', first);
    expect((await people.volA.get(`/api/clients/${clientId}/docs/status`)).body).toMatchObject({
      'Banking Info': true,
      '13614-C': false,
    });
    const second = pdfBytes(7_000);
    const secondKey = await spec('second.pdf', second);
    expect(await list(clientId)).toEqual([
      expect.objectContaining({ key: firstKey, size: first.length, sha256: sha256(first) }),
      expect.objectContaining({ key: secondKey, size: second.length, sha256: sha256(second) }),
    ]);
    expect(await rows(clientId)).toEqual(expect.arrayContaining([{ key: secondKey, state: 'stored' }]));
  });

  it('refuses bytes that differ from the declared checksum, and lists nothing', async () => {
    const clientId = await createClient(people.volA);
    const declared = pdfBytes(20_000);
    const sent = Buffer.from(declared);
    sent.writeUInt8(sent.readUInt8(5_000) ^ 0xff, 5_000);
    const { put, complete } = await verifiedUpload(clientId, 'tampered.pdf', sent, declared);
    // The local store refuses while receiving. s3rver does not verify x-amz-checksum-sha256 (real S3
    // does, with a 400 BadDigest), so there the server's own check at complete refuses it.
    const refusal = storeKind === 'local' ? put : complete;
    expect(refusal?.status).toBe(400);
    expect(await list(clientId)).toEqual([]);
    // A refused PUT may be retried on the same link until it expires, so its row stays pending (unlisted).
    expect((await rows(clientId)).filter((r) => r.state === 'stored')).toEqual([]);
    const left: string[] = [];
    for await (const object of services().store.walk())
      if (object.key.startsWith(clientId)) left.push(object.key);
    expect(left).toEqual([]);
  });

  it('refuses an upload over the limit on both stores, even when nothing was declared', async () => {
    const clientId = await createClient(people.volA);
    const big = pdfBytes(1024 * 1024 + 10);
    const declared = await people.volA.post(`/api/docs/presign/${clientId}`, {
      docType: 'Banking Info',
      filename: 'big.pdf',
      contentType: 'application/pdf',
      size: big.length,
    });
    expect(declared.status).toBe(413);
    const key = await upload(people.volA, clientId, 'Banking Info', 'big.pdf', big).catch(
      (err: Error) => err.message,
    );
    if (storeKind === 'local') expect(key).toMatch(/^PUT: 413/);
    else expect((await people.volA.post('/api/docs/complete', { key })).status).toBe(413);
    expect(await list(clientId)).toEqual([]);
  });

  it('marks byte-identical files of one client as duplicates across categories', async () => {
    const clientId = await createClient(people.volA);
    const bytes = pdfBytes(8_000);
    const first = await upload(people.volA, clientId, 'Banking Info', 'statement.pdf', bytes);
    await upload(people.volA, clientId, 'Banking Info', 'other.pdf', pdfBytes(8_000));
    const again = await upload(people.volA, clientId, 'License/Other Identification', 'copy.pdf', bytes);
    const banking = await list(clientId);
    expect(banking[0]?.duplicateOf).toEqual({
      key: again,
      filename: 'copy.pdf',
      docType: 'License/Other Identification',
    });
    expect(banking[1]?.duplicateOf).toBeUndefined();
    const ids = await list(clientId, 'License/Other Identification');
    expect(ids[0]?.duplicateOf).toEqual({ key: first, filename: 'statement.pdf', docType: 'Banking Info' });
  });

  it('answers the list as the contract writes it, byte for byte: field order, escapes, times, duplicates', async () => {
    const clientId = await createClient(people.volA);
    const added = await people.volA.post(`/api/clients/${clientId}/docs/types`, {
      template: 'W-2',
      note: 'Bank "Übersicht" \\ ✓',
    });
    expect(added.status).toBe(200);
    const category = added.body.docType as string;
    const bytes = pdfBytes(5_000);
    await upload(people.volA, clientId, category, 'Señor "Quote" – 𝄞 it\'s.pdf', bytes);
    await upload(people.volA, clientId, category, 'plain.pdf', pdfBytes(5_000));
    await upload(people.volA, clientId, 'Banking Info', 'twin.pdf', bytes);
    const answer = await people.volA.get(
      `/api/docs/list/${clientId}?docType=${encodeURIComponent(category)}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // What the contract's parse and JSON.stringify write from the answer is the answer itself.
    const parsed = endpoints.listDocs.response.parse(answer.body);
    expect(JSON.stringify(parsed)).toBe(answer.text);
    expect(parsed.items.map((item) => [item.filename, item.duplicateOf?.filename])).toEqual([
      ["Señor _Quote_ – 𝄞 it's.pdf", 'twin.pdf'], // quotes are not kept in file names; the category keeps them
      ['plain.pdf', undefined],
    ]);
    // Times as `Date#toISOString` writes what `pg` reads (microseconds cut to milliseconds).
    const stored = await services()
      .db.selectFrom('documents')
      .select(['key', 'stored_at'])
      .where('client_id', '=', clientId)
      .where('doc_type', '=', category)
      .orderBy('ord')
      .execute();
    expect(parsed.items.map((item) => [item.key, item.lastModified])).toEqual(
      stored.map((r) => [r.key, r.stored_at?.toISOString()]),
    );
    expect(
      (await people.volA.get(`/api/docs/list/${clientId}?docType=${encodeURIComponent('W-2')}`)).text,
    ).toBe('{"items":[]}');
  });

  it('settles an upload whose bytes arrived but were never recorded (a crash in between)', async () => {
    const clientId = await createClient(people.volA);
    const presign = await people.volA.post(`/api/docs/presign/${clientId}`, {
      docType: 'Banking Info',
      filename: 'crash.pdf',
      contentType: 'application/pdf',
    });
    const bytes = pdfBytes(9_000);
    // The bytes land in the store without the index hearing of it, as when the server died after publishing.
    await services().store.put(presign.body.key, bytes, 'application/pdf');
    expect(await rows(clientId)).toEqual([{ key: presign.body.key, state: 'pending' }]);
    const report = await sweep(services(), { graceMs: 60 * 60_000 });
    expect(report?.stored).toBeGreaterThanOrEqual(1);
    expect(await list(clientId)).toEqual([
      expect.objectContaining({ key: presign.body.key, sha256: sha256(bytes) }),
    ]);
  });

  it('settles such uploads at start, before the first list, on the local store', async () => {
    const clientId = await createClient(people.volA);
    const presign = await people.volA.post(`/api/docs/presign/${clientId}`, {
      docType: 'Banking Info',
      filename: 'restart.pdf',
      contentType: 'application/pdf',
    });
    const bytes = pdfBytes(9_500);
    await services().store.put(presign.body.key, bytes, 'application/pdf');
    const stored = await settleInterrupted(services());
    if (storeKind === 'local') {
      expect(stored).toBeGreaterThanOrEqual(1);
      expect(await rows(clientId)).toEqual([{ key: presign.body.key, state: 'stored' }]);
    } else {
      // On S3 the start leaves it to the list, which settles it on the way.
      expect(stored).toBe(0);
      expect(await list(clientId)).toEqual([expect.objectContaining({ key: presign.body.key })]);
    }
  });

  it('drops expired uploads that never arrived and deletes bytes no document refers to', async () => {
    const clientId = await createClient(people.volA);
    const abandoned = await people.volA.post(`/api/docs/presign/${clientId}`, {
      docType: 'Banking Info',
      filename: 'never.pdf',
      contentType: 'application/pdf',
    });
    await services()
      .db.updateTable('documents')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('key', '=', abandoned.body.key)
      .execute();
    const orphan = buildDocKey(clientId, 'Banking Info', 1, 'orphan.pdf');
    await services().store.put(orphan, samplePdf('orphan'), 'application/pdf');
    const kept = await upload(people.volA, clientId, 'Banking Info', 'kept.pdf', pdfBytes(3_000));

    // Within the grace period nothing unaccounted for is touched (it may be a rename half-way).
    await sweep(services(), { graceMs: 60 * 60_000 });
    expect(await services().store.head(orphan)).not.toBeNull();
    expect(await rows(clientId)).toHaveLength(2);

    const report = await sweep(services(), { graceMs: 0 });
    expect(report).toMatchObject({ droppedPending: 1 });
    expect(report?.deletedOrphans).toBeGreaterThanOrEqual(1);
    expect(await services().store.head(orphan)).toBeNull();
    expect(await rows(clientId)).toEqual([{ key: kept, state: 'stored' }]);
    expect(await services().store.head(kept)).not.toBeNull();
  });

  it('an upload that lands after its client was deleted is refused or swept, never listed', async () => {
    const clientId = await createClient(people.volA, `late-${storeKind}@example.org`);
    const presign = await people.volA.post(`/api/docs/presign/${clientId}`, {
      docType: 'Banking Info',
      filename: 'late.pdf',
      contentType: 'application/pdf',
    });
    const deleted = await people.admin.post('/api/admin/clients/delete', {
      createdBy: 'vola@example.org',
      clientEmail: `late-${storeKind}@example.org`,
    });
    expect(deleted.status).toBe(200);
    const put = await fetch(presign.body.url, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: pdfBytes(2_000),
    });
    if (storeKind === 'local') expect(put.status).toBe(404);
    await sweep(services(), { graceMs: 0 });
    expect(await services().store.head(presign.body.key)).toBeNull();
  });

  it('indexes the files of an existing store once, hashing them', async () => {
    const clientId = await createClient(people.volA);
    const bytes = pdfBytes(6_000);
    const key = await upload(people.volA, clientId, 'Banking Info', 'old.pdf', bytes);
    // As if the index were new: the store has the file, the table does not.
    await services().db.deleteFrom('documents').where('client_id', '=', clientId).execute();
    await services().db.deleteFrom('server_jobs').execute();
    expect(await list(clientId)).toEqual([]);
    expect(await indexStoredFiles(services())).toBeGreaterThanOrEqual(1);
    expect(await list(clientId)).toEqual([
      expect.objectContaining({ key, size: bytes.length, sha256: sha256(bytes) }),
    ]);
    expect(await indexStoredFiles(services())).toBeUndefined();
  });

  it('keeps every SHA-256 of 100 concurrent uploads equal to the one the client computed', async () => {
    const clientId = await createClient(people.volA);
    const files = Array.from({ length: 100 }, (_, i) => ({
      name: `f${i}.pdf`,
      bytes: pdfBytes(5_000 + i * 37),
    }));
    const keys = await Promise.all(
      files.map((f) => verifiedUpload(clientId, f.name, f.bytes).then((r) => r.key)),
    );
    const stored = await services()
      .db.selectFrom('documents')
      .select(['key', 'sha256', 'state'])
      .where('client_id', '=', clientId)
      .execute();
    const byKey = new Map(stored.map((r) => [r.key, r]));
    files.forEach((f, i) =>
      expect(byKey.get(keys[i]!)).toEqual({ key: keys[i], sha256: sha256(f.bytes), state: 'stored' }),
    );
    for (const [i, key] of keys.slice(0, 5).entries()) {
      const { stream } = await services().store.open(key);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      expect(sha256(Buffer.concat(chunks))).toBe(sha256(files[i]!.bytes));
    }
  });

  it('zips from the recorded CRCs, and names a damaged file in MISSING-FILES.txt instead of shipping it', async () => {
    const clientId = await createClient(people.volA);
    const good = pdfBytes(40_000);
    await upload(people.volA, clientId, 'Banking Info', 'good.pdf', good);
    const damagedKey = await upload(people.volA, clientId, 'Banking Info', 'damaged.pdf', pdfBytes(30_000));
    const zipOf = async () => {
      const res = await fetch(`${app.url}/api/clients/${clientId}/docs/download-all`, {
        headers: { cookie: [...people.volA.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    };
    const whole = await zipOf();
    const inspected = inspectZip(whole, whole.length, (offset, length) =>
      whole.subarray(offset, offset + length),
    );
    // CRC and size in each local header: no data descriptors, the bytes passed through untouched.
    expect(inspected.entries.map((e) => e.descriptorBytes)).toEqual([0, 0]);

    if (storeKind === 'local') {
      const file = path.join(app.config.dataDir, 'files', ...damagedKey.split('/'));
      await fs.truncate(file, 1_000);
    } else {
      await services().store.delete([damagedKey]);
    }
    const zip = await JSZip.loadAsync(await zipOf(), { checkCRC32: true });
    expect(Object.keys(zip.files).sort()).toEqual(
      ['Banking Info/', 'Banking Info/good.pdf', 'MISSING-FILES.txt'].filter((n) => n in zip.files).sort(),
    );
    expect(sha256(await zip.file('Banking Info/good.pdf')!.async('nodebuffer'))).toBe(sha256(good));
    expect(await zip.file('MISSING-FILES.txt')!.async('string')).toContain('Banking Info/damaged.pdf');
  });

  it('survives two renames of one file to the same name at once', async () => {
    const clientId = await createClient(people.volA);
    const bytes = pdfBytes(7_000);
    const key = await upload(people.volA, clientId, 'Banking Info', 'a.pdf', bytes);
    const answers = await Promise.all(
      [1, 2].map(() => people.volA.post('/api/docs/rename', { key, filename: 'b.pdf' })),
    );
    // One renames it; the other finds it gone (404), or its new name taken by the first (409) when it
    // looked before the first had moved the row.
    const [first, second] = answers.map((a) => a.status).sort();
    expect(first).toBe(200);
    expect([404, 409]).toContain(second);
    const items = await list(clientId);
    expect(items.map((i) => i.filename)).toEqual(['b.pdf']);
    const view = await people.volA.post('/api/docs/presign-get', { key: items[0]!.key });
    expect(sha256(new Uint8Array(await (await fetch(view.body.url)).arrayBuffer()))).toBe(sha256(bytes));
  });

  it('renames without holding a database connection while the bytes are copied', async () => {
    const clientId = await createClient(people.volA);
    const keys = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        upload(people.volA, clientId, 'Banking Info', `r${i}.pdf`, pdfBytes(3_000 + i)),
      ),
    );
    // Every copy waits until released: twelve renames of large files on a busy disk, at once.
    const store = services().store;
    const copy = store.copy.bind(store);
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let copying = 0;
    store.copy = async (from, to) => {
      copying += 1;
      await released;
      return copy(from, to);
    };
    try {
      const renames = keys.map((key, i) =>
        people.volA.post('/api/docs/rename', { key, filename: `renamed ${i}` }),
      );
      const waitUntil = Date.now() + 5_000;
      while (copying < keys.length && Date.now() < waitUntil)
        await new Promise((resolve) => setTimeout(resolve, 10));
      // More renames copy at once than the pool has connections (holding one each, only ten could,
      // and nothing else was served until their copies ended)…
      expect(copying).toBe(keys.length);
      // …and other requests are still served meanwhile.
      expect((await people.volA.get(`/api/clients/${clientId}/docs/status`)).status).toBe(200);
      release();
      expect((await Promise.all(renames)).map((r) => r.status)).toEqual(keys.map(() => 200));
    } finally {
      store.copy = copy;
      release();
    }
    expect((await list(clientId)).map((i) => i.filename).sort()).toEqual(
      keys.map((_, i) => `renamed ${i}.pdf`).sort(),
    );
  });

  it('does not sweep anything until the files already in the store are indexed', async () => {
    const clientId = await createClient(people.volA);
    const orphan = buildDocKey(clientId, 'Banking Info', 2, 'unindexed.pdf');
    await services().store.put(orphan, samplePdf('unindexed'), 'application/pdf');
    await services().db.deleteFrom('server_jobs').execute();
    expect(await sweep(services(), { graceMs: 0 })).toBeUndefined();
    expect(await services().store.head(orphan)).not.toBeNull();
    await indexStoredFiles(services());
  });

  it('never serves an upload that is not verified yet', async () => {
    const clientId = await createClient(people.volA);
    const presign = await people.volA.post(`/api/docs/presign/${clientId}`, {
      docType: 'Banking Info',
      filename: 'x.pdf',
      contentType: 'application/pdf',
    });
    await services()
      .store.put(presign.body.key, Buffer.from('<html><script>alert(1)</script></html>'), 'application/pdf')
      .catch(() => undefined);
    const view = await people.volA.post('/api/docs/presign-view', { key: presign.body.key });
    expect(view.status).toBe(404);
  });

  it.runIf(storeKind === 's3')(
    'leaves a document overwritten after it was verified out of the ZIP, never corrupting it',
    async () => {
      const clientId = await createClient(people.volA);
      const presign = await people.volA.post(`/api/docs/presign/${clientId}`, {
        docType: 'Banking Info',
        filename: 'v.pdf',
        contentType: 'application/pdf',
      });
      const first = pdfBytes(5_000);
      await fetch(presign.body.url, {
        method: 'PUT',
        headers: { 'content-type': 'application/pdf' },
        body: first,
      });
      expect((await list(clientId)).map((i) => i.sha256)).toEqual([sha256(first)]);
      // The plain API's URL carries no overwrite guard; s3rver does not honour one anyway.
      const second = pdfBytes(5_000);
      expect(
        (
          await fetch(presign.body.url, {
            method: 'PUT',
            headers: { 'content-type': 'application/pdf' },
            body: second,
          })
        ).status,
      ).toBe(200);
      const res = await fetch(`${app.url}/api/clients/${clientId}/docs/download-all`, {
        headers: { cookie: [...people.volA.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      const zip = await JSZip.loadAsync(Buffer.from(await res.arrayBuffer()), { checkCRC32: true });
      expect(zip.file('Banking Info/v.pdf')).toBeNull();
      expect(await zip.file('MISSING-FILES.txt')!.async('string')).toContain('Banking Info/v.pdf');
    },
  );

  it.runIf(storeKind === 's3')(
    'answers a complete that comes after a list refused the bytes with the reason, on both upload paths',
    async () => {
      const declared = pdfBytes(9_000);
      const sent = Buffer.from(declared);
      sent.writeUInt8(sent.readUInt8(4_000) ^ 0xff, 4_000);
      const put = (url: string, headers: Record<string, string> | undefined) =>
        fetch(url, { method: 'PUT', headers: { 'content-type': 'application/pdf', ...headers }, body: sent });
      const declaration = {
        docType: '13614-C',
        filename: 'bad.pdf',
        contentType: 'application/pdf',
        size: declared.length,
        sha256: sha256(declared),
      };

      // Staff: presign, PUT other bytes, a list settles (refuses) them, then complete.
      const clientId = await createClient(people.volA);
      const presign = await people.volA.post(`/api/docs/presign/${clientId}`, declaration);
      expect((await put(presign.body.url, presign.body.headers)).status).toBe(200);
      expect(await list(clientId, '13614-C')).toEqual([]);
      const complete = await people.volA.post('/api/docs/complete', { key: presign.body.key });
      expect([complete.status, complete.body.code]).toEqual([400, 'bad_digest']);
      expect(complete.body.error).toContain('arrived different');

      // A link session's upload, refused by the volunteer's list before the phone completes it.
      const link = await requestLink(people.volA, ['13614-C']);
      const phone = await app.agent().prime();
      const since = (await app.outbox()).length;
      expect((await phone.post('/api/link/open', { token: link.token })).status).toBe(200);
      const code = await app.latestCode(link.email, since);
      expect((await phone.post('/api/link/verify', { token: link.token, code })).status).toBe(200);
      await phone.post('/api/link/session/consent', { version: '1', name: 'Cli Ent' });
      const linkPresign = await phone.post('/api/link/session/presign', declaration);
      expect((await put(linkPresign.body.url, linkPresign.body.headers)).status).toBe(200);
      expect(await list(link.clientId, '13614-C')).toEqual([]);
      const linkComplete = await phone.post('/api/link/session/complete', { key: linkPresign.body.key });
      expect([linkComplete.status, linkComplete.body.code]).toEqual([400, 'bad_digest']);
      // Another's session learns nothing of it: the key is not its own.
      const other = await people.volB.post('/api/docs/complete', { key: linkPresign.body.key });
      expect(other.status).toBe(403);
    },
  );
});
