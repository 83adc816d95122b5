/**
 * Passkeys (WebAuthn) through `@simplewebauthn/server`: it parses and checks the authenticator's
 * CBOR/COSE data, signatures, origin, RP id, flags and counters. This module keeps what the library
 * leaves to its caller: where the relying party is, the challenges (single-use, 5 minutes, bound to
 * the browser that asked) and the stored credentials.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Config } from '../env.js';
import { randomToken } from './crypto.js';
import type { UserRow } from './sessions.js';

const CHALLENGE_MINUTES = 5;

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
 * Drops challenges past their time. Each browser keeps at most one per ceremony, but a script that
 * sheds its cookies is a new browser every time: without this, every challenge it asked for would be
 * kept for good (the number it can ask for is limited in routes/passkeys.ts).
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
export async function authenticationOptions(db: Db, rp: RelyingParty, requester: string) {
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'required',
    timeout: CHALLENGE_MINUTES * 60_000,
  });
  await keepChallenge(db, requester, 'login', options.challenge, null);
  return options;
}

/**
 * What a sign-in assertion came to: `signedIn` with whose passkey it was; `noChallenge` when this
 * browser has no open challenge (nothing was checked); `limited` when `mayTry` refused the owner of
 * a known passkey; else `failed`.
 */
export type SignInOutcome =
  | { kind: 'signedIn'; email: string; passkeyId: string }
  | { kind: 'noChallenge' }
  | { kind: 'limited' }
  | { kind: 'failed' };

/**
 * Checks a sign-in assertion against this browser's challenge and the stored passkey; on success
 * keeps the new counter and backup state. `mayTry` is asked, with the owner's email, before a
 * known passkey's assertion is checked (the per-account throttle).
 */
export async function authenticate(
  db: Db,
  rp: RelyingParty,
  requester: string,
  response: AuthenticationResponseJSON,
  mayTry: (email: string) => Promise<boolean>,
): Promise<SignInOutcome> {
  const failed = { kind: 'failed' } as const;
  const challenge = await takeChallenge(db, requester, 'login', null);
  if (!challenge) return { kind: 'noChallenge' };
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
  if (!(await mayTry(stored.email))) return { kind: 'limited' };
  const verdict = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
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
  if (!verdict?.verified) return failed;
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
