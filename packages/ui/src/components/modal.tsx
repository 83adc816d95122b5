import { useEffect, useId, useRef } from 'react';
import type { ReactNode } from 'react';
import '../styles/modal.css';

interface ModalProps {
  title: string;
  /** Escape, or the caller's own Cancel / No button. */
  onClose: () => void;
  children: ReactNode;
  /** The buttons at the bottom. */
  actions: ReactNode;
  /** An extra class for a differently sized dialog (the file viewer). */
  className?: string;
}

/**
 * A modal dialog on the native `<dialog>`: the browser traps focus, closes on Escape and makes the
 * page behind inert. Mount it to open it, unmount it to close it; focus returns to the opener.
 */
export function Modal({ title, onClose, children, actions, className }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={className ? `modal ${className}` : 'modal'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        // React owns whether the dialog exists: let the caller unmount it instead of the browser closing it.
        event.preventDefault();
        onClose();
      }}
    >
      <h2 className="modal__title" id={titleId}>
        {title}
      </h2>
      <div className="modal__body">{children}</div>
      <div className="modal__actions">{actions}</div>
    </dialog>
  );
}

interface ConfirmModalProps {
  title: string;
  message: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A yes/no question in a modal; Cancel has the initial focus, so Enter never deletes by accident. */
export function ConfirmModal({ title, message, confirmLabel, onConfirm, onCancel }: ConfirmModalProps) {
  return (
    <Modal
      title={title}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="button" autoFocus onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="button button--danger" onClick={onConfirm}>
            {confirmLabel}
          </button>
        </>
      }
    >
      <p>{message}</p>
    </Modal>
  );
}

interface FormModalProps {
  title: string;
  submitLabel: string;
  /** Cancel waits while the answer is being saved. */
  saving: boolean;
  canSubmit: boolean;
  onCancel: () => void;
  onSubmit: () => void;
  children: ReactNode;
}

/** A modal holding a form: Enter in a field submits it like the primary button does. */
export function FormModal({
  title,
  submitLabel,
  saving,
  canSubmit,
  onCancel,
  onSubmit,
  children,
}: FormModalProps) {
  const formId = useId();
  return (
    <Modal
      title={title}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="button" disabled={saving} onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" form={formId} className="button button--primary" disabled={!canSubmit}>
            {submitLabel}
          </button>
        </>
      }
    >
      <form
        id={formId}
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
      </form>
    </Modal>
  );
}
