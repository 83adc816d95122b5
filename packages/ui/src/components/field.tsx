import { useId } from 'react';
import type { InputHTMLAttributes } from 'react';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** A line under the input, linked to it for screen readers. */
  hint?: string;
  name: string;
}

/** A labelled text input. */
export function Field({ label, hint, className, ...input }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input className="field__input" id={id} aria-describedby={hintId} {...input} />
      {hint && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}

/** The 6-digit code field of /login/verify and /forgot/verify: numeric keypad, at most 6. */
export function CodeField({ length }: { length: number }) {
  return (
    <Field
      label={`${length}-digit code`}
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={length}
      required
      // The code is the only thing to do on the verify screens: the keyboard is there for it.
      autoFocus
      className="field--code"
    />
  );
}
