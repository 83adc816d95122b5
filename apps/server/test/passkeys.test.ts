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
import { sha256 } from '../src/auth/crypto.js';
import { signInChallenge } from '../src/auth/passkeys.js';
import { deriveSubkey } from '../src/storage/encryption.js';

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

    // A challenge made for this browser six minutes ago (they live five), signed as the server signs them.
    const late = await app.agent().prime();
    const { body: fresh } = await late.post('/api/auth/passkey/login-options');
    const requester = sha256(`pre|${late.cookies.get('vita_pre')}`);
    const signKey = deriveSubkey(app.server.services.secret, 'vita-docs/passkey-sign-in-challenge/v1');
    const old = signInChallenge(signKey, requester, Date.now() - 6 * 60_000);
    const lateAnswer = key.get({ ...fresh.options, challenge: Buffer.from(old).toString('base64url') });
    expect((await late.post('/api/auth/passkey/login-verify', { response: lateAnswer })).status).toBe(400);
    // The same made now is taken: the refusal above was the expiry's.
    const now = signInChallenge(signKey, requester, Date.now());
    const nowAnswer = key.get({ ...fresh.options, challenge: Buffer.from(now).toString('base64url') });
    expect((await late.post('/api/auth/passkey/login-verify', { response: nowAnswer })).status).toBe(200);

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
    // Told to the owner: a thief with a session could otherwise take the owner's passkey unnoticed.
    const told = (await app.outbox()).filter((m) => m.to === 'vola@example.org').at(-1);
    expect(told?.subject).toBe('A passkey was removed from your VITA Documents account');
    expect(told?.text).toContain(`The passkey "${made.body.name}" was removed on `);
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

    // It enrols after confirming the code mailed to the account (the next describe has the refusals).
    const sent = (await app.outbox()).length;
    expect((await officer.post('/api/me/passkeys/confirmation')).status).toBe(200);
    const code = await app.latestCode('officer@example.org', sent);
    expect((await officer.post('/api/me/passkeys/confirm', { code })).status).toBe(200);
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
    expect(mail?.text).toContain('Your account has 1 passkey:');
    expect(mail?.text).toMatch(/^- Browser on this device, added [A-Z][a-z]+ \d{1,2}, \d{4}$/m);
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

