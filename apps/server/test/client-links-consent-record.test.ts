/**
 * The client's signed consent (docs/behaviour.md#requesting-documents-from-a-client, docs/security.md):
 * the name typed to sign, and a PDF the server makes from the statement it served, filed in the client's
 * `Digital Consent Form` as `Consent YYYY-MM-DD.pdf` (`From client`), which turns that category Ready.
 * The PDF passes `qpdf --check`, and its text read back with `pdftotext` holds the statement as shown in
 * the language shown, the name, the time with its zone, the address, the browser and the link (its id,
 * never its token); an admin's later change of wording alters no signed record.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_LINK_TEXTS } from '@vita-docs/core';
import { requestLink } from './docs-helpers.js';
import { seedPeople, startApp, type Agent, type TestApp } from './harness.js';

const run = promisify(execFile);
const BROWSER = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) VitaPhone/1.0';
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('the signed consent record', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  let dir = '';

  beforeAll(async () => {
    app = await startApp();
    people = await seedPeople(app);
    dir = await mkdtemp(path.join(os.tmpdir(), 'consent-record-'));
  });
  afterAll(async () => {
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A new client of volA with a request, and a phone in its link session. */
  async function linkSession(language: 'en' | 'es') {
    const { token, email, clientId } = await requestLink(people.volA, ['13614-C'], { language });
    const phone: Agent = await app.agent().prime();
    const since = (await app.outbox()).length;
    expect((await phone.post('/api/link/open', { token })).status).toBe(200);
    const code = await app.latestCode(email, since);
    expect((await phone.post('/api/link/verify', { token, code })).status).toBe(200);
    const link = await app.server.services.db
      .selectFrom('client_links')
      .select('id')
      .where('client_id', '=', clientId)
      .executeTakeFirstOrThrow();
    return { phone, clientId, token, linkId: link.id };
  }

  const sign = (phone: Agent, body: Record<string, unknown>) =>
    phone.post('/api/link/session/consent', body, { headers: { 'user-agent': BROWSER } });

  /** The records filed for the client: name, who filed it, and the text `pdftotext` reads back. */
  async function records(clientId: string) {
    const { db, store } = app.server.services;
    const rows = await db
      .selectFrom('documents')
      .select(['key', 'filename', 'uploaded_by', 'state'])
      .where('client_id', '=', clientId)
      .where('doc_type', '=', 'Digital Consent Form')
      .execute();
    return Promise.all(
      rows.map(async (row) => {
        const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
        await writeFile(file, await buffer(await store.read(row.key)));
        const check = await run('qpdf', ['--check', file]);
        const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', file, '-']);
        return { ...row, check: check.stdout, text: oneLine(stdout) };
      }),
    );
  }

  it('refuses a consent with no name, and records nothing', async () => {
    const { phone, clientId } = await linkSession('en');
    const blank = await sign(phone, { version: '1', name: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.error).toBe(CLIENT_LINK_TEXTS.en.signName);
    expect((await sign(phone, { version: '1' })).status).toBe(400);
    expect((await phone.get('/api/link/session/checklist')).body.consented).toBe(false);
    expect(await records(clientId)).toEqual([]);
  });

  it('files the signed statement as a PDF in Digital Consent Form, Ready and From client', async () => {
    const { phone, clientId, token, linkId } = await linkSession('es');
    const signed = await sign(phone, {
      version: '1',
      language: 'es',
      name: '  Rosa   Díaz ',
      timeZone: 'America/Chicago',
    });
    expect(signed.status).toBe(200);

    const [record, ...others] = await records(clientId);
    expect(others).toEqual([]);
    // The date in the phone's time zone.
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(new Date());
    expect(record).toMatchObject({
      filename: `Consent ${day}.pdf`,
      uploaded_by: `link:${linkId}`,
      state: 'stored',
    });
    expect(record?.check).toContain('No syntax or stream encoding errors found');
    const text = record?.text ?? '';
    // The statement exactly as shown, in the language shown.
    expect(text).toContain(oneLine(CLIENT_LINK_TEXTS.es.consent));
    expect(text).not.toContain(oneLine(CLIENT_LINK_TEXTS.en.consent));
    expect(text).toContain('Firmado escribiendo el nombre: Rosa Díaz');
    expect(text).toMatch(/Fecha y hora: .*2\d{3}.* \(GMT-0[56]:00, America\/Chicago\)/);
    // The address the server saw (the test's own machine), as the audit log records it.
    expect(text).toContain('Dirección de origen: 127.0.0.1');
    expect(text).toContain(`Navegador: ${BROWSER}`);
    expect(text).toContain(`Por el enlace de solicitud: /u (request link ${linkId})`);
    expect(text).toContain('Programa: VITA Documents');
    expect(text).toContain('Pedido por: Test');
    expect(text).not.toContain(token);

    // The category is Ready; the volunteer's list marks the file From client.
    const status = await people.volA.get(`/api/clients/${clientId}/docs/status`);
    expect(status.body['Digital Consent Form']).toBe(true);
    const fromClient = (await people.volA.get(`/api/clients/${clientId}/link`)).body.fromClient;
    expect(fromClient).toContain(record?.key);

    // Audited: who signed, which text, and the record filed.
    const entries = await app.server.services.db
      .selectFrom('audit_log')
      .select(['action', 'detail', 'keys', 'ip'])
      .where('client_id', '=', clientId)
      .where('action', '=', 'link.consent')
      .execute();
    expect(entries).toHaveLength(1);
    expect(entries[0]?.ip).toBe('127.0.0.1');
    expect(entries[0]?.detail).toBe(
      'signed "Rosa Díaz", consent text version 1 (es), filed in Digital Consent Form',
    );

    // Signed again (a retry): one record.
    expect((await sign(phone, { version: '1', language: 'es', name: 'Rosa Díaz' })).status).toBe(200);
    expect(await records(clientId)).toHaveLength(1);
  });

  it('keeps a signed record as signed when an admin changes the wording afterwards', async () => {
    const { phone, clientId } = await linkSession('en');
    expect((await sign(phone, { version: '1', name: 'Ana Lopez' })).status).toBe(200);
    const [before] = await records(clientId);
    expect(before?.text).toContain(oneLine(CLIENT_LINK_TEXTS.en.consent));

    const changed = await people.admin.post('/api/admin/consent-text', {
      en: 'Site 12 volunteers will see your documents. They are deleted in May.',
      es: '',
    });
    expect(changed.status).toBe(200);
    const [after] = await records(clientId);
    expect(after?.text).toBe(before?.text);
    expect(after?.text).not.toContain('Site 12');

    // A page still showing the old wording signs nothing; the new wording is what a new page signs.
    const late = await linkSession('en');
    expect((await sign(late.phone, { version: '1', name: 'Bo Late' })).status).toBe(400);
    expect(await records(late.clientId)).toEqual([]);
    expect((await sign(late.phone, { version: '2', name: 'Bo Late' })).status).toBe(200);
    const [signed] = await records(late.clientId);
    expect(signed?.text).toContain('Site 12 volunteers will see your documents. They are deleted in May.');
  });
});
