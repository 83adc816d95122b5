// The key that seals a person's kept uploads on a device (docs/security.md, docs/behaviour.md#kept-uploads):
// handed only to that person's live session, never cached, the same while it lives; destroyed at
// sign-out, a withdrawn approval, a PIN reset, a season close, account deletion and 12 hours after
// it was made, so what a device kept under it can never be opened again; the database holds it only
// wrapped, under a key derived from the storage key (from the server's secret on S3).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { fetchJournalKey, openingKey, sealingKey } from '@vita-docs/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PIN,
  register,
  seedPeople,
  signIn,
  startApp,
  TEST_STORAGE_KEY,
  type Agent,
  type TestApp,
} from './harness.js';
import { startS3rver } from './s3rver.js';

const WRAP_LABEL = 'vita-docs/journal-key-wrap/v1';
const HOUR = 3_600_000;
const YEAR = new Date().getUTCFullYear();

interface KeyAnswer {
  keyId: string;
  key: string;
  sealKey: string;
  openKey: string;
  expiresAt: string;
  email: string;
}

const journalKey = (agent: Agent) => agent.get<KeyAnswer>('/api/me/journal-key');
const keyOf = async (agent: Agent): Promise<KeyAnswer> => {
  const answer = await journalKey(agent);
  if (answer.status !== 200) throw new Error(`journal-key: ${answer.status} ${answer.text}`);
  return answer.body;
};

/** Every journal key row of `email`, as the database holds it. */
const rowsOf = (app: TestApp, email: string) =>
  app.server.services.db.selectFrom('journal_keys').selectAll().where('user_email', '=', email).execute();

/** Opens a wrapped key (nonce, then the key encrypted, then its tag; bound to its id and owner) with `wrapKey`. */
function unwrap(wrapKey: Buffer, row: { id: string; user_email: string; wrapped: Buffer }): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', wrapKey, row.wrapped.subarray(0, 12));
  decipher.setAAD(Buffer.from(`${row.id}\n${row.user_email}`, 'utf8'));
  decipher.setAuthTag(row.wrapped.subarray(-16));
  return Buffer.concat([decipher.update(row.wrapped.subarray(12, -16)), decipher.final()]);
}
const hkdf = (master: Buffer) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), WRAP_LABEL, 32));

/** Whether `key` opens a message sealed under the journal key `real`. */
function opens(key: Buffer, real: Buffer): boolean {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', real, iv);
  const sealed = Buffer.concat([cipher.update('a kept file'), cipher.final()]);
  const tag = cipher.getAuthTag();
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAuthTag(tag);
    decipher.update(sealed);
    decipher.final();
    return true;
  } catch {
    return false;
  }
}