describe('passkeys: the rule, the mails and the limits', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  let db: pg.Client;
  beforeAll(async () => {
    // Behind a trusted proxy so a test can come from its own network (X-Forwarded-For).
    app = await startApp({ PUBLIC_URL: ORIGIN, TRUST_PROXY: '127.0.0.1' });
    people = await seedPeople(app);
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await app?.close();
  });

  async function createPasskey(agent: Agent, device: SoftAuthenticator, name?: string) {
    const options = await agent.post('/api/me/passkeys/register-options');
    if (options.status !== 200) return options;
    return agent.post('/api/me/passkeys/register-verify', {
      response: device.create(options.body.options),
      ...(name === undefined ? {} : { name }),
    });
  }

  /** PIN, then the mailed code, in a fresh browser: the answer to the code. */
  async function pinAndCode(email: string) {
    const browser = await app.agent().prime();
    const sent = (await app.outbox()).length;
    expect((await browser.post('/api/auth/login-init', { email, pin: PIN })).status).toBe(200);
    const code = await app.latestCode(email, sent);
    return { browser, verify: await browser.post('/api/auth/login-verify', { email, code }) };
  }

  const setRule = async (on: boolean) =>
    expect((await people.admin.post('/api/admin/passkey-policy', { requireForStaff: on })).status).toBe(200);

  const passkeysOf = async (email: string) =>
    (await db.query<{ name: string }>('SELECT name FROM passkeys WHERE user_email = $1', [email])).rows;

  const audited = async (action: string, actor: string) =>
    (
      await db.query<{ detail: string }>(
        'SELECT detail FROM audit_log WHERE action = $1 AND actor = $2 ORDER BY id',
        [action, actor],
      )
    ).rows.map((r) => r.detail);

  it('with the rule on, staff who own a passkey get no session from PIN + code, only from the passkey', async () => {
    const key = new SoftAuthenticator(ORIGIN);
    expect((await createPasskey(people.officer, key)).status).toBe(200);
    await setRule(true);
    try {
      const { browser, verify } = await pinAndCode('officer@example.org');
      expect(verify.status).toBe(403);
      expect(verify.body).toEqual({ error: messages.passkeySignInRequired, code: 'passkey_required' });
      // No session came of it: the officer's lists stay shut to this browser.
      expect((await browser.get('/api/officer/volunteers')).status).toBe(401);

      const { body } = await browser.post('/api/auth/passkey/login-options');
      const signedIn = await browser.post('/api/auth/passkey/login-verify', {
        response: key.get(body.options),
      });
      expect(signedIn.status).toBe(200);
      expect((await browser.get('/api/officer/volunteers')).status).toBe(200);
    } finally {
      await setRule(false);
    }
  });

  it('with the rule on, staff without a passkey enrol only with a mailed code: once, within 15 minutes', async () => {
    await people.admin.post('/api/admin/users/vola%40example.org/role', { role: 'officer' });
    await setRule(true);
    try {
      const { browser, verify } = await pinAndCode('vola@example.org');
      expect(verify.status).toBe(200);
      expect((await browser.get('/api/officer/volunteers')).body.code).toBe('passkey_required');
      const key = new SoftAuthenticator(ORIGIN);

      // Without the mailed code: refused, nothing kept.
      const unconfirmed = await createPasskey(browser, key);
      expect(unconfirmed.status).toBe(403);
      expect(unconfirmed.body.error).toBe(passkeyMessages.confirmFirst);
      expect(await passkeysOf('vola@example.org')).toEqual([]);

      // A code older than 15 minutes is refused.
      let sent = (await app.outbox()).length;
      expect((await browser.post('/api/me/passkeys/confirmation')).body).toEqual({
        ok: true,
        emailSent: true,
      });
      const stale = await app.latestCode('vola@example.org', sent);
      const mail = (await app.outbox()).slice(sent).find((m) => m.to === 'vola@example.org');
      expect(mail?.subject).toBe('Your VITA Documents passkey confirmation code');
      expect(mail?.text).toContain('It expires in 15 minutes and works once.');
      const window = await db.query<{ minutes: number }>(
        `SELECT extract(epoch FROM expires_at - created_at) / 60 AS minutes FROM passkey_confirmations WHERE user_email = 'vola@example.org'`,
      );
      expect(Number(window.rows[0]?.minutes)).toBe(15);
      await db.query(
        `UPDATE passkey_confirmations SET created_at = created_at - interval '15 minutes 1 second', expires_at = expires_at - interval '15 minutes 1 second'`,
      );
      const late = await browser.post('/api/me/passkeys/confirm', { code: stale });
      expect(late.status).toBe(400);
      expect(late.body.error).toBe(passkeyMessages.badConfirmCode);

      // A fresh code: a wrong one is refused, the right one confirms once.
      sent = (await app.outbox()).length;
      await browser.post('/api/me/passkeys/confirmation');
      const code = await app.latestCode('vola@example.org', sent);
      const wrong = code === '000000' ? '111111' : '000000';
      expect((await browser.post('/api/me/passkeys/confirm', { code: wrong })).status).toBe(400);
      expect((await browser.post('/api/me/passkeys/confirm', { code })).status).toBe(200);
      expect((await browser.post('/api/me/passkeys/confirm', { code })).status).toBe(400);

      // Another held-back session of the same person cannot use this session's confirmation.
      const other = await pinAndCode('vola@example.org');
      expect((await createPasskey(other.browser, new SoftAuthenticator(ORIGIN))).status).toBe(403);

      expect((await createPasskey(browser, key)).status).toBe(200);
      expect((await browser.get('/api/officer/volunteers')).status).toBe(200);
      const used = await db.query(
        `SELECT used_at FROM passkey_confirmations WHERE user_email = 'vola@example.org' AND confirmed_at IS NOT NULL`,
      );
      expect(used.rows).toEqual([{ used_at: expect.any(Date) }]);
      expect(await passkeysOf('vola@example.org')).toHaveLength(1);
    } finally {
      await setRule(false);
      await people.admin.post('/api/admin/users/vola%40example.org/role', { role: 'volunteer' });
    }
  });

  it('mails the owner of every new passkey and audits it', async () => {
    const sent = (await app.outbox()).length;
    const device = new SoftAuthenticator(ORIGIN);
    const ua = `Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 ${'x'.repeat(200)}`;
    const options = await people.volB.post('/api/me/passkeys/register-options');
    const made = await people.volB.post(
      '/api/me/passkeys/register-verify',
      { response: device.create(options.body.options), name: 'Work laptop' },
      { headers: { 'user-agent': ua } },
    );
    expect(made.status).toBe(200);
    const mail = (await app.outbox()).slice(sent).find((m) => m.to === 'volb@example.org');
    expect(mail?.subject).toBe('A passkey was added to your VITA Documents account');
    expect(mail?.text).toMatch(
      /^A passkey was added to your account on [A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2} (AM|PM) UTC\. If this wasn't you, /,
    );
    expect(mail?.text).toContain('Remove all passkeys');
    expect(mail?.text).toContain('The new passkey is named: "Work laptop"');
    expect(mail?.text).toContain(
      'It was added from this browser: Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 x',
    );
    expect(mail?.text).not.toContain(ua);
    expect(await audited('passkey.create', 'volb@example.org')).toContain('Work laptop');
  });

  it('refuses passkey names the other text fields refuse, with a message', async () => {
    const key = new SoftAuthenticator(ORIGIN);
    const before = (await passkeysOf('volb@example.org')).length;
    for (const name of [
      'Phone\u202Egnp.exe',
      'Phone\r\nBcc: x',
      'Phone\u0085',
      'Phone\uD800',
      'Phone\u0000',
      'a\u2028b',
      'a\u2029b',
      'a\u200bb',
      'a\u2060b',
      'a\ufeffb',
    ]) {
      const refused = await createPasskey(people.volB, key, name);
      expect(refused.status, JSON.stringify(name)).toBe(400);
      expect(refused.body.error).toBe('Passkey name contains characters that are not allowed.');
    }
    expect(await passkeysOf('volb@example.org')).toHaveLength(before);
    // Joiners stay: real names and emoji are made with them.
    expect(
      (await createPasskey(people.volB, key, 'Fam\u200dily \ud83d\udc68\u200d\ud83d\udc67')).status,
    ).toBe(200);
  });

  it('stores nothing for login-options, prunes spent challenges, and takes an answer once', async () => {
    const key = new SoftAuthenticator(ORIGIN);
    expect((await createPasskey(people.admin, key)).status).toBe(200);
    await db.query(
      `INSERT INTO passkey_challenges (requester, purpose, challenge, expires_at) VALUES ('stale', 'login', 'x', now() - interval '1 second')`,
    );
    const count = async () =>
      (await db.query(`SELECT 1 FROM passkey_challenges WHERE purpose = 'login'`)).rows.length;
    const before = await count();
    const browser = await app.agent('198.51.100.7').prime();
    for (let i = 0; i < 30; i++)
      expect((await browser.post('/api/auth/passkey/login-options')).status).toBe(200);
    expect(await count()).toBe(before);
    // A sign-in keeps its spent challenge (pruning the stale one) so that its answer works once.
    const { body } = await browser.post('/api/auth/passkey/login-options');
    const answer = key.get(body.options);
    expect((await browser.post('/api/auth/passkey/login-verify', { response: answer })).status).toBe(200);
    expect((await db.query(`SELECT 1 FROM passkey_challenges WHERE requester = 'stale'`)).rows).toEqual([]);
    expect((await browser.post('/api/auth/passkey/login-verify', { response: answer })).status).toBe(400);
  });

  it('a flood of sign-in requests from a network does not stop another browser there signing in with its passkey', async () => {
    const key = new SoftAuthenticator(ORIGIN);
    expect((await createPasskey(people.admin, key)).status).toBe(200);
    const net = '203.0.113.9';
    // 200 requests for options, then 102 junk answers, each from a new browser (no cookie kept).
    for (let i = 0; i < 200; i++) {
      const reply = await (await app.agent(net).prime()).post('/api/auth/passkey/login-options');
      expect(reply.status, `options ${i}`).toBe(200);
    }
    for (let i = 0; i < 102; i++) {
      const junk = await (
        await app.agent(net).prime()
      ).post('/api/auth/passkey/login-verify', {
        response: { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'AAAA' } },
      });
      expect(junk.status, `verify ${i}`).toBe(400);
      expect(junk.body.error).toBe(messages.passkeyFailed);
    }
    // A credential id is no secret: 12 answers naming the admin's passkey with a wrong signature are
    // refused (429 from the tenth) and still do not stop the real passkey.
    for (let i = 0; i < 12; i++) {
      const forger = await app.agent(net).prime();
      const { body: asked } = await forger.post('/api/auth/passkey/login-options');
      const forged = key.get(asked.options);
      const signature = Buffer.from(forged.response.signature, 'base64url');
      signature.writeUInt8(signature.readUInt8(signature.length - 1) ^ 0xff, signature.length - 1);
      forged.response.signature = signature.toString('base64url');
      const refused = await forger.post('/api/auth/passkey/login-verify', { response: forged });
      expect(refused.status, `forged ${i}`).toBe(i < 9 ? 400 : 429);
    }
    const admin = await app.agent(net).prime();
    const { status, body } = await admin.post('/api/auth/passkey/login-options');
    expect(status).toBe(200);
    const signedIn = await admin.post('/api/auth/passkey/login-verify', { response: key.get(body.options) });
    expect(signedIn.status).toBe(200);
    expect((await admin.get('/api/admin/users')).status).toBe(200);
  });

  it('with the rule on, removals at once leave a staff member one passkey', async () => {
    for (const name of ['one', 'two', 'three'])
      expect((await createPasskey(people.officer, new SoftAuthenticator(ORIGIN), name)).status).toBe(200);
    await setRule(true);
    try {
      const held = (
        await db.query<{ id: string }>('SELECT id FROM passkeys WHERE user_email = $1', [
          'officer@example.org',
        ])
      ).rows;
      const answers = await Promise.all(
        held.map((p) => people.officer.call('DELETE', `/api/me/passkeys/${encodeURIComponent(p.id)}`)),
      );
      expect(answers.filter((a) => a.status === 200).length).toBe(held.length - 1);
      expect((await passkeysOf('officer@example.org')).length).toBe(1);
    } finally {
      await setRule(false);
    }
  });

  it('answers a burst of removals by a staff member with one passkey without draining the database pool', async () => {
    if ((await passkeysOf('officer@example.org')).length === 0)
      expect((await createPasskey(people.officer, new SoftAuthenticator(ORIGIN))).status).toBe(200);
    await setRule(true);
    try {
      expect((await passkeysOf('officer@example.org')).length).toBe(1);
      // The person's passkeys held locked by another connection while 12 removals arrive, so all of
      // them are inside the server at once, then let go.
      const locker = new pg.Client({ connectionString: app.databaseUrl });
      await locker.connect();
      await locker.query('BEGIN');
      await locker.query('SELECT id FROM passkeys WHERE user_email = $1 FOR UPDATE', ['officer@example.org']);
      const cookies = people.officer.cookies;
      const headers = {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        'x-csrf-token': cookies.get('csrf_token') ?? '',
      };
      const sent = Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const reply = await fetch(`${app.url}/api/me/passkeys/nonexistent${i}`, {
            method: 'DELETE',
            headers,
          });
          return reply.status;
        }),
      );
      const waiting = async () =>
        (
          await db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
          )
        ).rows[0]?.n ?? 0;
      await vi.waitFor(async () => expect(await waiting()).toBeGreaterThanOrEqual(9), { timeout: 10_000 });
      await locker.query('COMMIT');
      await locker.end();
      const statuses = await sent;
      expect(statuses).toEqual(Array<number>(12).fill(403));
    } finally {
      await setRule(false);
    }
  });

  it('with the rule on, staff cannot remove their own passkeys by a reset or in Account: an admin can', async () => {
    const key = new SoftAuthenticator(ORIGIN);
    expect((await createPasskey(people.officer, key)).status).toBe(200);
    await setRule(true);
    try {
      const had = (await passkeysOf('officer@example.org')).length;
      expect(had).toBeGreaterThan(0);
      // The mailbox alone: Forgot Password with Remove all passkeys is refused, the grant kept.
      const browser = await app.agent().prime();
      const sent = (await app.outbox()).length;
      await browser.post('/api/auth/forgot-init', { email: 'officer@example.org' });
      const code = await app.latestCode('officer@example.org', sent);
      const verified = await browser.post('/api/auth/forgot-verify', { email: 'officer@example.org', code });
      expect(verified.status).toBe(200);
      const refused = await browser.post('/api/auth/forgot-reset', {
        newPin1: PIN,
        newPin2: PIN,
        removePasskeys: true,
      });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe(passkeyMessages.staffPasskeysAtReset);
      expect(await passkeysOf('officer@example.org')).toHaveLength(had);
      // The same grant sets the PIN without removing them; PIN + code then still asks for the passkey.
      expect(
        (await browser.post('/api/auth/forgot-reset', { newPin1: PIN, newPin2: PIN, removePasskeys: false }))
          .status,
      ).toBe(200);
      expect(await passkeysOf('officer@example.org')).toHaveLength(had);
      expect((await pinAndCode('officer@example.org')).verify.body.code).toBe('passkey_required');

      // In Account, from a passkey session: not the last one, nor all of them at once.
      const signedIn = await app.agent().prime();
      const { body } = await signedIn.post('/api/auth/passkey/login-options');
      expect(
        (await signedIn.post('/api/auth/passkey/login-verify', { response: key.get(body.options) })).status,
      ).toBe(200);
      const all = await signedIn.del('/api/me/passkeys');
      expect(all.status).toBe(403);
      expect(all.body.error).toBe(passkeyMessages.staffKeepsPasskey);
      const ids = (await signedIn.get('/api/me/passkeys')).body.passkeys.map((p: { id: string }) => p.id);
      for (const id of ids.slice(1))
        expect((await signedIn.del(`/api/me/passkeys/${encodeURIComponent(id)}`)).status).toBe(200);
      const last = await signedIn.del(`/api/me/passkeys/${encodeURIComponent(ids[0])}`);
      expect(last.status).toBe(403);
      expect(last.body.error).toBe(passkeyMessages.staffKeepsPasskey);
      expect(await passkeysOf('officer@example.org')).toHaveLength(1);

      // The way back in for staff who lost every passkey: an admin removes them (audited).
      expect((await people.admin.del('/api/admin/users/officer%40example.org/passkeys')).status).toBe(200);
      expect(await passkeysOf('officer@example.org')).toEqual([]);
    } finally {
      await setRule(false);
    }
  });

  it('lists the passkeys in the reset mail; Remove all passkeys at a reset and in Account, audited', async () => {
    const volB = people.volB;
    expect((await createPasskey(volB, new SoftAuthenticator(ORIGIN), 'Kitchen tablet')).status).toBe(200);
    const names = (await passkeysOf('volb@example.org')).map((p) => p.name);
    expect(names.length).toBeGreaterThan(1);

    const browser = await app.agent().prime();
    const sent = (await app.outbox()).length;
    await browser.post('/api/auth/forgot-init', { email: 'volb@example.org' });
    const code = await app.latestCode('volb@example.org', sent);
    const mail = (await app.outbox()).slice(sent).find((m) => m.to === 'volb@example.org');
    expect(mail?.text).toContain(`Your account has ${names.length} passkeys:`);
    for (const name of names)
      expect(mail?.text).toMatch(new RegExp(`^- ${name}, added [A-Z][a-z]+ \\d{1,2}, \\d{4}$`, 'm'));
    expect(mail?.text).toContain('Remove all passkeys');
    expect((await browser.post('/api/auth/forgot-verify', { email: 'volb@example.org', code })).status).toBe(
      200,
    );
    const reset = await browser.post('/api/auth/forgot-reset', {
      newPin1: `${PIN} 2`,
      newPin2: `${PIN} 2`,
      removePasskeys: true,
    });
    expect(reset.status).toBe(200);
    expect(await passkeysOf('volb@example.org')).toEqual([]);
    expect(await audited('passkey.remove', 'volb@example.org')).toContain(
      `all ${names.length} passkeys, at a Password PIN reset`,
    );

    // In Account: the signed-in person removes all of theirs.
    const volA = await signIn(app, 'vola@example.org');
    const had = (await passkeysOf('vola@example.org')).length;
    expect(had).toBeGreaterThan(0);
    expect((await volA.del('/api/me/passkeys')).status).toBe(200);
    expect(await passkeysOf('vola@example.org')).toEqual([]);
    expect(await audited('passkey.remove', 'vola@example.org')).toContain(`all ${had} passkeys`);
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
