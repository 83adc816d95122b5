/**
 * Session lookups kept in memory, so a signed-in request does not cost a database round trip before
 * its own (the lookup was as much server work as the busiest reads themselves; docs/scaling.md).
 *
 * A kept lookup must never outlive what it says. Three things take care of that:
 * - triggers on `users` (any change or deletion) and `sessions` (deletion) send a PostgreSQL
 *   notification; every server process listens on a connection of its own and forgets the user or
 *   session named. While that connection is down (or not yet listening) nothing is kept at all;
 * - a statement of this process that changes those rows forgets everything kept here as soon as it
 *   returns, without waiting for the notification (the person who signed out, or the admin who took
 *   a role away, is answered by this process next);
 * - an entry is used for {@link ENTRY_MS} at most, a bound should a notification ever go missing.
 * The idle and absolute lifetimes are checked against the kept times on every use, as the query does.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pRetry from 'p-retry';
import type { UserRow } from './sessions.js';

/** The notification channel the triggers send on (migration `0012_session_cache`). */
const AUTH_CHANNEL = 'vita_auth';

/** Longest time a kept lookup is used. */
const ENTRY_MS = 10_000;
/** Most sessions kept; past it the oldest go. */
const MAX_ENTRIES = 10_000;

/** What a session lookup found. */
export interface SessionFacts {
  user: UserRow;
  createdAt: number;
  lastSeenAt: number;
  /** Signed in with PIN + code under the passkey rule and no passkey made since (never changes: a new passkey starts a new session). */
  passkeyDue?: boolean;
}

/** The process's kept session lookups. */
export interface SessionCache {
  /** The lookup kept for this session hash, if it may be used now. */
  get(idHash: string, now: number): SessionFacts | undefined;
  /**
   * What the cache has forgotten so far, as a number that grows with every forgetting: read it before
   * a lookup and pass it to {@link SessionCache.set}, so a lookup that raced a change is not kept.
   */
  generation(): number;
  /** Keeps a lookup made at `now` from a read begun at `generation` (ignored if anything was forgotten since, or while deaf). */
  set(idHash: string, facts: SessionFacts, now: number, generation: number): void;
  /** Forgets one session, one user's sessions, or everything. */
  forgetSession(idHash: string): void;
  forgetUser(email: string): void;
  clear(): void;
  /** Whether changes are being heard (only then is anything kept). */
  listening(on: boolean): void;
  /**
   * `run()`, unless a run for `key` begun at this `generation` is still under way: then its answer.
   * Requests of one session that arrive together (a page's reads, a kept lookup that just expired)
   * then ask the database once, not once each; a run begun before something was forgotten is not
   * joined.
   */
  shared<T>(key: string, generation: number, run: () => Promise<T>): Promise<T>;
}

/** Creates an empty cache; it keeps nothing until told it is {@link SessionCache.listening}. */
export function createSessionCache(): SessionCache {
  const entries = new Map<string, SessionFacts & { keptAt: number }>();
  const running = new Map<string, { generation: number; answer: Promise<unknown> }>();
  let on = false;
  let forgotten = 0;
  return {
    generation: () => forgotten,
    get(idHash, now) {
      const entry = entries.get(idHash);
      if (!entry) return undefined;
      if (now - entry.keptAt > ENTRY_MS) {
        entries.delete(idHash);
        return undefined;
      }
      return entry;
    },
    set(idHash, facts, now, generation) {
      if (!on || generation !== forgotten) return;
      entries.delete(idHash);
      // The entry is `facts` itself, so the caller's later refresh of its idle time shows here too.
      entries.set(idHash, Object.assign(facts, { keptAt: now }));
      // A Map iterates in insertion order: the first key is the longest kept.
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
    },
    forgetSession(idHash) {
      forgotten += 1;
      entries.delete(idHash);
    },
    forgetUser(email) {
      forgotten += 1;
      for (const [idHash, entry] of entries) if (entry.user.email === email) entries.delete(idHash);
    },
    clear() {
      forgotten += 1;
      entries.clear();
    },
    listening(value) {
      forgotten += 1;
      on = value;
      entries.clear();
    },
    shared<T>(key: string, generation: number, run: () => Promise<T>): Promise<T> {
      const under = running.get(key);
      if (under && under.generation === generation) return under.answer as Promise<T>;
      const answer = run().finally(() => {
        if (running.get(key)?.answer === answer) running.delete(key);
      });
      running.set(key, { generation, answer });
      return answer;
    },
  };
}

/**
 * Whether a statement may change who may do what: any write to `users`, a deletion from `sessions`.
 * (A session's idle-timer refresh, an update of `sessions`, changes nothing a lookup keeps.)
 */
