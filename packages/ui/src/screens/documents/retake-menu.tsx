import type { FileLike } from '@vita-docs/core';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import type { KeyboardEvent, RefObject } from 'react';
import { FilePicker, PHOTO_ACCEPT, UPLOAD_ACCEPT } from './file-picker';

/** The menu's choices (its file inputs), in order. */
const choices = (menu: HTMLElement | null): HTMLInputElement[] =>
  menu ? [...menu.querySelectorAll<HTMLInputElement>('input[type="file"]')] : [];

/** The arrows move through the choices, round from the last to the first; from the button, to the first. */
function moveFocus(menu: HTMLElement | null, step: number): void {
  const items = choices(menu);
  if (!items.length) return;
  const at = items.indexOf(document.activeElement as HTMLInputElement);
  const next = at < 0 ? (step > 0 ? 0 : items.length - 1) : (at + step + items.length) % items.length;
  items[next]?.focus();
}

interface RetakeMenuProps {
  filename: string;
  disabled: boolean;
  onFile: (file: FileLike) => void;
}

/**
 * Retake: a button that opens a small menu offering Upload or Take Photo. The chosen file
 * replaces this one. A disclosure rather than an ARIA menu: its items are native file inputs. It
 * still answers the keys a menu does: the arrows move through its choices (opening it from the
 * button), Escape closes it and gives the focus back to `Retake`.
 */
export function RetakeMenu({ filename, disabled, onFile }: RetakeMenuProps) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const container = useRef<HTMLDivElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  // Kept inside the viewport: on a phone the button may sit at either edge of the screen.
  useLayoutEffect(() => {
    const element = menu.current;
    if (!open || !element) return;
    element.style.transform = '';
    const margin = 8;
    const { left, right } = element.getBoundingClientRect();
    const width = document.documentElement.clientWidth;
    const shift = left < margin ? margin - left : right > width - margin ? width - margin - right : 0;
    if (shift) element.style.transform = `translateX(${Math.round(shift)}px)`;
  }, [open]);
  useEffect(() => {
    if (!open) return;
    // A press anywhere else closes the menu, as menus do.
    const outside = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);
  const pick = (files: File[]) => {
    setOpen(false);
    if (files[0]) onFile(files[0]);
  };
  const keys = useMenuKeys(open, setOpen, menu, button);
  return (
    <div className="retake" ref={container} onKeyDown={keys}>
      <button
        ref={button}
        type="button"
        className="button button--small"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={`Retake ${filename}`}
        disabled={disabled}
        onClick={() => setOpen((o) => !o)}
      >
        Retake
      </button>
      {open && (
        <div className="retake__menu" id={menuId} ref={menu} role="group" aria-label={`Retake ${filename}`}>
          <FilePicker label="Upload" accept={UPLOAD_ACCEPT} onFiles={pick} className="button--small" />
          <FilePicker
            label="Take Photo"
            accept={PHOTO_ACCEPT}
            capture="environment"
            onFiles={pick}
            className="button--small"
          />
        </div>
      )}
    </div>
  );
}

/**
 * The keys a menu answers: the arrows move through its choices (opening it from the button at the
 * first or last), Escape closes it and gives the focus back to the button.
 */
function useMenuKeys(
  open: boolean,
  setOpen: (open: boolean) => void,
  menu: RefObject<HTMLDivElement | null>,
  button: RefObject<HTMLButtonElement | null>,
) {
  const keys = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      event.stopPropagation();
      setOpen(false);
      // The focus may be on one of the menu's choices, which go with it: back to the button that opened it.
      button.current?.focus();
      return;
    }
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    if (!open) {
      setOpen(true);
      focusOnOpen.current = step;
      return;
    }
    moveFocus(menu.current, step);
  };
  // Opened with an arrow key: the first (down) or last (up) choice takes the focus once it is there.
  const focusOnOpen = useRef(0);
  useEffect(() => {
    if (!open || !focusOnOpen.current) return;
    const items = choices(menu.current);
    items.at(focusOnOpen.current > 0 ? 0 : -1)?.focus();
    focusOnOpen.current = 0;
  }, [open, menu]);
  return keys;
}
