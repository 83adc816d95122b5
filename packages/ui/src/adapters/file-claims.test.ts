// Core's `FileClaims` port on the browser's Web Locks (docs/behaviour.md#kept-uploads): one page holds
// a file's lock while its queue holds the file; other pages see it as held elsewhere; a closed page's
// locks are let go of. The queues' use of the claims is tested in core on in-memory claims.
import { describe, expect, it } from 'vitest';
import type { Locks } from '../app/services';
import { createWebLockClaims } from './file-claims';

/**
 * The browser's Web Locks as the pages of one profile share them: one holder per name, held until
 * the holder's callback settles, and a closed page's locks let go of.
 */
function createLocks() {
  const holders = new Map<string, object>();
  return {
    held: () => [...holders.keys()],
    page(): Locks & { close(): void } {
      const me = {};
      return {
        async request(name, _options, callback) {
          if (holders.has(name)) return callback(null);
          holders.set(name, me);
          try {
            return await callback({ name, mode: 'exclusive' });
          } finally {
            if (holders.get(name) === me) holders.delete(name);
          }
        },
        query: async () => ({ held: [...holders.keys()].map((name) => ({ name })), pending: [] }),
        close: () => {
          for (const [name, holder] of holders) if (holder === me) holders.delete(name);
        },
      };
    },
  };
}

describe('file claims on Web Locks', () => {
  it('one page holds a file; the other cannot claim it and sees it held; released, it is free', async () => {
    const locks = createLocks();
    const one = createWebLockClaims(locks.page());
    const twoLocks = locks.page();
    const two = createWebLockClaims(twoLocks);
    expect(await one.claim('f1')).toBe(true);
    expect(await one.claim('f1')).toBe(true); // already this page's
    expect(await two.claim('f1')).toBe(false);
    expect(await two.heldElsewhere()).toEqual(new Set(['f1']));
    expect(await one.heldElsewhere()).toEqual(new Set());

    one.release('f1');
    await Promise.resolve();
    expect(locks.held()).toEqual([]);
    expect(await two.claim('f1')).toBe(true);
    twoLocks.close(); // the tab is closed: the browser lets its locks go
    expect(await one.claim('f1')).toBe(true);
  });
});
