/**
 * Guessing a PIN or a code: a stranger's wrong PINs slow the next tries on new browsers down, and 100
 * in a row lock new browsers out until the PIN is reset; wrong codes and codes sent for an email are
 * limited per day; a code can be tried only by the browser that asked for it; common PINs are
 * refused. Each test fails if its control is undone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIN, register, seedPeople, signIn, startApp, type TestApp } from './harness.js';

describe('PIN and code guessing', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  beforeAll(async () => {
    app = await startApp();
    people = await seedPeople(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  /** Pretends the account's last wrong PIN was long ago, as if the owner came back later. */
  const timePasses = (email: string) =>
    app.server.services.db
      .updateTable('login_throttle')
      .set({ last_failure_at: new Date(Date.now() - 24 * 3600_000) })
      .where('email', '=', email)
      .execute();
  const throttle = (email: string) =>
    app.server.services.db
      .selectFrom('login_throttle')
      .select('failures')
      .where('email', '=', email)
      .executeTakeFirst();

  it('slows a stranger’s PIN guesses down instead of locking the owner out: 20 wrong PINs, then the owner signs in', async () => {
    await register(app, 'owner2@example.org');
    await people.admin.post('/api/admin/users/owner2%40example.org/approve', { approved: true });
    const device = await signIn(app, 'owner2@example.org');
    await device.post('/api/auth/logout');
    const attacker = await app.agent().prime();
    const answers: Array<{ status: number; wait: number }> = [];
    for (let i = 0; i < 20; i += 1) {
      // The last failure is always a moment ago, however slow the machine: each try comes within its wait.
      if (i >= 5)
        await app.server.services.db
          .updateTable('login_throttle')
          .set({ last_failure_at: new Date() })
          .where('email', '=', 'owner2@example.org')
          .execute();
      const res = await attacker.post('/api/auth/login-init', {
        email: 'owner2@example.org',
        pin: `guess ${i} wrong`,
      });
      answers.push({ status: res.status, wait: Number(res.headers.get('retry-after') ?? 0) });
    }
    // Five free tries, then each must wait: the rest are refused unchecked (and do not count).
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
    expect(answers.slice(5).every((a) => a.status === 429 && a.wait >= 1 && a.wait <= 2)).toBe(true);
    expect((await throttle('owner2@example.org'))?.failures).toBe(5);
    // The owner's own browser is not held back at all.
    expect(
      (await device.post('/api/auth/login-init', { email: 'owner2@example.org', pin: PIN })).status,
    ).toBe(200);
    // A correct PIN ends the run; on a new browser the owner is not made to wait either.
    expect(await throttle('owner2@example.org')).toBeUndefined();
    expect(
      (
        await (
          await app.agent().prime()
        ).post('/api/auth/login-init', { email: 'owner2@example.org', pin: PIN })
      ).status,
    ).toBe(200);
  });

  it('doubles the wait after each further wrong PIN, and lets the owner in on a new browser once it has passed', async () => {
    await register(app, 'owner3@example.org');
    await people.admin.post('/api/admin/users/owner3%40example.org/approve', { approved: true });
    const attacker = await app.agent().prime();
    const wrongTry = () =>
      attacker.post('/api/auth/login-init', { email: 'owner3@example.org', pin: 'not the pin' });
    const waits: number[] = [];
    for (let failures = 1; failures <= 10; failures += 1) {
      expect((await wrongTry()).status).toBe(401);
      if (failures >= 5) {
        // Its wait starts now, however long the machine took to answer the wrong try.
        await app.server.services.db
          .updateTable('login_throttle')
          .set({ last_failure_at: new Date() })
          .where('email', '=', 'owner3@example.org')
          .execute();
        const refused = await wrongTry();
        expect(refused.status).toBe(429);
        waits.push(Number(refused.headers.get('retry-after')));
      }
      await timePasses('owner3@example.org');
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32]);
    // Still only a delay: once it has passed, the owner signs in from a browser never used before.
    const owner = await app.agent().prime();
    expect((await owner.post('/api/auth/login-init', { email: 'owner3@example.org', pin: PIN })).status).toBe(
      200,
    );
  });

  it('locks new browsers out after 100 wrong PINs in a row until the PIN is reset', async () => {
    await register(app, 'owner4@example.org');
    await people.admin.post('/api/admin/users/owner4%40example.org/approve', { approved: true });
    await app.server.services.db
      .insertInto('login_throttle')
      .values({
        email: 'owner4@example.org',
        failures: 99,
        last_failure_at: new Date(Date.now() - 24 * 3600_000),
      })
      .execute();
    const attacker = await app.agent().prime();
    expect(
      (await attacker.post('/api/auth/login-init', { email: 'owner4@example.org', pin: 'wrong guess 100' }))
        .status,
    ).toBe(401);
    await timePasses('owner4@example.org');
    const owner = await app.agent().prime();
    const locked = await owner.post('/api/auth/login-init', { email: 'owner4@example.org', pin: PIN });
    expect(locked).toMatchObject({
      status: 429,
      body: {
        error:
          'Too many wrong Password PINs were entered for this email. Use Forgot Password to set a new one.',
      },
    });
    // Forgot Password proves the mailbox, sets a new PIN and lifts the lock.
    const since = (await app.outbox()).length;
    await owner.post('/api/auth/forgot-init', { email: 'owner4@example.org' });
    const code = await app.latestCode('owner4@example.org', since);
    expect((await owner.post('/api/auth/forgot-verify', { email: 'owner4@example.org', code })).status).toBe(
      200,
    );
    const newPin = 'a brand new pin 4';
    expect((await owner.post('/api/auth/forgot-reset', { newPin1: newPin, newPin2: newPin })).status).toBe(
      200,
    );
    expect(
      (await owner.post('/api/auth/login-init', { email: 'owner4@example.org', pin: newPin })).status,
    ).toBe(200);
  });

  it('stops taking codes for an account after 20 wrong ones in a day, even the right one', async () => {
    await register(app, 'owner5@example.org');
    await people.admin.post('/api/admin/users/owner5%40example.org/approve', { approved: true });
    const guesser = await app.agent().prime();
    let code = '';
    for (let round = 0; round < 5; round += 1) {
      const since = (await app.outbox()).length;
      expect(
        (await guesser.post('/api/auth/login-init', { email: 'owner5@example.org', pin: PIN })).status,
      ).toBe(200);
      code = await app.latestCode('owner5@example.org', since);
      if (round === 4) break;
      for (let i = 1; i <= 5; i += 1) {
        const wrong = String((Number(code) + i) % 1_000_000).padStart(6, '0');
        expect(
          (await guesser.post('/api/auth/login-verify', { email: 'owner5@example.org', code: wrong })).status,
        ).toBe(400);
      }
    }
    // 4 codes × 5 wrong tries = 20: the fifth code is refused although it is right.
    expect((await guesser.post('/api/auth/login-verify', { email: 'owner5@example.org', code })).status).toBe(
      400,
    );
  });

  it('sends at most 40 codes a day for one email to one network', async () => {
    await register(app, 'owner6@example.org');
    await people.admin.post('/api/admin/users/owner6%40example.org/approve', { approved: true });
    // 40 codes earlier today to browsers on this network (more than an hour ago, so the hourly
    // limit is not what refuses); other networks have shares of their own (codes-per-browser-and-network.test.ts).
    await app.server.services.db
      .insertInto('codes')
      .values(
        Array.from({ length: 40 }, (_, i) => ({
          email: 'owner6@example.org',
          purpose: 'login' as const,
          kind: 'initial' as const,
          code_hash: `old-${i}`,
          requester: `earlier browser ${i}`,
          network: '127.0.0.1',
          created_at: new Date(Date.now() - 3 * 3600_000),
          expires_at: new Date(Date.now() - 3 * 3600_000 + 600_000),
          consumed_at: new Date(Date.now() - 3 * 3600_000),
        })),
      )
      .execute();
    const res = await (
      await app.agent().prime()
    ).post('/api/auth/login-init', { email: 'owner6@example.org', pin: PIN });
    expect(res).toMatchObject({
      status: 429,
      body: { error: 'Too many codes were requested for this email today. Please try again tomorrow.' },
    });
  });

  it('lets only the browser that asked for a code try it, so a stranger cannot burn it', async () => {
    const victim = await app.agent().prime();
    const since = (await app.outbox()).length;
    expect((await victim.post('/api/auth/login-init', { email: 'vola@example.org', pin: PIN })).status).toBe(
      200,
    );
    const code = await app.latestCode('vola@example.org', since);
    const stranger = await app.agent().prime();
    for (let i = 0; i < 6; i += 1) {
      const wrong = String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
      await stranger.post('/api/auth/login-verify', { email: 'vola@example.org', code: wrong });
    }
    expect((await stranger.post('/api/auth/login-verify', { email: 'vola@example.org', code })).status).toBe(
      400,
    );
    expect((await victim.post('/api/auth/login-verify', { email: 'vola@example.org', code })).status).toBe(
      200,
    );
  });

  it('refuses a common PIN at registration', async () => {
    const res = await (
      await app.agent().prime()
    ).post('/api/auth/register', {
      firstName: 'Pat',
      lastName: 'Lee',
      email: 'pat@example.org',
      pin: 'Password123',
    });
    expect(res).toMatchObject({ status: 400, body: { error: 'Choose a less common PIN.' } });
  });
});
