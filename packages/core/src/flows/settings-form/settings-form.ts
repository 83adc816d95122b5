/**
 * What the Settings screen's forms share (docs/behaviour.md#settings-screen): each loads what is saved,
 * lets the admin edit it, saves it and shows how the save went in a status line. Each form says only how
 * its fields are read and written.
 */
import { errorMessage } from '../../api/errors.js';
import { createStore } from '../../store.js';
import type { Store } from '../../store.js';

/** How the last Save went: saved, or the server's refusal. */
export type SaveOutcome = { saved: true } | { saved: false; error: string };

/** A form while it loads, when it could not be loaded, or ready with its fields. */
export type SettingsFormState<Fields> =
  | { status: 'loading' }
  | { status: 'error'; error: string }
  | (Fields & { status: 'ready'; saving: boolean; outcome: SaveOutcome | null });

export interface SettingsFormOptions<Fields> {
  /** The fields as saved. */
  read: () => Promise<Fields>;
  /** Saves the fields as the form shows them; answers the fields as the server saved them. */
  write: (fields: Fields) => Promise<Partial<Fields>>;
}

/** @internal The shared part of a settings form's flow; each flow exposes it through its own events. */
export interface SettingsForm<Fields> {
  store: Store<SettingsFormState<Fields>>;
  load: () => Promise<void>;
  /** Changes fields of a ready form (typing is not saving). */
  edit: (patch: Partial<Fields>) => void;
  /** Saves unless a save is already running; the fields stay as typed when it is refused. */
  save: () => Promise<void>;
}

type Ready<Fields> = Extract<SettingsFormState<Fields>, { status: 'ready' }>;

/** @internal */
export function createSettingsForm<Fields extends object>({
  read,
  write,
}: SettingsFormOptions<Fields>): SettingsForm<Fields> {
  const store = createStore<SettingsFormState<Fields>>({ status: 'loading' });
  const patchReady = (patch: Partial<Ready<Fields>>) =>
    store.setState((s) => (s.status === 'ready' ? { ...s, ...patch } : s));

  return {
    store,
    async load() {
      try {
        const fields = await read();
        store.setState({ ...fields, status: 'ready', saving: false, outcome: null });
      } catch (error) {
        store.setState({ status: 'error', error: errorMessage(error) });
      }
    },
    edit: (patch) => patchReady(patch as Partial<Ready<Fields>>),
    async save() {
      const form = store.getState();
      if (form.status !== 'ready' || form.saving) return;
      store.setState({ ...form, saving: true, outcome: null });
      const { status: _status, saving: _saving, outcome: _outcome, ...fields } = form;
      try {
        const saved = await write(fields as unknown as Fields);
        patchReady({ ...saved, saving: false, outcome: { saved: true } } as Partial<Ready<Fields>>);
      } catch (error) {
        patchReady({ saving: false, outcome: { saved: false, error: errorMessage(error) } } as Partial<
          Ready<Fields>
        >);
      }
    },
  };
}
