/**
 * Nobody but the owner can keep an account's codes from working: codes are bound to the browser
 * that asked, and wrong codes and code requests are counted per browser and per network, never per
 * account. Each test fails if its control is undone.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PIN, register, signIn, startApp, type Agent, type TestApp } from './harness.js';

/** Where the owner is (requests carry it as X-Forwarded-For); each case's stranger has a network of its own. */
const OWNER_AT = '198.51.100.20';
const NEW_PIN = 'a whole new pin 77';
const BAD_CODE = 'That code is not valid or has expired. Check the latest email or request a new code.';
const LOCK_SUBJECT = 'Your VITA Documents account is locked on new browsers';

/** Another 6-digit code than `code`: a wrong guess for sure. */
const other = (code: string, i: number) => String((Number(code) + i) % 1_000_000).padStart(6, '0');

describe('nobody else can block an account’s codes', () => {
  let app: TestApp;
  let admin: Agent;
  let accounts = 0;
  beforeAll(async () => {
    app = await startApp({ TRUST_PROXY: '127.0.0.1' });
    await register(app, 'admin@example.org', 'Ada', 'Admin');
    admin = await signIn(app, 'admin@example.org');
  });
  afterAll(async () => {
    await app?.close();
  });

  /** The stranger's address in this case (each case its own, so the per-address limits of one do not spill into the next). */
  let strangerAt = '';
  /** A new approved account (PIN {@link PIN}) for one case. */
  const newOwner = async () => {
    accounts += 1;
    strangerAt = `203.0.113.${accounts}`;
    const email = `owner${accounts}@example.org`;
    await register(app, email);
    expect(
      (await admin.post(`/api/admin/users/${encodeURIComponent(email)}/approve`, { approved: true })).status,
    ).toBe(200);
    return email;
  };
  /** A browser never used before, at `address`. */
  const browser = (address: string) => app.agent(address).prime();
  /** Asks for a reset code from `agent` and returns it as mailed (to the owner, whoever asked). */
  const requestReset = async (agent: Agent, email: string) => {
    const since = (await app.outbox()).length;
    expect((await agent.post('/api/auth/forgot-init', { email })).body).toEqual({
      ok: true,
      emailSent: true,
    });
    return app.latestCode(email, since);
  };
  /** Gives the PIN from `agent` and returns the sign-in code mailed for it. */
  const requestSignInCode = async (agent: Agent, email: string, pin = PIN) => {
    const since = (await app.outbox()).length;
    const init = await agent.post('/api/auth/login-init', { email, pin });
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    return app.latestCode(email, since);
  };
  const signInOn = async (agent: Agent, email: string, pin = PIN) => {
    const code = await requestSignInCode(agent, email, pin);
    const verify = await agent.post('/api/auth/login-verify', { email, code });
    expect(verify.status, JSON.stringify(verify.body)).toBe(200);
    expect((await agent.get('/api/me')).body.user.email).toBe(email);
  };
  /** Five wrong guesses at the code `agent` asked for: all it may take. */
  const guessWrong = async (agent: Agent, path: string, email: string, code: string) => {
    for (let i = 1; i <= 5; i += 1)
      expect((await agent.post(path, { email, code: other(code, i) })).status).toBe(400);
  };

  it('lets the owner reset the PIN and sign in on a new browser after a stranger’s reset requests and wrong codes', async () => {
    const email = await newOwner();
    // The stranger clears cookies each time: five browsers, each asking for a reset and guessing its
    // code five times (25 wrong codes, more than any day's share).
    for (let round = 0; round < 5; round += 1) {
      const stranger = await browser(strangerAt);
      await guessWrong(stranger, '/api/auth/forgot-verify', email, await requestReset(stranger, email));
    }
    const own = await browser(OWNER_AT);
    const code = await requestReset(own, email);
    // The stranger asks again, and resends, after the owner: the owner's code is not cancelled.
    const stranger = await browser(strangerAt);
    await requestReset(stranger, email);
    const since = (await app.outbox()).length;
    expect((await stranger.post('/api/auth/forgot-resend', {})).status).toBe(200);
    await app.latestCode(email, since);

    expect(await own.post('/api/auth/forgot-verify', { email, code })).toMatchObject({
      status: 200,
      body: { ok: true },
    });
    expect(await own.post('/api/auth/forgot-reset', { newPin1: NEW_PIN, newPin2: NEW_PIN })).toMatchObject({
      status: 200,
    });
    await signInOn(await browser(OWNER_AT), email, NEW_PIN);
  });

  it('never cancels a browser’s reset code because another browser asked for one', async () => {
    const email = await newOwner();
    const own = await browser(OWNER_AT);
    const code = await requestReset(own, email);
    // Even from the same network: the code belongs to the browser, not to the network.
    const neighbour = await browser(OWNER_AT);
    const theirs = await requestReset(neighbour, email);
    expect((await own.post('/api/auth/forgot-verify', { email, code })).status).toBe(200);
    expect((await neighbour.post('/api/auth/forgot-verify', { email, code: theirs })).status).toBe(200);
  });

  it('counts the wrong codes of every browser on one network together, however often they clear their cookies', async () => {
    const email = await newOwner();
    // Addresses of one IPv6 /64, which one machine can hop between at will.
    const hop = (i: number) => `2001:db8:7:7::${i + 1}`;
    for (let round = 0; round < 4; round += 1) {
      const stranger = await browser(hop(round));
      await guessWrong(stranger, '/api/auth/forgot-verify', email, await requestReset(stranger, email));
    }
    // 20 wrong codes from that network today: a fifth browser's right code is not even tried.
    const fifth = await browser('2001:db8:7:7:abcd::9');
    const right = await requestReset(fifth, email);
    expect(await fifth.post('/api/auth/forgot-verify', { email, code: right })).toMatchObject({
      status: 400,
      body: { error: BAD_CODE },
    });
    // The owner elsewhere is not held back.
    const own = await browser(OWNER_AT);
    expect(
      (await own.post('/api/auth/forgot-verify', { email, code: await requestReset(own, email) })).status,
    ).toBe(200);
  });

  it('counts wrong codes sent all at once from many browsers of one network exactly', async () => {
    const email = await newOwner();
    const browsers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => browser(`2001:db8:9:9::${i + 1}`)),
    );
    const asked: Array<[Agent, string]> = [];
    for (const stranger of browsers) asked.push([stranger, await requestReset(stranger, email)]);
    const guesses = asked.flatMap(([stranger, code]) =>
      [1, 2, 3, 4, 5].map((i) => stranger.post('/api/auth/forgot-verify', { email, code: other(code, i) })),
    );
    expect((await Promise.all(guesses)).every((r) => r.status === 400)).toBe(true);
    // 40 guesses in parallel, 20 of them tried: the network's share of the day, not one more.
    const tried = await app.server.services.db
      .selectFrom('codes')
      .select((eb) => eb.fn.sum<string>('attempts').as('tries'))
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(Number(tried.tries)).toBe(20);
  });

  it('keeps a browser to its own share of wrong codes when it moves to another network, and no one else', async () => {
    const email = await newOwner();
    const cafe = '192.0.2.50';
    const roaming = await browser(strangerAt);
    for (let round = 0; round < 4; round += 1) {
      await guessWrong(roaming, '/api/auth/forgot-verify', email, await requestReset(roaming, email));
    }
    const moved = roaming.from(cafe);
    const right = await requestReset(moved, email);
    expect(await moved.post('/api/auth/forgot-verify', { email, code: right })).toMatchObject({
      status: 400,
      body: { error: BAD_CODE },
    });
    // Someone else on the café's network still gets in.
    const own = await browser(cafe);
    expect(
      (await own.post('/api/auth/forgot-verify', { email, code: await requestReset(own, email) })).status,
    ).toBe(200);
  });

  it('mails the owner’s browser its reset code when strangers used up their share of the day', async () => {
    const email = await newOwner();
    const earlier = () =>
      sql`UPDATE codes SET created_at = now() - interval '2 hours' WHERE email = ${email}`.execute(
        app.server.services.db,
      );
    // 40 requests from fresh browsers on one network, the first 20 two hours ago (the hourly share).
    for (let i = 0; i < 40; i += 1) {
      if (i === 20) await earlier();
      await requestReset(await browser(strangerAt), email);
    }
    const own = await browser(OWNER_AT);
    const code = await requestReset(own, email);
    expect((await own.post('/api/auth/forgot-verify', { email, code })).status).toBe(200);
  });

  it('sends someone who knows the PIN at most 20 sign-in codes an hour from one network, and still the owner’s', async () => {
    const email = await newOwner();
    for (let i = 0; i < 20; i += 1) await requestSignInCode(await browser(strangerAt), email);
    const refused = await (await browser(strangerAt)).post('/api/auth/login-init', { email, pin: PIN });
    expect(refused).toMatchObject({
      status: 429,
      body: { error: 'Too many codes were requested for this email. Please wait an hour and try again.' },
    });
    await signInOn(await browser(OWNER_AT), email);
  });

  it('keeps the owner’s sign-in code working whatever someone who knows the PIN does from other browsers', async () => {
    const email = await newOwner();
    const own = await browser(OWNER_AT);
    const code = await requestSignInCode(own, email);
    // 25 wrong codes from five browsers, each sign-in after the owner's.
    for (let round = 0; round < 5; round += 1) {
      const stranger = await browser(strangerAt);
      await guessWrong(stranger, '/api/auth/login-verify', email, await requestSignInCode(stranger, email));
    }
    expect((await own.post('/api/auth/login-verify', { email, code })).status).toBe(200);
  });

  it('does not make the owner wait for a resend because a stranger asked for one', async () => {
    const email = await newOwner();
    const own = await browser(OWNER_AT);
    const stranger = await browser(strangerAt);
    for (const [start, resend, verify] of [
      [() => requestReset(own, email), '/api/auth/forgot-resend', '/api/auth/forgot-verify'],
      [() => requestSignInCode(own, email), '/api/auth/login-resend', '/api/auth/login-verify'],
    ] as const) {
      await start();
      expect((await stranger.post(resend, { email })).body).toEqual({ ok: true, emailSent: true });
      const since = (await app.outbox()).length;
      expect(await own.post(resend, {})).toMatchObject({ status: 200, body: { ok: true, emailSent: true } });
      expect((await own.post(verify, { email, code: await app.latestCode(email, since) })).status).toBe(200);
    }
  });

  it('mails the owner once when 100 wrong PINs lock new browsers out, and lets a sign-in on a known device lift the lock', async () => {
    const email = await newOwner();
    const device = await browser(OWNER_AT);
    await signInOn(device, email);
    await device.post('/api/auth/logout');
    const db = app.server.services.db;
    // 99 wrong PINs so far (the last a day ago: no wait left), for the owner and for an email without an account.
    const ghost = 'nobody-owns-this@example.org';
    const lastTries = [];
    for (const target of [email, ghost]) {
      await db
        .insertInto('login_throttle')
        .values({ email: target, failures: 99, last_failure_at: new Date(Date.now() - 24 * 3600_000) })
        .execute();
      const stranger = await browser(strangerAt);
      const hundredth = await stranger.post('/api/auth/login-init', {
        email: target,
        pin: 'wrong guess 100',
      });
      const after = await stranger.post('/api/auth/login-init', { email: target, pin: 'wrong guess 101' });
      lastTries.push([hundredth, after].map(({ status, body }) => ({ status, body })));
    }
    // Answered alike whether or not the account exists; only a real owner is mailed.
    expect(lastTries[0]).toEqual(lastTries[1]);
    expect(lastTries[0]?.map((r) => r.status)).toEqual([401, 429]);
    await vi.waitFor(async () =>
      expect((await app.outbox()).filter((m) => m.to === email && m.subject === LOCK_SUBJECT)).toHaveLength(
        1,
      ),
    );
    const notice = (await app.outbox()).find((m) => m.subject === LOCK_SUBJECT);
    expect(notice?.text).toMatch(/sign in on a computer or phone you have signed in on before/);
    expect(notice?.text).toMatch(/Forgot Password/);
    expect(notice?.text).not.toMatch(/\b\d{6}\b/);

    const locked = await (await browser(OWNER_AT)).post('/api/auth/login-init', { email, pin: PIN });
    expect(locked).toMatchObject({
      status: 429,
      body: {
        error:
          'Too many wrong Password PINs were entered for this email. Use Forgot Password to set a new one.',
      },
    });
    // The owner signs in on the device they used before: that lifts the lock for new browsers.
    await signInOn(device, email);
    await signInOn(await browser(OWNER_AT), email);
    const mails = await app.outbox();
    expect(mails.filter((m) => m.subject === LOCK_SUBJECT).map((m) => m.to)).toEqual([email]);
  });
});
