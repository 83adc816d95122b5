import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { SessionEndReason, UsersTable } from '../db/schema.js';
import type { Selectable } from 'kysely';
import { randomToken, sha256 } from './crypto.js';
import type { SessionCache, SessionFacts } from './session-cache.js';

export type UserRow = Selectable<UsersTable>;

export interface SessionPolicy {
  idleMinutes: number;
  maxHours: number;
}

/** Creates a session for `email`; returns the token for the cookie (only its hash is stored). */
export async function createSession(
  db: Db,
  email: string,
  meta: { ip: string | null; userAgent: string | null; passkeyDue?: boolean },
): Promise<string> {
  const token = randomToken(32);
  await db
    .insertInto('sessions')
    .values({
      id_hash: sha256(token),
      user_email: email,
      last_seen_at: new Date(),
      ip: meta.ip,
      user_agent: meta.userAgent?.slice(0, 300) ?? null,
      passkey_due: meta.passkeyDue ?? false,
    })
    .execute();
  return token;
}

/**
 * The approved user behind a session token, or null when the session is unknown, idle too long,
 * past its absolute lifetime, or its user lost approval. Refreshes the idle timer at most once a
 * minute to keep writes down. With a `cache`, a lookup kept there is used instead of the query.
 * `found` is told whether the session still owes a passkey (the passkey rule, auth/passkey-policy.ts).
 */
export async function resolveSession(
  db: Db,
  token: string,
  policy: SessionPolicy,
  cache?: SessionCache,
  found?: { passkeyDue: boolean },
): Promise<UserRow | null> {
  const idHash = sha256(token);
  const now = Date.now();
  let facts = cache?.get(idHash, now);
  const kept = facts !== undefined;
  const generation = cache?.generation() ?? 0;
  // Concurrent requests of one session share one lookup and one refresh (`SessionCache.shared`):
  // each on its own would queue for the pool, and the refreshes for the row's lock, together.
  const once = <T>(key: string, run: () => Promise<T>) =>
    cache ? cache.shared(`${key}:${idHash}`, generation, run) : run();
  if (!facts) {
    facts = await once('lookup', () => lookUpSession(db, idHash, policy));
    if (!facts) return null;
  } else if (
    now - facts.createdAt > policy.maxHours * 3_600_000 ||
    now - facts.lastSeenAt > policy.idleMinutes * 60_000
  ) {
    cache?.forgetSession(idHash);
    return null;
  }
  if (!facts.user.approved) return null;
  if (now - facts.lastSeenAt > 60_000) {
    const touched = await once('touch', async () => {
      const result = await db
        .updateTable('sessions')
        .set({ last_seen_at: new Date(now) })
        .where('id_hash', '=', idHash)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    });
    if (!touched) {
      cache?.forgetSession(idHash); // ended meanwhile
      return null;
    }
    facts.lastSeenAt = Math.max(facts.lastSeenAt, now); // a kept entry is this object: it holds the new time too
  }
  if (!kept) cache?.set(idHash, facts, now, generation);
  if (found) found.passkeyDue = facts.passkeyDue === true;
  return facts.user;
}

/** A session's facts from the database: undefined when it is unknown, idle too long or past its lifetime. */
async function lookUpSession(
  db: Db,
  idHash: string,
  policy: SessionPolicy,
): Promise<SessionFacts | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.email', 'sessions.user_email')
    .selectAll('users')
    .select(['sessions.last_seen_at', 'sessions.created_at as session_created_at', 'sessions.passkey_due'])
    .where('sessions.id_hash', '=', idHash)
    .where('sessions.created_at', '>', sql<Date>`now() - make_interval(hours => ${policy.maxHours})`)
    .where('sessions.last_seen_at', '>', sql<Date>`now() - make_interval(mins => ${policy.idleMinutes})`)
    .executeTakeFirst();
  if (!row) return undefined;
  const { last_seen_at: lastSeen, session_created_at: created, passkey_due: passkeyDue, ...user } = row;
  return { user, createdAt: created.getTime(), lastSeenAt: lastSeen.getTime(), passkeyDue };
}

/** Ends one session; answers whose it was (null: no such session). */
export async function revokeSession(db: Db, token: string): Promise<string | null> {
  const ended = await db
    .deleteFrom('sessions')
    .where('id_hash', '=', sha256(token))
    .returning('user_email')
    .executeTakeFirst();
  return ended?.user_email ?? null;
}

/**
 * Ends every session of a user (PIN reset, role change, approval revoked). With a `reason`, each
 * ended session remembers it, so the person's next request says why ({@link sessionEndReason}).
 */
export async function revokeUserSessions(db: Db, email: string, reason?: SessionEndReason): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const ended = await trx
      .deleteFrom('sessions')
      .where('user_email', '=', email)
      .returning('id_hash')
      .execute();
    if (reason && ended.length) {
      await trx
        .insertInto('ended_sessions')
        .values(ended.map((e) => ({ id_hash: e.id_hash, reason })))
        .onConflict((oc) => oc.column('id_hash').doUpdateSet({ reason }))
        .execute();
    }
  });
}

/** Why the session behind `token` was ended by someone else, if it was and that is still known. */
export async function sessionEndReason(db: Db, token: string): Promise<SessionEndReason | undefined> {
  const row = await db
    .selectFrom('ended_sessions')
    .select('reason')
    .where('id_hash', '=', sha256(token))
    .executeTakeFirst();
  return row?.reason;
}

/** Deletes sessions that can no longer be used. */
export async function pruneSessions(db: Db, policy: SessionPolicy): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([
        eb('created_at', '<', sql<Date>`now() - make_interval(hours => ${policy.maxHours})`),
        eb('last_seen_at', '<', sql<Date>`now() - make_interval(mins => ${policy.idleMinutes})`),
      ]),
    )
    .execute();
  await db
    .deleteFrom('ended_sessions')
    .where('ended_at', '<', sql<Date>`now() - make_interval(hours => ${policy.maxHours})`)
    .execute();
}
