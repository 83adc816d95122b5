/**
 * Passkeys (WebAuthn) through `@simplewebauthn/server`: it parses and checks the authenticator's
 * CBOR/COSE data, signatures, origin, RP id, flags and counters. This module keeps what the library
 * leaves to its caller: where the relying party is, the challenges (single-use, 5 minutes, bound to
 * the browser that asked; a sign-in's carried in the challenge itself) and the stored credentials.
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Config } from '../env.js';
import { randomToken, sha256 } from './crypto.js';
import type { UserRow } from './sessions.js';

const CHALLENGE_MINUTES = 5;

// Loaded on the first passkey call, not at start: the library and its ASN.1 and CBOR parsers were a
// third of the server's start-up imports, and a server starts far more often than it sees a passkey.
const webauthn = () => import('@simplewebauthn/server');

/** The relying party: the one site passkeys are made for and accepted from. */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

/**
 * The relying party from `PUBLIC_URL` only. A request's Host header is never used: whoever can make
 * a request with another Host (a proxy's misconfiguration, a rebinding DNS name) must not be able to
 * choose which site's passkeys the server accepts. Without `PUBLIC_URL`, no passkeys.
 */
export function relyingParty(config: Pick<Config, 'publicUrl'>): RelyingParty | null {
  if (!config.publicUrl) return null;
  const url = new URL(config.publicUrl);
  return { id: url.hostname, origin: url.origin, name: 'VITA Documents' };
}

export type Ceremony = 'register' | 'login';

/**
 * Drops challenges past their time: a registration's (one per signed-in browser) and the spent
 * sign-in challenges kept to refuse a replay.
 */
export async function pruneChallenges(db: Db): Promise<void> {
  await db
    .deleteFrom('passkey_challenges')
    .where('expires_at', '<=', sql<Date>`now()`)
    .execute();
}

/** Keeps a new challenge for this browser and ceremony, replacing one it had (one open at a time). */
async function keepChallenge(
  db: Db,
  requester: string,
  purpose: Ceremony,
  challenge: string,
  email: string | null,
): Promise<void> {
  const expires = sql<Date>`now() + make_interval(mins => ${CHALLENGE_MINUTES})`;
  await pruneChallenges(db);
  await db
    .insertInto('passkey_challenges')
    .values({ requester, purpose, challenge, user_email: email, expires_at: expires })
    .onConflict((oc) =>
      oc.columns(['requester', 'purpose']).doUpdateSet({ challenge, user_email: email, expires_at: expires }),
    )
    .execute();
}

/**
 * Takes this browser's open challenge for the ceremony: deleted whatever comes next (single use);
 * null when there is none, it expired, or (registration) another user's session asked for it.
 */
async function takeChallenge(
  db: Db,
  requester: string,
  purpose: Ceremony,
  email: string | null,
): Promise<string | null> {
  const row = await db
    .deleteFrom('passkey_challenges')
    .where('requester', '=', requester)
    .where('purpose', '=', purpose)
    .returning(['challenge', 'user_email', 'expires_at'])
    .executeTakeFirst();
  if (!row || row.expires_at.getTime() <= Date.now() || row.user_email !== email) return null;
  return row.challenge;
}

/** The WebAuthn user handle of a person, made on first use (random: never the email). */
async function userHandle(db: Db, user: UserRow): Promise<string> {
  if (user.webauthn_user_id) return user.webauthn_user_id;
  const handle = randomToken(32);
  const set = await db
    .updateTable('users')
    .set({ webauthn_user_id: handle })
    .where('email', '=', user.email)
    .where('webauthn_user_id', 'is', null)
    .returning('webauthn_user_id')
    .executeTakeFirst();
  if (set?.webauthn_user_id) return set.webauthn_user_id;
  const kept = await db
    .selectFrom('users')
    .select('webauthn_user_id')
    .where('email', '=', user.email)
    .executeTakeFirstOrThrow();
  return kept.webauthn_user_id ?? handle;
}

/** The options for `navigator.credentials.create()`: user verification required, resident key preferred. */
export async function registrationOptions(db: Db, rp: RelyingParty, user: UserRow, requester: string) {
  const existing = await db
    .selectFrom('passkeys')
    .select(['id', 'transports'])
    .where('user_email', '=', user.email)
    .execute();
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userID: Buffer.from(await userHandle(db, user), 'base64url'),
    userDisplayName: `${user.first_name} ${user.last_name}`,
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: c.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    timeout: CHALLENGE_MINUTES * 60_000,
  });
  await keepChallenge(db, requester, 'register', options.challenge, user.email);
  return options;
}

/** A stored passkey as its owner sees it. */
export interface PasskeyInfo {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** A person's passkeys, oldest first. */
export async function listPasskeys(db: Db, email: string): Promise<PasskeyInfo[]> {
  const rows = await db
    .selectFrom('passkeys')
    .select(['id', 'name', 'created_at', 'last_used_at'])
    .where('user_email', '=', email)
    .orderBy('created_at', 'asc')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at, lastUsedAt: r.last_used_at }));
}

