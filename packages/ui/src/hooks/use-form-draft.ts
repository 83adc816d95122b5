/**
 * A form's typed values kept across a sign-in round trip (docs/behaviour.md#session-check): the
 * session ends mid-form, the app goes to login and back (within the page: no reload), and the form is
 * filled as it was. Kept in the page's memory only — never in a URL, nor in any browser storage, where
 * a client's name, email and phone would outlive the page on the device (docs/security.md) — for the
 * person who typed them, and never a password field's value (a client PIN, a Password PIN).
 */
import { useCallback, useEffect, useRef } from 'react';
import { formDrafts } from '../app/form-drafts';
import { useSessionFlow } from '../app/session';
import { useFlow } from './use-flow';

/** The fields whose values may be kept: named text-like inputs, text areas and selects, never passwords. */
function keptFields(form: HTMLFormElement): (HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement)[] {
  return [...form.elements].filter(
    (el): el is HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement =>
      (el instanceof HTMLInputElement &&
        el.name !== '' &&
        !['password', 'file', 'hidden', 'checkbox', 'radio'].includes(el.type)) ||
      ((el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) && el.name !== ''),
  );
}

/**
 * Keeps the values typed into an uncontrolled form under `name` for the signed-in person
 * while the session that ended brings the person back to it: returns the ref for the `<form>` and
 * `discard`, to call once the form's work is done.
 */
export function useFormDraft(name: string) {
  const form = useRef<HTMLFormElement | null>(null);
  const session = useSessionFlow();
  const state = useFlow(session);
  const owner = state.status === 'signedIn' ? state.user.email : null;
  useEffect(() => {
    const element = form.current;
    if (!element || owner === null) return;
    const kept = formDrafts.get(name);
    if (kept && kept.owner !== owner) formDrafts.delete(name);
    else if (kept) {
      for (const field of keptFields(element)) {
        const value = kept.values[field.name];
        if (typeof value === 'string' && field.value === '') field.value = value;
      }
    }
    const save = () => {
      const values = Object.fromEntries(keptFields(element).map((field) => [field.name, field.value]));
      formDrafts.set(name, { owner, values });
    };
    element.addEventListener('input', save);
    return () => {
      element.removeEventListener('input', save);
      // Left while still signed in (Cancel, another screen): the draft goes. Left because the
      // session ended: it stays for the way back.
      // (Read from the session itself: the screen unmounts in the same commit the session ends.)
      if (session.getState().status === 'signedIn') formDrafts.delete(name);
    };
  }, [name, owner, session]);
  const discard = useCallback(() => formDrafts.delete(name), [name]);
  return { form, discard };
}