describe('journal keys', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;

  beforeAll(async () => {
    app = await startApp();
    people = await seedPeople(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('hands a key only to a live session, marked no-store, the same one while it lives', async () => {
    expect((await journalKey(people.anonymous)).status).toBe(401);
    expect((await journalKey(people.pending)).status).toBe(401);
    const answer = await journalKey(people.volA);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body.keyId).toMatch(/^[0-9a-f]{32}$/);
    expect(Buffer.from(answer.body.key, 'base64')).toHaveLength(32);
    expect(answer.body.email).toBe('vola@example.org');
    const [row] = await rowsOf(app, 'vola@example.org');
    expect(Date.parse(answer.body.expiresAt)).toBe(row!.created_at.getTime() + 12 * HOUR);

    expect(await keyOf(people.volA)).toEqual(answer.body);
    // Another session of the same person (another tab, the next sign-in) gets the same key.
    expect(await keyOf(await signIn(app, 'vola@example.org'))).toEqual(answer.body);
    const other = await keyOf(people.volB);
    expect(other.keyId).not.toBe(answer.body.keyId);
    expect(other.key).not.toBe(answer.body.key);
    expect(await rowsOf(app, 'vola@example.org')).toHaveLength(1);
  });

  it('hands the key’s sealing pair with it: a device seals to the public half, only the live key’s private half opens', async () => {
    const first = await keyOf(people.volA);
    expect(Buffer.from(first.sealKey, 'base64')).toHaveLength(65);
    expect(Buffer.from(first.openKey, 'base64')).toHaveLength(32);
    const { subtle } = globalThis.crypto;
    const held = await fetchJournalKey(async () => first, subtle, 'vola@example.org');
    // Sealed the way a device with no connection does: with the public half alone.
    const sealing = await sealingKey(subtle, first.sealKey);
    const iv = randomBytes(12);
    const sealed = await subtle.encrypt({ name: 'AES-GCM', iv }, sealing.key, Buffer.from('1099-INT'));
    const opened = await subtle.decrypt(
      { name: 'AES-GCM', iv },
      await openingKey(subtle, held, sealing.ephemeral),
      sealed,
    );
    expect(Buffer.from(opened).toString()).toBe('1099-INT');
    // Another person's pair is another pair; it does not open what was sealed to this one.
    const other = await keyOf(people.volB);
    expect(other.sealKey).not.toBe(first.sealKey);
    const wrong = await fetchJournalKey(async () => other, subtle, 'volb@example.org');
    await expect(
      subtle.decrypt({ name: 'AES-GCM', iv }, await openingKey(subtle, wrong, sealing.ephemeral), sealed),
    ).rejects.toThrow();
    // Nothing of the pair is stored: it is derived from the key, so it dies with it (sign-out).
    const table = JSON.stringify(await rowsOf(app, 'vola@example.org'));
    for (const half of [first.sealKey, first.openKey]) {
      expect(table).not.toContain(half);
      expect(table).not.toContain(Buffer.from(half, 'base64').toString('hex'));
    }
    const vol = await signIn(app, 'vola@example.org');
    expect((await vol.post('/api/auth/logout')).status).toBe(200);
    const next = await keyOf(await signIn(app, 'vola@example.org'));
    expect(next.sealKey).not.toBe(first.sealKey);
    expect(next.openKey).not.toBe(first.openKey);
  });

  it('keeps the key only wrapped, under a key derived from the storage key, which nothing in the database opens', async () => {
    const { key } = await keyOf(people.officer);
    const raw = Buffer.from(key, 'base64');
    const [row] = await rowsOf(app, 'officer@example.org');
    expect(row!.wrapped.includes(raw)).toBe(false);
    const table = JSON.stringify(
      await app.server.services.db.selectFrom('journal_keys').selectAll().execute(),
    );
    for (const form of [key, raw.toString('hex'), raw.toString('base64url')])
      expect(table).not.toContain(form);
    // No 32 bytes of what is stored open what the key sealed.
    for (let at = 0; at + 32 <= row!.wrapped.length; at++)
      expect(opens(row!.wrapped.subarray(at, at + 32), raw)).toBe(false);
    // The storage key's sub-key unwraps it; the server's secret (kept in the database here) does not.
    expect(unwrap(hkdf(Buffer.from(TEST_STORAGE_KEY, 'base64')), row!).equals(raw)).toBe(true);
    const secret = await app.server.services.db
      .selectFrom('server_secrets')
      .select('value')
      .where('name', '=', 'hmac')
      .executeTakeFirstOrThrow();
    expect(() => unwrap(hkdf(Buffer.from(secret.value, 'base64')), row!)).toThrow();
    // Moved to another person's row, it does not unwrap.
    expect(() =>
      unwrap(hkdf(Buffer.from(TEST_STORAGE_KEY, 'base64')), { ...row!, user_email: 'vola@example.org' }),
    ).toThrow();
  });

  it('destroys the key at sign-out: the signed-out session is refused, the next sign-in gets another', async () => {
    const vol = await signIn(app, 'volb@example.org');
    const before = await keyOf(vol);
    expect((await vol.post('/api/auth/logout')).status).toBe(200);
    expect((await journalKey(vol)).status).toBe(401);
    expect(await rowsOf(app, 'volb@example.org')).toEqual([]);
    const after = await keyOf(await signIn(app, 'volb@example.org'));
    expect(after.keyId).not.toBe(before.keyId);
    expect(after.key).not.toBe(before.key);
    // A sign-in that replaces a session (the same browser signing in again) does not.
    expect(await keyOf(await signIn(app, 'volb@example.org'))).toEqual(after);
  });

  it('destroys the key 12 hours after it was made, whoever asks', async () => {
    const before = await keyOf(people.volA);
    await sql`UPDATE journal_keys SET created_at = now() - interval '12 hours 1 second' WHERE user_email = 'vola@example.org'`.execute(
      app.server.services.db,
    );
    const after = await keyOf(people.volA);
    expect(after.keyId).not.toBe(before.keyId);
    expect(after.key).not.toBe(before.key);
    expect((await rowsOf(app, 'vola@example.org')).map((r) => r.id)).toEqual([after.keyId]);
    // Housekeeping deletes expired keys nobody asked for.
    await sql`UPDATE journal_keys SET created_at = now() - interval '12 hours 1 second' WHERE user_email = 'vola@example.org'`.execute(
      app.server.services.db,
    );
    await app.server.services.journalKeys.prune();
    expect(await rowsOf(app, 'vola@example.org')).toEqual([]);
  });

  it('destroys the key when approval is withdrawn; a role change keeps it', async () => {
    await register(app, 'wes@example.org');
    const admin = people.admin;
    expect((await admin.post('/api/admin/users/wes%40example.org/approve', { approved: true })).status).toBe(
      200,
    );
    const before = await keyOf(await signIn(app, 'wes@example.org'));
    expect((await admin.post('/api/admin/users/wes%40example.org/role', { role: 'officer' })).status).toBe(
      200,
    );
    expect(await keyOf(await signIn(app, 'wes@example.org'))).toEqual(before);
    expect((await admin.post('/api/admin/users/wes%40example.org/approve', { approved: false })).status).toBe(
      200,
    );
    expect(await rowsOf(app, 'wes@example.org')).toEqual([]);
    expect((await admin.post('/api/admin/users/wes%40example.org/approve', { approved: true })).status).toBe(
      200,
    );
    expect((await keyOf(await signIn(app, 'wes@example.org'))).keyId).not.toBe(before.keyId);
  });

  it('destroys the key at a PIN reset', async () => {
    const email = 'wes@example.org';
    const before = await keyOf(await signIn(app, email));
    const browser = await app.agent().prime();
    const sent = (await app.outbox()).length;
    await browser.post('/api/auth/forgot-init', { email });
    expect(
      (await browser.post('/api/auth/forgot-verify', { email, code: await app.latestCode(email, sent) }))
        .status,
    ).toBe(200);
    expect((await browser.post('/api/auth/forgot-reset', { newPin1: PIN, newPin2: PIN })).status).toBe(200);
    expect(await rowsOf(app, email)).toEqual([]);
    expect((await keyOf(await signIn(app, email))).keyId).not.toBe(before.keyId);
  });

  it('destroys the key with the account', async () => {
    await keyOf(await signIn(app, 'wes@example.org'));
    expect((await people.admin.del('/api/admin/users/wes%40example.org')).status).toBe(200);
    expect(await rowsOf(app, 'wes@example.org')).toEqual([]);
  });

  it("destroys every key at a season close, the admin's too", async () => {
    const admin = await signIn(app, 'admin@example.org');
    const before = await keyOf(admin);
    const vol = await signIn(app, 'vola@example.org');
    await keyOf(vol);
    expect((await admin.post('/api/admin/season/close', { confirm: `CLOSE SEASON ${YEAR}` })).status).toBe(
      200,
    );
    expect(await app.server.services.db.selectFrom('journal_keys').selectAll().execute()).toEqual([]);
    expect((await journalKey(vol)).status).toBe(401);
    expect((await keyOf(admin)).keyId).not.toBe(before.keyId);
  });
});

describe('journal keys on S3', () => {
  let app: TestApp;
  let s3: Awaited<ReturnType<typeof startS3rver>> | undefined;
  const SECRET = 'a session secret from the environment, long enough';

  beforeAll(async () => {
    s3 = await startS3rver();
    app = await startApp({ ...s3.env, SESSION_SECRET: SECRET });
  });
  afterAll(async () => {
    await app?.close();
    await s3?.close();
  });

  it('wraps the key under a key derived from the server secret (no storage key there)', async () => {
    await register(app, 'admin@example.org');
    const { key } = await keyOf(await signIn(app, 'admin@example.org'));
    const [row] = await rowsOf(app, 'admin@example.org');
    expect(unwrap(hkdf(Buffer.from(SECRET, 'utf8')), row!).equals(Buffer.from(key, 'base64'))).toBe(true);
  });
});
