// Whether documents are read on the device (docs/behaviour.md#reading-documents): each person's own
// switch (Account), kept with the account, and the programme's (Settings, admins only, audited), which
// the client's request page learns with its checklist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestLink } from './docs-helpers.js';
import { seedPeople, signIn, startApp, type Agent, type TestApp } from './harness.js';

describe('reading switches', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;

  beforeAll(async () => {
    app = await startApp();
    people = await seedPeople(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  /** A phone that opened a request link and entered the mailed code. */
  async function linkPhone(): Promise<Agent> {
    const { token, email } = await requestLink(people.volA, ['Banking Info']);
    const phone = await app.agent().prime();
    const since = (await app.outbox()).length;
    expect((await phone.post('/api/link/open', { token })).status).toBe(200);
    const code = await app.latestCode(email, since);
    expect((await phone.post('/api/link/verify', { token, code })).status).toBe(200);
    return phone;
  }

  it('a person’s own switch is on by default, is theirs alone and follows them to another device', async () => {
    expect((await people.volA.get('/api/me/reading')).body).toEqual({ mine: true, programme: true });
    const off = await people.volA.post('/api/me/reading', { on: false });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ mine: false, programme: true });
    // Another browser of the same person sees it; another person does not.
    const elsewhere = await signIn(app, 'vola@example.org');
    expect((await elsewhere.get('/api/me/reading')).body).toEqual({ mine: false, programme: true });
    expect((await people.volB.get('/api/me/reading')).body).toEqual({ mine: true, programme: true });
    expect((await people.volA.post('/api/me/reading', { on: true })).body).toEqual({
      mine: true,
      programme: true,
    });
    // Signed out: nothing.
    expect((await people.anonymous.get('/api/me/reading')).status).toBe(401);
    expect((await people.anonymous.post('/api/me/reading', { on: false })).status).toBe(401);
  });

  it('refuses a switch that is not true or false with a 400 that says why', async () => {
    for (const body of [{ on: 'no' }, {}, { on: 0 }]) {
      for (const path of ['/api/me/reading', '/api/admin/reading']) {
        const res = await people.admin.post(path, body);
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
        expect(res.body).toEqual({ error: 'on must be true or false.', code: 'invalid_request' });
      }
    }
    expect((await people.admin.get('/api/me/reading')).body).toEqual({ mine: true, programme: true });
  });

  it('only an admin changes the programme’s switch; it is audited, applies to everyone and reaches the client page', async () => {
    for (const who of [people.officer, people.volA]) {
      const refused = await who.post('/api/admin/reading', { on: false });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('You do not have permission to do that.');
    }
    expect((await people.volA.get('/api/me/reading')).body).toEqual({ mine: true, programme: true });
    const phone = await linkPhone();
    expect((await phone.get('/api/link/session/checklist')).body.readDocuments).toBe(true);

    const off = await people.admin.post('/api/admin/reading', { on: false });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ on: false });
    expect((await people.admin.get('/api/me/reading')).body).toEqual({ mine: true, programme: false });
    // Each person's own switch stays as they set it; the programme's is beside it.
    expect((await people.volB.get('/api/me/reading')).body).toEqual({ mine: true, programme: false });
    expect((await phone.get('/api/link/session/checklist')).body.readDocuments).toBe(false);

    const entries = (await people.admin.get('/api/admin/audit?action=reading.set')).body.items as {
      actor: string;
      detail: string;
    }[];
    expect(entries.map((e) => [e.actor, e.detail])).toEqual([
      ['admin@example.org', 'documents checked on the device: off'],
    ]);

    expect((await people.admin.post('/api/admin/reading', { on: true })).body).toEqual({ on: true });
    expect((await phone.get('/api/link/session/checklist')).body.readDocuments).toBe(true);
  });
});
