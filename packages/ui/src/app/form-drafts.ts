/**
 * The forms' drafts of this page (see `hooks/use-form-draft.ts`): in memory only, by form name, each
 * with the person who typed it. Apart from the hook so the session can forget them at sign-out.
 */
export interface FormDraft {
  owner: string;
  values: Record<string, string>;
}

export const formDrafts = new Map<string, FormDraft>();

/** Forgets every draft (at sign-out: the next person at this browser sees none of them). */
export function clearFormDrafts(): void {
  formDrafts.clear();
}
