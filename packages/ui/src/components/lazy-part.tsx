import { lazy, useState } from 'react';
import type { ComponentType } from 'react';

/**
 * A component from a chunk of its own, fetched once and kept (a failed fetch is tried again on the
 * next `load` or render). React's `lazy` suspends on its first render even when the chunk is already
 * here, so once loaded the component itself is rendered instead. Which of the two is chosen once per
 * mount: a part shown through `lazy` is never swapped for itself (which would mount it again).
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const fetch = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(async () => ({ default: await fetch() }));
  function Part(props: P) {
    const [Ready] = useState(() => loaded);
    return Ready ? <Ready {...props} /> : <Lazy {...props} />;
  }
  return {
    /** Fetches the part now (once); resolves to it. */
    load: fetch,
    /** The part: suspends (inside a `Suspense`) until its code is here, unless it already was. */
    Part,
  };
}
