import type { FileLike } from '@vita-docs/core';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { FilePicker, PHOTO_ACCEPT, UPLOAD_ACCEPT } from './file-picker';

interface RetakeMenuProps {
  filename: string;
  disabled: boolean;
  onFile: (file: FileLike) => void;
}

/**
 * Retake: a button that opens a small menu offering Upload or Take Photo. The chosen file
 * replaces this one. A disclosure rather than an ARIA menu: its items are native file inputs.
 */
export function RetakeMenu({ filename, disabled, onFile }: RetakeMenuProps) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const container = useRef<HTMLDivElement>(null);
  const menu = useRef<HTMLDivElement>(null);
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
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      event.stopPropagation();
      setOpen(false);
    }
  };
  return (
    <div className="retake" ref={container} onKeyDown={closeOnEscape}>
      <button
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
