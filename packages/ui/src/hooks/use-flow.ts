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

/**
 * A flow made once for the component ({@link useFlowInstance}) that is sent `load` when the component
 * mounts, and its current state: the shape of every screen part that shows what the server has.
 */
export function useLoadedFlow<
  F extends Observable<unknown> & { send(event: { type: 'load' }): Promise<void> },
>(create: () => F): [F, ReturnType<F['getState']>] {
  const flow = useFlowInstance(create);
  const state = useFlow(flow as Observable<ReturnType<F['getState']>>);
  useEffect(() => {
    void flow.send({ type: 'load' });
  }, [flow]);
  return [flow, state];
}