/**
 * Removes one of a person's passkeys (its name; undefined when it is not theirs). `beforeLast` runs
 * when it would be their last and may refuse by throwing; it must not query (the transaction holds a
 * connection and the person's rows). The count and the delete are one
 * transaction with the person's passkeys locked: two removals at once must not both see two and
 * leave a staff account under the passkey rule with none.
 */
export async function removePasskey(
  db: Db,
  email: string,
  id: string,
  beforeLast: () => void,
): Promise<{ name: string } | undefined> {
  return db.transaction().execute(async (trx) => {
    const held = await trx
      .selectFrom('passkeys')
      .select('id')
      .where('user_email', '=', email)
      .forUpdate()
      .execute();
    if (held.length <= 1) beforeLast();
    return trx
      .deleteFrom('passkeys')
      .where('id', '=', id)
      .where('user_email', '=', email)
      .returning('name')
      .executeTakeFirst();
  });
}

/** Removes every passkey of a person; answers how many there were. */
export async function removeAllPasskeys(db: Db, email: string): Promise<number> {
  const gone = await db.deleteFrom('passkeys').where('user_email', '=', email).executeTakeFirst();
  return Number(gone.numDeletedRows);
}

/**
 * Checks a new passkey against this browser's challenge and keeps it; null when refused. `mayKeep`,
 * when given, runs in the transaction that keeps it (a confirmation spent with it): false refuses.
 */
export async function registerPasskey(
  db: Db,
  rp: RelyingParty,
  args: {
    user: UserRow;
    requester: string;
    response: RegistrationResponseJSON;
    name: string;
    mayKeep?: (trx: Db) => Promise<boolean>;
  },
): Promise<{ id: string; name: string; createdAt: Date } | 'not allowed' | null> {
  const challenge = await takeChallenge(db, args.requester, 'register', args.user.email);
  if (!challenge) return null;
  const { verifyRegistrationResponse } = await webauthn();
  const verdict = await verifyRegistrationResponse({
    response: args.response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
  }).catch(() => null);
  if (!verdict?.verified) return null;
  const { credential, credentialDeviceType, credentialBackedUp } = verdict.registrationInfo;
  return db.transaction().execute(async (trx) => {
    if (args.mayKeep && !(await args.mayKeep(trx))) return 'not allowed' as const;
    const row = await trx
      .insertInto('passkeys')
      .values({
        id: credential.id,
        user_email: args.user.email,
        public_key: Buffer.from(credential.publicKey),
        counter: credential.counter,
        transports: JSON.stringify(credential.transports ?? []),
        device_type: credentialDeviceType,
        backed_up: credentialBackedUp,
        name: args.name,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning(['id', 'name', 'created_at'])
      .executeTakeFirst();
    if (!row) return null;
    return { id: row.id, name: row.name, createdAt: row.created_at };
  });
}

/**
 * The options for `navigator.credentials.get()`: no allow-list (the browser offers the passkeys it
 * holds for this site, so the email is not asked first), user verification required.
 */
/**
 * Sign-in challenges are not stored when asked for: each carries its expiry and an HMAC (under
 * `key`) over it and the browser that asked, so `login-options` writes nothing, and there is no
 * allowance that a crowd of cookie-shedding requests behind one address could use up and so lock
 * the staff there out of signing in. Only a challenge that signed someone in is kept, until it
 * expires, so that it works once.
 */
export async function authenticationOptions(rp: RelyingParty, key: Buffer, requester: string) {
  const { generateAuthenticationOptions } = await webauthn();
  return generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'required',
    timeout: CHALLENGE_MINUTES * 60_000,
    challenge: signInChallenge(key, requester, Date.now()),
  });
}

const NONCE_BYTES = 16;
const MAC_BYTES = 16;

function challengeMac(key: Buffer, requester: string, body: Buffer): Buffer {
  return createHmac('sha256', key).update(requester).update('|').update(body).digest().subarray(0, MAC_BYTES);
}

/**
 * A nonce, the expiry (Unix seconds) and the MAC of both with the asking browser.
 * @internal Exported for its tests (a challenge made at another time).
 */
export function signInChallenge(key: Buffer, requester: string, now: number): Uint8Array<ArrayBuffer> {
  const body = Buffer.alloc(NONCE_BYTES + 8);
  randomBytes(NONCE_BYTES).copy(body);
  body.writeBigUInt64BE(BigInt(Math.floor(now / 1000) + CHALLENGE_MINUTES * 60), NONCE_BYTES);
  return new Uint8Array(Buffer.concat([body, challengeMac(key, requester, body)]));
}

/**
 * The challenge an assertion answers (base64url, from its client data) when this server made it for
 * this browser and it has not expired; else null. Whether it was used before is asked separately.
 */
