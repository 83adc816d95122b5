import { describe, expect, it } from 'vitest';
import { createStore } from './store.js';
import { createManualClock } from './testing/index.js';

describe('createStore', () => {
  it('notifies subscribers of changes only, with the previous state, until they unsubscribe', () => {
    const store = createStore({ count: 0 });
    const seen: [number, number][] = [];
    const stop = store.subscribe((state, previous) => void seen.push([state.count, previous.count]));
    store.setState((s) => ({ count: s.count + 1 }));
    store.setState(store.getState()); // same object: no notification
    stop();
    store.setState({ count: 5 });
    expect(seen).toEqual([[1, 0]]);
    expect(store.getState()).toEqual({ count: 5 });
  });
});

describe('createManualClock', () => {
  it('runs due timers in time order, including timers they set, and skips cleared ones', () => {
    const clock = createManualClock(1000);
    const ran: string[] = [];
    clock.setTimeout(() => ran.push(`b@${clock.now()}`), 200);
    clock.setTimeout(() => {
      ran.push(`a@${clock.now()}`);
      clock.setTimeout(() => ran.push(`c@${clock.now()}`), 150);
    }, 100);
    const cleared = clock.setTimeout(() => ran.push('never'), 50);
    clock.clearTimeout(cleared);
    clock.advance(300);
    expect(ran).toEqual(['a@1100', 'b@1200', 'c@1250']);
    expect(clock.now()).toBe(1300);
  });
});
