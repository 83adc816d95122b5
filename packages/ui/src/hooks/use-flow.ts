import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';

/** The part of a core flow React needs to follow its state. */
export interface Observable<S> {
  getState(): S;
  subscribe(listener: () => void): () => void;
}

/** The flow's current state; the component re-renders whenever it changes. */
export function useFlow<S>(flow: Observable<S>): S {
  const subscribe = useCallback((onChange: () => void) => flow.subscribe(onChange), [flow]);
  const getState = useCallback(() => flow.getState(), [flow]);
  return useSyncExternalStore(subscribe, getState, getState);
}

/**
 * Creates a flow once for the life of the component (a new one needs a new `key`) and disposes of
 * it on unmount when it has timers to stop.
 */
export function useFlowInstance<F>(create: () => F): F {
  const [flow] = useState(create);
  useEffect(
    () => () => {
      const disposable = flow as { dispose?: () => void };
      disposable.dispose?.();
    },
    [flow],
  );
  return flow;
}
