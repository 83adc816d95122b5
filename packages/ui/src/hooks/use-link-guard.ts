import { useEffect, useRef } from 'react';

/**
 * While `active`, a click on any link to another page of the app is held back and handed to `ask`
 * with the link's path, so the screen can ask before leaving (and navigate itself afterwards).
 * Links opening elsewhere (another origin, a new tab, a download, modifier keys) are left alone.
 */
export function useLinkGuard(active: boolean, ask: (path: string) => void): void {
  const latest = useRef(ask);
  useEffect(() => {
    latest.current = ask;
  });
  useEffect(() => {
    if (!active) return;
    // Capture on the document: before the router's own click handler on the app's root.
    const click = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(link instanceof HTMLAnchorElement) || link.target || link.hasAttribute('download')) return;
      const url = new URL(link.href);
      if (url.origin !== window.location.origin) return;
      const path = `${url.pathname}${url.search}${url.hash}`;
      if (path === `${window.location.pathname}${window.location.search}${window.location.hash}`) return;
      event.preventDefault();
      event.stopPropagation();
      latest.current(path);
    };
    document.addEventListener('click', click, true);
    return () => document.removeEventListener('click', click, true);
  }, [active]);
}
