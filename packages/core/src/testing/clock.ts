import type { Clock } from '../ports.js';

/** A {@link Clock} that only moves when told to. */
export interface ManualClock extends Clock {
  /** Moves time forward, running every timer that falls due, in order (timers they set included). */
  advance(ms: number): void;
  /** Timers not yet run. */
  pendingTimers(): number;
}

/** Creates a {@link ManualClock} starting at `start` (ms since the epoch). */
export function createManualClock(start = 0): ManualClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  return {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.set(id, { at: now + Math.max(0, ms), callback });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const target = now + ms;
      for (;;) {
        let due: [number, { at: number; callback: () => void }] | undefined;
        for (const entry of timers) {
          if (entry[1].at <= target && (!due || entry[1].at < due[1].at)) due = entry;
        }
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].callback();
      }
      now = target;
    },
    pendingTimers: () => timers.size,
  };
}
