/**
 * The consent statement of request links (docs/behaviour.md#requesting-documents-from-a-client): an admin
 * rewrites it per language in Settings, each change counts up its version, the link page is served the
 * text as it reads now, and a ticked consent is audited with the version the client saw.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_LINK_TEXTS } from '@vita-docs/core';
import { requestLink } from './docs-helpers.js';
import { seedPeople, startApp, type Agent, type TestApp } from './harness.js';

describe('the consent statement of request links', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;

  beforeAll(async () => {
    app = await startApp();
    people = await seedPeople(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  /** A new client of volA with a request, and a phone in its link session. */
  async function linkSession(): Promise<{ phone: Agent; clientId: string }> {
    const { token, email, clientId } = await requestLink(people.volA, ['13614-C']);
    const phone = await app.agent().prime();
    const since = (await app.outbox()).length;
    expect((await phone.post('/api/link/open', { token })).status).toBe(200);
    const code = await app.latestCode(email, since);
    expect((await phone.post('/api/link/verify', { token, code })).status).toBe(200);
    return { phone, clientId };
  }

  const consentAudit = async (clientId: string) =>
    (
      await app.server.services.db
        .selectFrom('audit_log')
        .select('detail')
        .where('client_id', '=', clientId)
        .where('action', '=', 'link.consent')
        .execute()
    ).map((r) => r.detail);

  it('serves the default texts, version 1, until an admin writes one', async () => {
    expect((await people.admin.get('/api/admin/consent-text')).body).toEqual({ en: '', es: '', version: 1 });
    const { phone } = await linkSession();
    expect((await phone.get('/api/link/session/checklist')).body.consent).toEqual({
      version: '1',
      en: CLIENT_LINK_TEXTS.en.consent,
      es: CLIENT_LINK_TEXTS.es.consent,
    });
  });

  it('only admins read or change it', async () => {
    for (const agent of [people.volA, people.officer]) {
      expect((await agent.get('/api/admin/consent-text')).status).toBe(403);
      expect((await agent.post('/api/admin/consent-text', { en: 'x', es: '' })).status).toBe(403);
    }
    expect(
      (await people.admin.post('/api/admin/consent-text', { en: 'x'.repeat(2001), es: '' })).status,
    ).toBe(400);
  });

  it('counts up the version on each change, and the client consents to the text they were served', async () => {
    // A page loaded before the change still shows the old text: its consent is refused.
    const before = await linkSession();
    const saved = await people.admin.post('/api/admin/consent-text', {
      en: '  Site 12 volunteers will see your documents. They are deleted in May.  ',
      es: '',
    });
    expect(saved.body).toEqual({
      en: 'Site 12 volunteers will see your documents. They are deleted in May.',
      es: '',
      version: 2,
    });
    expect(
      (await before.phone.post('/api/link/session/consent', { version: '1', name: 'Cli Ent' })).status,
    ).toBe(400);

    const { phone, clientId } = await linkSession();
    const { consent } = (await phone.get('/api/link/session/checklist')).body;
    // Empty Spanish: the default text there.
    expect(consent).toEqual({
      version: '2',
      en: 'Site 12 volunteers will see your documents. They are deleted in May.',
      es: CLIENT_LINK_TEXTS.es.consent,
    });
    expect(
      (await phone.post('/api/link/session/consent', { version: '2', name: 'Cli Ent', language: 'es' }))
        .status,
    ).toBe(200);
    expect(await consentAudit(clientId)).toEqual([
      'signed "Cli Ent", consent text version 2 (es), filed in Digital Consent Form',
    ]);

    // Saving the same texts again is no change; a new Spanish text is.
    const same = await people.admin.post('/api/admin/consent-text', {
      en: 'Site 12 volunteers will see your documents. They are deleted in May.',
      es: '',
    });
    expect(same.body.version).toBe(2);
    const spanish = await people.admin.post('/api/admin/consent-text', {
      en: 'Site 12 volunteers will see your documents. They are deleted in May.',
      es: 'Los voluntarios del sitio 12 verán sus documentos.',
    });
    expect(spanish.body.version).toBe(3);
    // Back to empty: the defaults again, as version 4.
    const cleared = await people.admin.post('/api/admin/consent-text', { en: '', es: '' });
    expect(cleared.body).toEqual({ en: '', es: '', version: 4 });
    const actions = await app.server.services.db
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'consent.set')
      .orderBy('id')
      .execute();
    expect(actions.map((a) => a.detail)).toEqual([
      'consent text version 2',
      'consent text version 2',
      'consent text version 3',
      'consent text version 4',
    ]);
  });
});
