/** The kept lookups on their own: when one may be used, and the lifetimes checked on every use. */
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { sha256 } from './crypto.js';
import { CHANGES_AUTH, createSessionCache } from './session-cache.js';
import { resolveSession, type UserRow } from './sessions.js';

const user = { email: 'v@example.org', approved: true } as UserRow;
const policy = { idleMinutes: 30, maxHours: 12 };
/** No database: a test that reaches it fails. */
const noDb = new Proxy(
  {},
  {
    get: () => {
      throw new Error('the database was asked');
    },
  },
) as Db;

describe('session cache', () => {
  it('keeps nothing until it hears changes, forgets everything when it stops, and keeps an entry 10 s at most', () => {
    const cache = createSessionCache();
    cache.set('s1', { user, createdAt: 0, lastSeenAt: 0 }, 1000, cache.generation());
    expect(cache.get('s1', 1000)).toBeUndefined();
    cache.listening(true);
    cache.set('s1', { user, createdAt: 0, lastSeenAt: 0 }, 1000, cache.generation());
    expect(cache.get('s1', 11_000)?.user).toBe(user);
    expect(cache.get('s1', 11_001)).toBeUndefined();
    cache.set('s1', { user, createdAt: 0, lastSeenAt: 0 }, 1000, cache.generation());
    cache.listening(false);
    expect(cache.get('s1', 1000)).toBeUndefined();
  });

  it('shares a run under way with callers of the same generation, never across a forgetting', async () => {
    const cache = createSessionCache();
    let runs = 0;
    const run = () => Promise.resolve((runs += 1));
    const before = cache.generation();
    const first = cache.shared('lookup:s1', before, run);
    expect(await cache.shared('lookup:s1', before, run)).toBe(await first);
    expect(runs).toBe(1);
    const during = cache.shared('lookup:s1', before, run);
    cache.forgetSession('s1');
    // Begun before the forgetting: a caller after it asks again.
    expect(await cache.shared('lookup:s1', cache.generation(), run)).not.toBe(await during);
    // Once answered, nothing is kept: the next caller asks again.
    expect(await cache.shared('lookup:s1', cache.generation(), run)).toBe(runs);
    expect(runs).toBe(4);
  });

  it('does not keep a lookup that raced a forgetting (read before, kept after)', () => {
    const cache = createSessionCache();
    cache.listening(true);
    const before = cache.generation();
    cache.forgetUser('someone@example.org');
    cache.set('s1', { user, createdAt: 0, lastSeenAt: 0 }, 0, before);
    expect(cache.get('s1', 0)).toBeUndefined();
  });

  it('forgets by session and by user', () => {
    const cache = createSessionCache();
    cache.listening(true);
    const other = { ...user, email: 'o@example.org' };
    cache.set('s1', { user, createdAt: 0, lastSeenAt: 0 }, 0, cache.generation());
    cache.set('s2', { user, createdAt: 0, lastSeenAt: 0 }, 0, cache.generation());
    cache.set('s3', { user: other, createdAt: 0, lastSeenAt: 0 }, 0, cache.generation());
    cache.forgetSession('s3');
    expect(cache.get('s3', 0)).toBeUndefined();
    cache.forgetUser(user.email);
    expect([cache.get('s1', 0), cache.get('s2', 0)]).toEqual([undefined, undefined]);
  });

  it('checks the idle and absolute lifetimes of a kept session on every use, without the database', async () => {
    const cache = createSessionCache();
    cache.listening(true);
    const now = Date.now();
    const keep = (token: string, createdAgo: number, seenAgo: number) =>
      cache.set(
        sha256(token),
        { user, createdAt: now - createdAgo, lastSeenAt: now - seenAgo },
        now,
        cache.generation(),
      );
    keep('fresh', 60_000, 1_000);
    keep('old', 12 * 3_600_000 + 1, 1_000);
    keep('idle', 60_000, 30 * 60_000 + 1);
    expect(await resolveSession(noDb, 'fresh', policy, cache)).toBe(user);
    expect(await resolveSession(noDb, 'old', policy, cache)).toBeNull();
    expect(await resolveSession(noDb, 'idle', policy, cache)).toBeNull();
  });

  it('tells the statements that change who may do what from the ones that do not', () => {
    for (const text of [
      'update "users" set "role" = $1 where "email" = $2',
      'delete from "users" where "email" = $1',
      'delete from "sessions" where "id_hash" = $1',
      "with s as (select 1) update users set suspended = true where role <> 'admin'",
      'delete from "sessions"',
      'update "public"."users" set "approved" = false',
      'insert into "users" ("email") values ($1) on conflict ("email") do update set "is_admin" = true',
      'truncate table sessions;',
    ]) {
      expect(CHANGES_AUTH.test(text), text).toBe(true);
    }
    for (const text of [
      'update "sessions" set "last_seen_at" = $1 where "id_hash" = $2',
      'insert into "sessions" ("id_hash") values ($1)',
      'select * from "users"',
      'delete from "users_archive" where true',
    ]) {
      expect(CHANGES_AUTH.test(text), text).toBe(false);
    }
  });
});
