/**
 * Passkeys against the real server (docs/behaviour.md#passkeys, docs/security.md): the
 * ceremonies driven by a software authenticator (test/soft-authenticator.ts) that can be told to
 * lie, and every refusal a ceremony can meet. The Chromium journeys are in apps/web/e2e/passkeys.test.ts.
 */
import { messages, passkeyMessages } from '@vita-docs/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PIN, seedPeople, signIn, startApp, type Agent, type TestApp } from './harness.js';
import { SoftAuthenticator, type Lies } from './soft-authenticator.js';

const ORIGIN = 'https://vita.example.org';

describe('passkeys', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  let db: pg.Client;
  beforeAll(async () => {
    app = await startApp({ PUBLIC_URL: ORIGIN });
    people = await seedPeople(app);
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await app?.close();
  });

  /** Makes a passkey for the signed-in `agent` on `device`. */
  async function createPasskey(agent: Agent, device: SoftAuthenticator, lies: Lies = {}) {
    const { body } = await agent.post('/api/me/passkeys/register-options');
    return agent.post('/api/me/passkeys/register-verify', { response: device.create(body.options, lies) });
  }

  /** A passkey sign-in in a fresh browser; answers the browser and the verify reply. */
  async function passkeySignIn(device: SoftAuthenticator, lies: Lies = {}, which?: number) {
    const browser = await app.agent().prime();
    const { body } = await browser.post('/api/auth/passkey/login-options');
    const reply = await browser.post('/api/auth/passkey/login-verify', {
      response: device.get(body.options, lies, which),
    });
    return { browser, reply };
  }

  const auditActions = async (action: string) =>
    (
      await db.query<{ actor: string; detail: string }>(
        'SELECT actor, detail FROM audit_log WHERE action = $1',
        [action],
      )
    ).rows;

  it('says passkeys are on, and asks for user verification and a resident key', async () => {
    expect((await people.anonymous.get('/api/auth/passkey/status')).body).toEqual({ enabled: true });
    const { body } = await people.volA.post('/api/me/passkeys/register-options');
    expect(body.options.rp).toEqual({ id: 'vita.example.org', name: 'VITA Documents' });
    expect(body.options.authenticatorSelection).toMatchObject({
      residentKey: 'preferred',
      userVerification: 'required',
    });
    // The user handle is random, never the email.
    // (Random bytes may hold an `@`: the check is for the address itself.)
    expect(Buffer.from(body.options.user.id, 'base64url').toString('latin1')).not.toContain('example.org');
  });

  it('creates a passkey, then signs in with it alone: no PIN, no code', async () => {
    const phone = new SoftAuthenticator(ORIGIN);
    const made = await createPasskey(people.volA, phone);
    expect(made.status).toBe(200);
    expect(made.body.name).toBe('Browser on this device');
    const list = await people.volA.get('/api/me/passkeys');
    expect(list.body).toMatchObject({ offer: false, required: false });
    expect(list.body.passkeys).toEqual([expect.objectContaining({ id: made.body.id, lastUsedAt: null })]);

    const outboxBefore = (await app.outbox()).length;
    const { browser, reply } = await passkeySignIn(phone);
    expect(reply.status).toBe(200);
    expect(reply.body.user.email).toBe('vola@example.org');
    expect((await browser.get('/api/me')).body.user.email).toBe('vola@example.org');
    expect((await app.outbox()).length).toBe(outboxBefore); // no code mailed
    const after = await people.volA.get('/api/me/passkeys');
    expect(after.body.passkeys[0].lastUsedAt).not.toBeNull();
    expect(await auditActions('passkey.create')).toContainEqual({
      actor: 'vola@example.org',
      detail: 'Browser on this device',
    });
    expect((await auditActions('passkey.use')).map((r) => r.actor)).toContain('vola@example.org');
  });

  it('refuses a replayed assertion, with or without a new challenge', async () => {
    const key = new SoftAuthenticator(ORIGIN);
    expect((await createPasskey(people.volB, key)).status).toBe(200);
    const browser = await app.agent().prime();
    const { body } = await browser.post('/api/auth/passkey/login-options');
    const answer = key.get(body.options);
    expect((await browser.post('/api/auth/passkey/login-verify', { response: answer })).status).toBe(200);
    const again = await browser.post('/api/auth/passkey/login-verify', { response: answer });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe(messages.passkeyFailed);
    await browser.post('/api/auth/passkey/login-options');
    expect((await browser.post('/api/auth/passkey/login-verify', { response: answer })).status).toBe(400);
  });

  it('refuses a wrong origin, a wrong RP id and an answer without user verification', async () => {
    const key = new SoftAuthenticator(ORIGIN);
    const officer = await signIn(app, 'officer@example.org');
    expect((await createPasskey(officer, key, { origin: 'https://vita.example.org.evil.test' })).status).toBe(
      400,
    );
    expect((await createPasskey(officer, key, { rpId: 'evil.test' })).status).toBe(400);
    expect((await createPasskey(officer, key, { noUserVerification: true })).status).toBe(400);
    expect((await officer.get('/api/me/passkeys')).body.passkeys).toEqual([]);

    expect((await createPasskey(officer, key)).status).toBe(200);
    const last = key.held.length - 1;
    expect((await passkeySignIn(key, { origin: 'https://phish.example' }, last)).reply.status).toBe(400);
    expect((await passkeySignIn(key, { rpId: 'phish.example' }, last)).reply.status).toBe(400);
    expect((await passkeySignIn(key, { noUserVerification: true }, last)).reply.status).toBe(400);
    expect((await passkeySignIn(key, {}, last)).reply.status).toBe(200);
  });

  it('refuses an expired challenge and a challenge from another browser', async () => {
    const key = new SoftAuthenticator(ORIGIN);
    const admin = people.admin;
    expect((await createPasskey(admin, key)).status).toBe(200);

    const late = await app.agent().prime();
    const stale = await late.post('/api/auth/passkey/login-options');
    await db.query(`UPDATE passkey_challenges SET expires_at = now() - interval '1 second'`);
    const lateAnswer = key.get(stale.body.options);
    expect((await late.post('/api/auth/passkey/login-verify', { response: lateAnswer })).status).toBe(400);

    const asker = await app.agent().prime();
    const other = await app.agent().prime();
    const { body } = await asker.post('/api/auth/passkey/login-options');
    await other.post('/api/auth/passkey/login-options');
    const answer = key.get(body.options);
    expect((await other.post('/api/auth/passkey/login-verify', { response: answer })).status).toBe(400);
    expect((await other.get('/api/me')).status).toBe(401);
  });

  it('refuses a suspended or unapproved account with a passkey, as the PIN path does', async () => {
    const key = new SoftAuthenticator(ORIGIN);
    const volB = await signIn(app, 'volb@example.org');
    expect((await createPasskey(volB, key)).status).toBe(200);
    await db.query(`UPDATE users SET suspended = true WHERE email = 'volb@example.org'`);
    const suspended = (await passkeySignIn(key)).reply;
    expect(suspended.status).toBe(403);
    expect(suspended.body.error).toMatch(/suspended/);
    await db.query(`UPDATE users SET suspended = false, approved = false WHERE email = 'volb@example.org'`);
    const pending = (await passkeySignIn(key)).reply;
    expect(pending.status).toBe(403);
    expect(pending.body.error).toMatch(/waiting for approval/);
    await db.query(`UPDATE users SET approved = true WHERE email = 'volb@example.org'`);
    expect((await passkeySignIn(key)).reply.status).toBe(200);
  });

  it('ends a passkey session after 30 idle minutes, like any other', async () => {
    const key = new SoftAuthenticator(ORIGIN);
    const volA = await signIn(app, 'vola@example.org');
    expect((await createPasskey(volA, key)).status).toBe(200);
    const { browser, reply } = await passkeySignIn(key);
    expect(reply.status).toBe(200);
    await db.query(
      `UPDATE sessions SET last_seen_at = now() - interval '31 minutes' WHERE user_email = 'vola@example.org'`,
    );
    expect((await browser.get('/api/me')).status).toBe(401);
  });

  it('removes a passkey: it no longer signs in; removing the last is allowed', async () => {
    const key = new SoftAuthenticator(ORIGIN);
    const volA = await signIn(app, 'vola@example.org');
    const made = await createPasskey(volA, key);
    expect((await volA.del(`/api/me/passkeys/${made.body.id}`)).status).toBe(200);
    expect((await passkeySignIn(key)).reply.status).toBe(400);
    for (const p of (await volA.get('/api/me/passkeys')).body.passkeys)
      expect((await volA.del(`/api/me/passkeys/${p.id}`)).status).toBe(200);
    expect((await volA.get('/api/me/passkeys')).body).toMatchObject({ passkeys: [], offer: true });
    expect(
      (await auditActions('passkey.remove')).filter((r) => r.actor === 'vola@example.org').length,
    ).toBeGreaterThan(0);
  });

  it('lets an admin see and remove all of a user’s passkeys, with an audit entry and a mail', async () => {
    const key = new SoftAuthenticator(ORIGIN);
    const volA = await signIn(app, 'vola@example.org');
    await createPasskey(volA, key);
    await createPasskey(volA, key);
    const path = '/api/admin/users/vola%40example.org/passkeys';
    expect((await people.admin.get(path)).body).toEqual({ count: 2 });
    expect((await people.officer.get(path)).status).toBe(403);
    expect((await people.admin.del(path)).status).toBe(200);
    expect((await people.admin.get(path)).body).toEqual({ count: 0 });
    expect((await passkeySignIn(key)).reply.status).toBe(400);
    expect(await auditActions('passkey.remove')).toContainEqual({
      actor: 'admin@example.org',
      detail: 'all 2 passkeys of vola@example.org',
    });
    const mail = (await app.outbox()).filter((m) => m.to === 'vola@example.org').at(-1);
    expect(mail?.subject).toBe('Your VITA Documents passkeys were removed');
  });

  it('asks again 30 days after Not now, not before', async () => {
    const volB = await signIn(app, 'volb@example.org');
    for (const p of (await volB.get('/api/me/passkeys')).body.passkeys)
      await volB.del(`/api/me/passkeys/${p.id}`);
    expect((await volB.get('/api/me/passkeys')).body.offer).toBe(true);
    expect((await volB.post('/api/me/passkeys/not-now')).status).toBe(200);
    expect((await volB.get('/api/me/passkeys')).body.offer).toBe(false);
    // A write from outside the server reaches its session cache by a notification, a moment later.
    const declinedDaysAgo = (days: number) =>
      db.query(
        `UPDATE users SET passkey_offer_declined_at = now() - interval '${days} days' WHERE email = 'volb@example.org'`,
      );
    const offered = async () => (await volB.get('/api/me/passkeys')).body.offer;
    await declinedDaysAgo(31);
    await vi.waitFor(async () => expect(await offered()).toBe(true));
    await declinedDaysAgo(29);
    await vi.waitFor(async () => expect(await offered()).toBe(false));
  });

  it('with the rule on, an officer signed in with PIN + code reaches nothing before making a passkey', async () => {
    await db.query(`DELETE FROM passkeys WHERE user_email = 'officer@example.org'`);
    expect((await people.admin.post('/api/admin/passkey-policy', { requireForStaff: true })).body).toEqual({
      requireForStaff: true,
    });
    const officer = await signIn(app, 'officer@example.org');
    const blocked = await officer.get('/api/clients');
    expect(blocked.status).toBe(403);
    expect(blocked.body).toEqual({ error: passkeyMessages.required, code: 'passkey_required' });
    expect((await officer.get('/api/me/passkeys')).body.required).toBe(true);
    // A volunteer is not concerned.
    const volB = await signIn(app, 'volb@example.org');
    expect((await volB.get('/api/clients')).status).toBe(200);

    expect((await createPasskey(officer, new SoftAuthenticator(ORIGIN))).status).toBe(200);
    expect((await officer.get('/api/clients')).status).toBe(200);
    await people.admin.post('/api/admin/passkey-policy', { requireForStaff: false });
  });

  it('keeps passkeys through a PIN reset, and the reset mail says how many there are', async () => {
    const browser = await app.agent().prime();
    // The reset mail is sent after the answer: wait for a mail newer than the sign-in codes before it.
    const sent = (await app.outbox()).length;
    await browser.post('/api/auth/forgot-init', { email: 'officer@example.org' });
    const code = await app.latestCode('officer@example.org', sent);
    const mail = (await app.outbox()).slice(sent).find((m) => m.to === 'officer@example.org');
    expect(code).toMatch(/^\d{6}$/);
    expect(mail?.text).toContain('Your account has 1 passkey.');
    expect(
      (await browser.post('/api/auth/forgot-verify', { email: 'officer@example.org', code })).status,
    ).toBe(200);
    expect(
      (await browser.post('/api/auth/forgot-reset', { newPin1: `${PIN} 2`, newPin2: `${PIN} 2` })).status,
    ).toBe(200);
    expect(
      Number(
        (await db.query(`SELECT count(*) FROM passkeys WHERE user_email = 'officer@example.org'`)).rows[0]
          .count,
      ),
    ).toBe(1);
  });
});

describe('passkeys without PUBLIC_URL', () => {
  it('are off: no button, no ceremony, and the log says why', async () => {
    const logLines: string[] = [];
    const app = await startApp({}, { logLines });
    try {
      const browser = await app.agent().prime();
      expect((await browser.get('/api/auth/passkey/status')).body).toEqual({ enabled: false });
      expect((await browser.post('/api/auth/passkey/login-options')).status).toBe(404);
      expect(logLines.join('\n')).toContain('Passkeys are off: set PUBLIC_URL');
    } finally {
      await app.close();
    }
  });
});
