import { useEffect, useRef } from 'react';

/** What `ask` is told when the person pressed the browser's Back button. */
export const BACK = Symbol('back');

/** Where the person was going: an in-app path, or back in the browser's history. */
export type LeaveTarget = string | typeof BACK;

/** Lets one navigation through without asking (after the person chose to leave). */
export interface LeaveGuard {
  leave(to: LeaveTarget, navigate: (path: string) => unknown): void;
}

/** The part of the Navigation API used here (not in TypeScript's DOM types yet). */
interface NavigateEventLike {
  navigationType: string;
  cancelable: boolean;
  preventDefault(): void;
}
interface NavigationLike {
  addEventListener(type: 'navigate', listener: (event: NavigateEventLike) => void): void;
  removeEventListener(type: 'navigate', listener: (event: NavigateEventLike) => void): void;
}

/**
 * While `active`, leaving the screen is held back and handed to `ask`: a click on any link to another
 * page of the app (with the link's path), or the browser's Back (then `BACK`; the page is put back
 * cancelled). Links opening elsewhere (another origin, a new tab, a download, modifier keys) are left alone.
 * `leave` then goes where the person was going.
 *
 * The app's declarative router has no navigation blocker (that needs its data router), so this
 * listens ahead of it: clicks in the capture phase on the document, and the Navigation API's
 * `navigate` event for Back.
 */
export function useLeaveGuard(active: boolean, ask: (to: LeaveTarget) => void): LeaveGuard {
  const latest = useRef(ask);
  const bypass = useRef(false);
  useEffect(() => {
    latest.current = ask;
  });
  useEffect(() => {
    if (!active) return;
    const click = (event: MouseEvent) => {
      if (
        event.defaultPrevented ||
        event.button !== 0 ||
        event.metaKey ||
        event.ctrlKey ||
        event.shiftKey ||
        event.altKey
      )
        return;
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
    // Back: the Navigation API's navigate event comes before the history moves and may be cancelled
    // (same-document traversals, after a user gesture). Browsers without it go back without asking —
    // the queue stays in the app, so nothing is lost.
    const navigation = (window as { navigation?: NavigationLike }).navigation;
    const traverse = (event: NavigateEventLike) => {
      if (event.navigationType !== 'traverse' || !event.cancelable) return;
      if (bypass.current) {
        bypass.current = false;
        return;
      }
      event.preventDefault();
      latest.current(BACK);
    };
    document.addEventListener('click', click, true);
    navigation?.addEventListener('navigate', traverse);
    return () => {
      document.removeEventListener('click', click, true);
      navigation?.removeEventListener('navigate', traverse);
    };
  }, [active]);
  return {
    leave(to, navigate) {
      if (to === BACK) {
        bypass.current = true;
        window.history.back();
      } else {
        void navigate(to);
      }
    },
  };
}
