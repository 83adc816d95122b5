import type { FileClaims } from '../flows/upload-queues/types.js';

/** One page's {@link FileClaims}, and its closing (what the browser does with a closed tab's locks). */
export interface MemoryPageClaims extends FileClaims {
  /** Lets go of everything the page holds. */
  close(): void;
  /** The files this page holds now. */
  readonly held: ReadonlySet<string>;
}

/** The claims of one browser's pages, in memory: one holder per file, as the browser's Web Locks. */
export interface MemoryClaims {
  /** Opens a page's claims. */
  page(): MemoryPageClaims;
  /** Every file held, by any page. */
  readonly held: ReadonlySet<string>;
}

/** Creates {@link MemoryClaims}. */
export function createMemoryClaims(): MemoryClaims {
  const holders = new Map<string, object>();
  return {
    get held() {
      return new Set(holders.keys());
    },
    page() {
      const me = {};
      return {
        get held() {
          return new Set([...holders].flatMap(([id, holder]) => (holder === me ? [id] : [])));
        },
        async claim(id) {
          const holder = holders.get(id);
          if (holder && holder !== me) return false;
          holders.set(id, me);
          return true;
        },
        release(id) {
          if (holders.get(id) === me) holders.delete(id);
        },
        async heldElsewhere() {
          return new Set([...holders].flatMap(([id, holder]) => (holder === me ? [] : [id])));
        },
        close() {
          for (const [id, holder] of holders) if (holder === me) holders.delete(id);
        },
      };
    },
  };
}
