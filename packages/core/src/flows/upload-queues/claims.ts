import type { FileClaims } from './types.js';

/**
 * The files this page's queues hold, claimed for as long as they are queued: another page of the same
 * browser neither offers nor resumes them (docs/behaviour.md#kept-uploads). Without the host's claims
 * every call answers as if no other page existed.
 */
export function createClaimSync(claims: FileClaims | undefined) {
  /** Claimed (or being claimed) by this page. */
  const mine = new Set<string>();
  /** Of those, the ones seen in a queue: let go of once they leave it. */
  const queued = new Set<string>();
  const sync = (ids: ReadonlySet<string>) => {
    if (!claims) return;
    for (const id of ids) {
      queued.add(id);
      if (!mine.has(id)) {
        mine.add(id);
        void claims.claim(id);
      }
    }
    for (const id of queued)
      if (!ids.has(id)) {
        queued.delete(id);
        mine.delete(id);
        claims.release(id);
      }
  };
  return {
    /** Claims the files newly queued and lets go of those that left every queue (`ids`: all queued now). */
    sync,
    /** Claims kept files before this page acts on them; answers those it got (another page holds the rest). */
    async take(ids: readonly string[]): Promise<ReadonlySet<string>> {
      if (!claims) return new Set(ids);
      const got = await Promise.all(
        ids.map(async (id) => {
          if (mine.has(id)) return true;
          mine.add(id);
          const claimed = await claims.claim(id);
          if (!claimed) mine.delete(id);
          return claimed;
        }),
      );
      return new Set(ids.filter((_, i) => got[i]));
    },
    /** Files taken that are now queued or not (restored, or deleted): from now on they are let go of with the queues. */
    settle(ids: Iterable<string>, queuedNow: ReadonlySet<string>) {
      for (const id of ids) if (mine.has(id)) queued.add(id);
      sync(queuedNow);
    },
    elsewhere: async (): Promise<ReadonlySet<string>> => (claims ? claims.heldElsewhere() : new Set()),
    releaseAll() {
      for (const id of mine) claims?.release(id);
      mine.clear();
      queued.clear();
    },
  };
}

export type ClaimSync = ReturnType<typeof createClaimSync>;
