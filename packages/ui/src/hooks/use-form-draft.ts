/**
 * A form's typed values kept across a sign-in round trip (docs/behaviour.md#signing-in-again): the
 * session ends mid-form, the app goes to login and back, and the form is filled as it was. Kept in
 * the tab's sessionStorage (gone with the tab; never in a URL), for the person who typed them only,
 * and never a password field's value (a client PIN, a Password PIN): docs/security.md#form-drafts.
 */
import { useCallback, useEffect, useRef } from 'react';

const PREFIX = 'vita-docs:draft:';

interface Draft {
  owner: string;
  values: Record<string, string>;
}

/** The tab's sessionStorage, or null where there is none (or it refuses: a private mode's quota). */
function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

/** Deletes every kept draft (on sign-out: the next person at this browser sees none of them). */
export function clearFormDrafts(): void {
  const store = storage();
  if (!store) return;
  const keys: string[] = [];
  for (let i = 0; i < store.length; i += 1) {
    const key = store.key(i);
    if (key?.startsWith(PREFIX)) keys.push(key);
  }
  for (const key of keys) store.removeItem(key);
}

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

function read(key: string): Draft | null {
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(key) ?? 'null');
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { owner, values } = parsed as Partial<Draft>;
    return typeof owner === 'string' && typeof values === 'object' && values !== null
      ? { owner, values }
      : null;
  } catch {
    return null;
  }
}

/**
 * Keeps the values typed into an uncontrolled form under `name` for `owner` (the signed-in person):
 * returns the ref for the `<form>` and `discard`, to call once the form's work is done.
 */
export function useFormDraft(name: string, owner: string | null) {
  const key = `${PREFIX}${name}`;
  const form = useRef<HTMLFormElement | null>(null);
  useEffect(() => {
    const element = form.current;
    if (!element || owner === null) return;
    const kept = read(key);
    if (kept && kept.owner !== owner) storage()?.removeItem(key);
    else if (kept) {
      for (const field of keptFields(element)) {
        const value = kept.values[field.name];
        if (typeof value === 'string' && field.value === '') field.value = value;
      }
    }
    const save = () => {
      const values = Object.fromEntries(keptFields(element).map((field) => [field.name, field.value]));
      try {
        storage()?.setItem(key, JSON.stringify({ owner, values } satisfies Draft));
      } catch {
        // No room in the tab's storage: the draft is not kept, the form works as before.
      }
    };
    element.addEventListener('input', save);
    return () => element.removeEventListener('input', save);
  }, [key, owner]);
  const discard = useCallback(() => storage()?.removeItem(key), [key]);
  return { form, discard };
}