export const CHANGES_AUTH =
  /\b(?:(?:update|delete\s+from|insert\s+into|truncate(?:\s+table)?)\s+(?:"?\w+"?\.)?"?users"?|(?:delete\s+from|truncate(?:\s+table)?)\s+(?:"?\w+"?\.)?"?sessions"?)(?=[\s(;]|$)/i;

/** Applies one notification from the triggers: `u:<email>`, `s:<session hash>`; anything else but a ping forgets all. */
function apply(cache: SessionCache, payload: string | undefined): void {
  if (payload?.startsWith('ping:')) return;
  if (payload?.startsWith('u:')) cache.forgetUser(payload.slice(2));
  else if (payload?.startsWith('s:')) cache.forgetSession(payload.slice(2));
  else cache.clear();
}

/**
 * Ends a connection, waiting a second at most: a deaf one (half-open) never confirms, and its socket
 * is left to TCP keep-alive.
 */
const endSoon = (client: pg.Client): Promise<void> =>
  Promise.race([
    client.end().catch(() => undefined),
    new Promise<void>((resolve) => setTimeout(resolve, 1_000).unref()),
  ]);

/** How often the listening connection proves it still hears notifications, and how long the proof may take. */
const PING_MS = 5_000;
const PING_WAIT_MS = 3_000;

export interface AuthListener {
  close(): Promise<void>;
}

/** A listening connection, and a promise that settles when it fails in any way. */
interface Connected {
  client: pg.Client;
  lost: Promise<Error>;
}

/** The listening connection's settings: kept alive, and bounded so a deaf database cannot hold it. */
function listenerConfig(connection: string | pg.ClientConfig): pg.ClientConfig {
  return {
    ...(typeof connection === 'string' ? { connectionString: connection } : connection),
    keepAlive: true,
    // A deaf way to the database must not hold a connection attempt (or a close waiting on one) forever.
    connectionTimeoutMillis: 5_000,
    query_timeout: 5_000,
  };
}

/**
 * Connects and listens, every notification applied to `cache`; `lost` settles when the connection
 * fails in any way. An abort of `stop` ends an attempt at once.
 */
async function connect(config: pg.ClientConfig, cache: SessionCache, stop: AbortSignal): Promise<Connected> {
  const client = new pg.Client(config);
  let report: (err: Error) => void = () => undefined;
  const lost = new Promise<Error>((resolve) => (report = resolve));
  // Attached first: an error event with no listener would end the process.
  client.on('error', (err) => report(err));
  client.on('end', () => report(new Error('the connection ended')));
  client.on('notification', (message) => apply(cache, message.payload));
  // A close during the attempt ends it at once (a connection attempt ended midway may never settle).
  let abandon = () => undefined as void;
  const abandoned = new Promise<never>((_, reject) => {
    abandon = () => reject(new Error('stopped'));
    stop.addEventListener('abort', abandon, { once: true });
  });
  abandoned.catch(() => undefined);
  try {
    await Promise.race([
      (async () => {
        await client.connect();
        await client.query(`LISTEN ${AUTH_CHANNEL}`);
      })(),
      abandoned,
    ]);
  } catch (err) {
    void endSoon(client);
    throw err;
  } finally {
    stop.removeEventListener('abort', abandon);
  }
  return { client, lost };
}

/** Runs one connection until it fails: lookups are kept in `cache` from its first heard ping on. */
async function serve({ client, lost }: Connected, cache: SessionCache): Promise<Error> {
  let expected: string | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let fail: (err: Error) => void = () => undefined;
  const failed = new Promise<Error>((resolve) => (fail = resolve));
  const ping = () => {
    expected = `ping:${randomBytes(8).toString('hex')}`;
    client.query('select pg_notify($1, $2)', [AUTH_CHANNEL, expected]).catch((err: Error) => fail(err));
    timer = setTimeout(() => fail(new Error('the connection stopped hearing notifications')), PING_WAIT_MS);
    timer.unref();
  };
  client.on('notification', (message) => {
    if (message.payload !== expected) return;
    expected = null;
    clearTimeout(timer);
    cache.listening(true); // heard: lookups may be kept (a first one empties the cache)
    timer = setTimeout(ping, PING_MS);
    timer.unref();
  });
  ping();
  const reason = await Promise.race([lost, failed]);
  clearTimeout(timer);
  cache.listening(false);
  return reason;
}

/**
 * Listens for the triggers' notifications on a connection of its own and keeps `cache` in step.
 * Lookups are kept only while the connection proves it hears: every few seconds it sends itself a
 * notification and must hear it back (a half-open connection, or a pooler that accepts `LISTEN` but
 * never delivers, fails that). A lost connection is replaced with a growing pause (p-retry), keeping
 * nothing meanwhile. `onProblem` hears each failure (to log it).
 */
export function listenForAuthChanges(
  connection: string | pg.ClientConfig,
  cache: SessionCache,
  onProblem: (err: Error) => void,
): AuthListener {
  const config = listenerConfig(connection);
  const stop = new AbortController();
  /** Ends the connection in use (when there is one). */
  let endCurrent: (() => Promise<void>) | null = null;

  async function run(): Promise<void> {
    while (!stop.signal.aborted) {
      let connected: Connected;
      try {
        connected = await pRetry(() => connect(config, cache, stop.signal), {
          retries: Number.POSITIVE_INFINITY,
          minTimeout: 500,
          maxTimeout: 10_000,
          signal: stop.signal,
          onFailedAttempt: ({ error }) => onProblem(error),
        });
      } catch (err) {
        // Stopped by close, or an error p-retry does not retry: then nothing is kept from here on.
        if (!stop.signal.aborted) onProblem(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      const { client } = connected;
      endCurrent = () => endSoon(client);
      const reason = await serve(connected, cache);
      if (!stop.signal.aborted) onProblem(reason);
      await endSoon(client);
      endCurrent = null;
    }
  }

  const running = run();
  return {
    async close() {
      stop.abort();
      cache.listening(false);
      await endCurrent?.();
      // Bounded: a shutdown never waits on a database that does not answer.
      await Promise.race([running, new Promise<void>((resolve) => setTimeout(resolve, 3_000).unref())]);
    },
  };
}
