import { performance } from 'node:perf_hooks';

/**
 * The longest the calling thread's event loop was busy (running code, not waiting for events)
 * between two ticks of a 10 ms timer while `work` ran, in ms. Busy, not late: on a machine running
 * every package's tests a thread that waits for a core is late for its timer without holding its
 * loop, and a wall-clock gap between ticks would count that too; code that holds the loop counts.
 * @type {import('./event-loop.js').longestBusySpell}
 */
export async function longestBusySpell(work) {
  let longest = 0;
  let last = performance.eventLoopUtilization();
  const tick = () => {
    const now = performance.eventLoopUtilization();
    longest = Math.max(longest, performance.eventLoopUtilization(now, last).active);
    last = now;
  };
  const timer = setInterval(tick, 10);
  try {
    await work();
  } finally {
    clearInterval(timer);
    // A spell right before `work` settled shows only here: the timer has not run since.
    tick();
  }
  return longest;
}
