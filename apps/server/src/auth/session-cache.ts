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
}

/** The process's kept session lookups. */
export interface SessionCache {
  /** The lookup kept for this session hash, if it may be used now. */
  get(idHash: string, now: number): SessionFacts | undefined;
  /** Keeps a lookup made at `now` (ignored while changes cannot be heard). */
  set(idHash: string, facts: SessionFacts, now: number): void;
  /** Forgets one session, one user's sessions, or everything. */
  forgetSession(idHash: string): void;
  forgetUser(email: string): void;
  clear(): void;
  /** Whether changes are being heard (only then is anything kept). */
  listening(on: boolean): void;
}

/** Creates an empty cache; it keeps nothing until told it is {@link SessionCache.listening}. */
export function createSessionCache(): SessionCache {
  const entries = new Map<string, SessionFacts & { keptAt: number }>();
  let on = false;
  return {
    get(idHash, now) {
      const entry = entries.get(idHash);
      if (!entry) return undefined;
      if (now - entry.keptAt > ENTRY_MS) {
        entries.delete(idHash);
        return undefined;
      }
      return entry;
    },
    set(idHash, facts, now) {
      if (!on) return;
      entries.delete(idHash);
      // The entry is `facts` itself, so the caller's later refresh of its idle time shows here too.
      entries.set(idHash, Object.assign(facts, { keptAt: now }));
      // A Map iterates in insertion order: the first key is the longest kept.
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
    },
    forgetSession: (idHash) => void entries.delete(idHash),
    forgetUser(email) {
      for (const [idHash, entry] of entries) if (entry.user.email === email) entries.delete(idHash);
    },
    clear: () => entries.clear(),
    listening(value) {
      on = value;
      entries.clear();
    },
  };
}

/**
 * Whether a statement changes who may do what: any change to `users`, a deletion from `sessions`.
 * (A session's idle-timer refresh, an update of `sessions`, changes nothing a lookup keeps.)
 */
export const CHANGES_AUTH = /\b(?:update\s+"?users"?|delete\s+from\s+"?(?:users|sessions)"?)[\s(]/i;

/** Applies one notification from the triggers: `u:<email>` or `s:<session hash>`. */
function apply(cache: SessionCache, payload: string | undefined): void {
  if (payload?.startsWith('u:')) cache.forgetUser(payload.slice(2));
  else if (payload?.startsWith('s:')) cache.forgetSession(payload.slice(2));
  else cache.clear();
}

export interface AuthListener {
  close(): Promise<void>;
}

/**
 * Listens for the triggers' notifications on a connection of its own and keeps `cache` in step;
 * reconnects with a growing pause (p-retry) when the connection is lost, keeping nothing meanwhile.
 */
export function listenForAuthChanges(
  connection: string | pg.ClientConfig,
  cache: SessionCache,
  onLost: (err: Error) => void,
): AuthListener {
  const config = typeof connection === 'string' ? { connectionString: connection } : connection;
  const stop = new AbortController();
  let client: pg.Client | null = null;

  /** Connects and listens; `onDown` hears the first error or end of the connection afterwards. */
  async function connect(onDown: (err: Error) => void): Promise<pg.Client> {
    const next = new pg.Client(config);
    let up = false;
    let down = false;
    const fail = (err: Error) => {
      // Before it listens, the failing call rejects and says so; an error event is only a repeat.
      if (!up || down) return;
      down = true;
      next.end().catch(() => undefined);
      onDown(err);
    };
    // Attached first: an error event with no listener would end the process.
    next.on('error', fail);
    next.on('end', () => fail(new Error('the connection ended')));
    next.on('notification', (message) => apply(cache, message.payload));
    try {
      await next.connect();
      await next.query(`LISTEN ${AUTH_CHANNEL}`);
    } catch (err) {
      await next.end().catch(() => undefined);
      throw err;
    }
    up = true;
    return next;
  }

  function lost(err: Error): void {
    client = null;
    cache.listening(false);
    if (stop.signal.aborted) return;
    onLost(err);
    void run();
  }

  async function run(): Promise<void> {
    try {
      const next = await pRetry(() => connect(lost), {
        retries: Number.POSITIVE_INFINITY,
        minTimeout: 500,
        maxTimeout: 10_000,
        signal: stop.signal,
      });
      if (stop.signal.aborted) {
        await next.end().catch(() => undefined);
        return;
      }
      client = next;
      // Listening from here on: what changed before is not kept (the cache starts empty).
      cache.listening(true);
    } catch {
      // Aborted by close.
    }
  }

  void run();
  return {
    async close() {
      stop.abort();
      cache.listening(false);
      const current = client;
      client = null;
      // Its end event finds the listener stopped (`lost` returns at once).
      await current?.end().catch(() => undefined);
    },
  };
}
