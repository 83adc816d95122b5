/**
 * Who last signed in on this browser (docs/behaviour.md#offline), so a page opened with no connection
 * can show that person's screens that work offline. Their name, email and role only, in localStorage;
 * a sign-out forgets them, and they count for no longer than a session can live.
 */
import type { KeyValueStorage, RememberedUser, User } from '@vita-docs/core';

const REMEMBERED_KEY = 'vita-docs.lastSignedIn';

export function createStoredRememberedUser(options: {
  storage: KeyValueStorage;
  now: () => number;
  /** How long after the server last vouched for them (the session's absolute lifetime). */
  lifetimeMs: number;
}): RememberedUser {
  const { storage, now, lifetimeMs } = options;
  return {
    read() {
      try {
        const kept = JSON.parse(storage.getItem(REMEMBERED_KEY) ?? 'null') as {
          user: User;
          at: number;
        } | null;
        const age = kept ? now() - kept.at : -1;
        // A time ahead of now was not written by this page: it is not taken on trust.
        return kept && age >= 0 && age <= lifetimeMs ? kept.user : null;
      } catch {
        return null;
      }
    },
    write(user) {
      if (user) storage.setItem(REMEMBERED_KEY, JSON.stringify({ user, at: now() }));
      else storage.removeItem(REMEMBERED_KEY);
    },
  };
}
