import { useSyncExternalStore } from 'react';

/**
 * Whether the media query matches now, following its changes (a phone turned, a window resized). Used
 * where a screen orders its parts by width: the page's own order then follows what is seen, so the
 * keyboard and screen readers meet the parts in the order they are shown (CSS `order` would not).
 */
export function useMedia(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}
