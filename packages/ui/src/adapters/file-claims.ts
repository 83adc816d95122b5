import type { FileClaims } from '@vita-docs/core';
import type { Locks } from '../app/services';

/** One Web Lock per kept file, named after its journal entry. */
const LOCK_PREFIX = 'vita-docs.upload.';

/** What this page does with one file's lock. */
interface Claim {
  /** Lets the lock go once granted; until then, marks it to be let go of as soon as it is. */
  release: () => void;
}

/**
 * Core's `FileClaims` port (docs/behaviour.md#kept-uploads) on the browser's Web Locks API: a lock held for as long as a page's queue holds
 * the file. The browser lets a closed or crashed page's locks go by itself, so a file is never
 * claimed by a page that is gone; a lock is asked for only if free (`ifAvailable`), never waited for.
 */
export function createWebLockClaims(locks: Locks): FileClaims {
  const claims = new Map<string, Claim>();
  return {
    claim(id) {
      if (claims.has(id)) return Promise.resolve(true);
      let letGo: (() => void) | null = null;
      let dropped = false;
      const claim: Claim = {
        release: () => {
          dropped = true;
          letGo?.();
        },
      };
      claims.set(id, claim);
      return new Promise<boolean>((resolve) => {
        locks
          .request(LOCK_PREFIX + id, { ifAvailable: true }, (lock) => {
            if (!lock) {
              if (claims.get(id) === claim) claims.delete(id);
              resolve(false);
              return undefined;
            }
            resolve(true);
            return dropped ? undefined : new Promise<void>((done) => (letGo = done));
          })
          .catch(() => {
            if (claims.get(id) === claim) claims.delete(id);
            resolve(false);
          });
      });
    },
    release(id) {
      claims.get(id)?.release();
      claims.delete(id);
    },
    async heldElsewhere() {
      const { held = [] } = await locks.query();
      return new Set(
        held.flatMap(({ name }) => {
          const id = name?.startsWith(LOCK_PREFIX) ? name.slice(LOCK_PREFIX.length) : null;
          return id !== null && !claims.has(id) ? [id] : [];
        }),
      );
    },
  };
}