function openSignInChallenge(
  key: Buffer,
  requester: string,
  response: AuthenticationResponseJSON,
  now: number,
): { challenge: string; expiresAt: Date } | null {
  let challenge: unknown;
  try {
    challenge = (
      JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8')) as {
        challenge?: unknown;
      }
    ).challenge;
  } catch {
    return null;
  }
  if (typeof challenge !== 'string') return null;
  const bytes = Buffer.from(challenge, 'base64url');
  if (bytes.length !== NONCE_BYTES + 8 + MAC_BYTES) return null;
  const body = bytes.subarray(0, NONCE_BYTES + 8);
  if (!timingSafeEqual(bytes.subarray(NONCE_BYTES + 8), challengeMac(key, requester, body))) return null;
  const expiresAt = new Date(Number(body.readBigUInt64BE(NONCE_BYTES)) * 1000);
  return expiresAt.getTime() > now ? { challenge, expiresAt } : null;
}

/** Marks a sign-in challenge used; false when it was used already (a replayed assertion). */
async function spendSignInChallenge(db: Db, challenge: string, expiresAt: Date): Promise<boolean> {
  await pruneChallenges(db);
  const kept = await db
    .insertInto('passkey_challenges')
    .values({
      requester: `used:${sha256(challenge)}`,
      purpose: 'login',
      challenge: sha256(challenge),
      user_email: null,
      // Kept a challenge's lifetime past its expiry: the expiry is checked by this process's clock, the
      // pruning by the database's, and a skew between the two must not let a spent one work again.
      expires_at: new Date(expiresAt.getTime() + CHALLENGE_MINUTES * 60_000),
    })
    .onConflict((oc) => oc.columns(['requester', 'purpose']).doNothing())
    .returning('requester')
    .executeTakeFirst();
  return kept !== undefined;
}

/**
 * What a sign-in assertion came to: `signedIn` with whose passkey it was; `noChallenge` when it
 * answers no challenge this server made for this browser, or an expired one (nothing was checked);
 * `limited` when a failed assertion against a known passkey was one too many for its owner
 * (`failedOnce`); else `failed`.
 */
export type SignInOutcome =
  | { kind: 'signedIn'; email: string; passkeyId: string }
  | { kind: 'noChallenge' }
  | { kind: 'limited' }
  | { kind: 'failed' };

/**
 * Checks a sign-in assertion against this browser's challenge and the stored passkey; on success
 * keeps the new counter and backup state. The signature is checked first: a valid assertion is never
 * refused for others' failures (a credential id is no secret, so counting before would let anyone
 * lock its owner out). `failedOnce`, with the owner's email, counts a failed one; false: limited.
 */
export async function authenticate(
  db: Db,
  rp: RelyingParty,
  key: Buffer,
  requester: string,
  response: AuthenticationResponseJSON,
  failedOnce: (email: string) => Promise<boolean>,
): Promise<SignInOutcome> {
  const failed = { kind: 'failed' } as const;
  const opened = openSignInChallenge(key, requester, response, Date.now());
  if (!opened) return { kind: 'noChallenge' };
  const stored = await db
    .selectFrom('passkeys')
    .innerJoin('users', 'users.email', 'passkeys.user_email')
    .select(['passkeys.id', 'passkeys.public_key', 'passkeys.counter', 'passkeys.transports'])
    .select(['users.email', 'users.webauthn_user_id'])
    .where('passkeys.id', '=', response.id)
    .executeTakeFirst();
  if (!stored) return failed;
  // A discoverable passkey names its user: it must be the one the credential was made for.
  const handle = response.response.userHandle;
  if (handle && handle !== stored.webauthn_user_id) return failed;
  const { verifyAuthenticationResponse } = await webauthn();
  const verdict = await verifyAuthenticationResponse({
    response,
    expectedChallenge: opened.challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
    credential: {
      id: stored.id,
      publicKey: new Uint8Array(stored.public_key),
      counter: Number(stored.counter),
      transports: stored.transports,
    },
  }).catch(() => null);
  if (!verdict?.verified) return (await failedOnce(stored.email)) ? failed : { kind: 'limited' };
  // Single use: the same assertion (or another answer to the same challenge) signs nobody in again.
  if (!(await spendSignInChallenge(db, opened.challenge, opened.expiresAt))) return failed;
  // The counter only moves forward: a parallel use of a cloned key that lost the race is refused.
  const kept = await db
    .updateTable('passkeys')
    .set({
      counter: verdict.authenticationInfo.newCounter,
      backed_up: verdict.authenticationInfo.credentialBackedUp,
      last_used_at: new Date(),
    })
    .where('id', '=', stored.id)
    .where(sql<boolean>`(counter < ${verdict.authenticationInfo.newCounter} OR counter = 0)`)
    .executeTakeFirst();
  if (kept.numUpdatedRows === 0n) return failed;
  return { kind: 'signedIn', email: stored.email, passkeyId: stored.id };
}

/** A short name for the device a passkey was made on, from its browser's user agent. */
export function deviceName(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'Browser';
  const os = /iPhone|iPad/.test(ua)
    ? 'iPhone'
    : /Android/.test(ua)
      ? 'Android'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X/.test(ua)
          ? 'Mac'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : 'this device';
  return `${browser} on ${os}`;
}
