import { useEffect } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Where the focused element sat: its list item's list and position, and the section around it. */
interface Place {
  element: Element;
  list: Element | null;
  index: number;
  region: Element | null;
}

function placeOf(element: Element): Place {
  const item = element.closest('li');
  const list = item?.parentElement ?? null;
  return {
    element,
    list,
    index: list && item ? Array.prototype.indexOf.call(list.children, item) : -1,
    region: element.closest('section, main'),
  };
}

/** The element to focus instead of one that left the page: the next row, the previous, or the heading. */
function replacement(place: Place): HTMLElement | null {
  const { list, index, region } = place;
  if (list?.isConnected && list.children.length) {
    const row = list.children[Math.min(index, list.children.length - 1)];
    const target = row?.querySelector<HTMLElement>(FOCUSABLE);
    if (target) return target;
  }
  const scope = region?.isConnected ? region : document.querySelector('main');
  const heading = scope?.querySelector<HTMLElement>('h2, h1') ?? null;
  if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  return heading;
}

/**
 * Keeps keyboard focus on the page when the focused element is removed (an approved card, a
 * deleted file's row, a reassigned client): focus moves to the row that took its place, else the
 * row before, else the heading of its section — never to `<body>`, where a screen reader loses its place.
 */
export function useFocusRescue(): void {
  useEffect(() => {
    let last: Place | null = null;
    // Focus inside a dialog is not remembered: when the dialog closes, its opener's place counts.
    const remember = (event: FocusEvent) => {
      const { target } = event;
      if (target instanceof Element && target !== document.body && !target.closest('dialog'))
        last = placeOf(target);
    };
    const rescue = () => {
      const active = document.activeElement;
      if (!last || last.element.isConnected || (active && active !== document.body)) return;
      const target = replacement(last);
      last = null;
      target?.focus();
    };
    // A modal or native dialog may still be closing when the row goes: look again after the frame.
    const observer = new MutationObserver(() => requestAnimationFrame(rescue));
    document.addEventListener('focusin', remember);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      document.removeEventListener('focusin', remember);
      observer.disconnect();
    };
  }, []);
}
