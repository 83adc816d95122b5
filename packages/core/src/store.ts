/** A listener is told the new state and the one it replaced. */
export type Listener<S> = (state: S, previous: S) => void;

/** The three-function store every flow keeps its state in (`useSyncExternalStore`-compatible). */
export interface Store<S> {
  getState: () => S;
  /** Replaces the state (or derives it from the current one); listeners run only when it changed. */
  setState: (next: S | ((current: S) => S)) => void;
  /** Returns the unsubscribe function. */
  subscribe: (listener: Listener<S>) => () => void;
}

/** A minimal observable state container shared by the flows. */
export function createStore<S>(initial: S): Store<S> {
  let state = initial;
  const listeners = new Set<Listener<S>>();
  return {
    getState: () => state,
    setState: (next) => {
      const previous = state;
      state = typeof next === 'function' ? (next as (current: S) => S)(state) : next;
      if (Object.is(state, previous)) return;
      // A copy, so a listener that unsubscribes itself does not skip its neighbour.
      for (const listener of [...listeners]) listener(state, previous);
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/**
 * What every flow exposes: its current state (with a discriminated `status`), a subscription,
 * and `send`, which resolves once the event has been fully handled. `send` never rejects:
 * failures end up in the state (and in an alert where the product shows one).
 */
export interface Flow<S, E> {
  getState: () => S;
  subscribe: (listener: Listener<S>) => () => void;
  send: (event: E) => Promise<void>;
}
