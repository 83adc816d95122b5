/**
 * The Settings screen's retention form (docs/behaviour.md#settings-screen, docs/behaviour.md#retention):
 * loads the rule, lets the admin switch it on or off and choose the days, and saves it; the outcome
 * shows in a status line.
 */
import type { ApiClient } from '../../api/client.js';
import { errorMessage } from '../../api/errors.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';

/** The days the form offers while the rule is off. */
const OFFERED_DAYS = 180;

/** How the last Save went: saved, or the server's refusal. */
export type RetentionOutcome = { saved: true } | { saved: false; error: string };

export type RetentionState =
  | { status: 'loading' }
  | { status: 'error'; error: string }
  | {
      status: 'ready';
      /** The checkbox "Delete a client’s documents after the client was submitted". */
      on: boolean;
      /** "Days after submission" as typed. */
      days: string;
      saving: boolean;
      outcome: RetentionOutcome | null;
      /** What the saved rule will touch: submitted clients with documents, and its next day (null: none). */
      reach: { clients: number; nextDeletionOn: string | null } | null;
    };

export type RetentionEvent =
  | { type: 'load' }
  | { type: 'setOn'; on: boolean }
  | { type: 'setDays'; days: string }
  /** Saves the rule as the form shows it (the server checks the days). */
  | { type: 'save' };

export type RetentionFlow = Flow<RetentionState, RetentionEvent>;

export interface RetentionFlowOptions {
  api: Pick<ApiClient, 'getRetention' | 'setRetention'>;
}

/** The form of a rule: on with its days, or off with the days offered. */
const formOf = (days: number | null, offered: string) => ({
  on: days !== null,
  days: String(days ?? offered),
});

/** Creates the retention form's flow. It starts in `loading`: send `load`. */
export function createRetentionFlow({ api }: RetentionFlowOptions): RetentionFlow {
  const store = createStore<RetentionState>({ status: 'loading' });
  const edit = (patch: { on?: boolean; days?: string }) =>
    store.setState((s) => (s.status === 'ready' ? { ...s, ...patch } : s));

  async function load(): Promise<void> {
    try {
      const { days, clients, nextDeletionOn } = await api.getRetention();
      store.setState({
        status: 'ready',
        ...formOf(days, String(OFFERED_DAYS)),
        saving: false,
        outcome: null,
        reach: days === null ? null : { clients, nextDeletionOn },
      });
    } catch (error) {
      store.setState({ status: 'error', error: errorMessage(error) });
    }
  }

  async function save(): Promise<void> {
    const form = store.getState();
    if (form.status !== 'ready' || form.saving) return;
    store.setState({ ...form, saving: true, outcome: null });
    let next: Partial<Extract<RetentionState, { status: 'ready' }>>;
    try {
      const saved = await api.setRetention({ body: { days: form.on ? Number(form.days) : null } });
      const { days, clients, nextDeletionOn } = saved;
      next = {
        ...formOf(days, form.days),
        outcome: { saved: true },
        reach: days === null ? null : { clients, nextDeletionOn },
      };
    } catch (error) {
      next = { outcome: { saved: false, error: errorMessage(error) } };
    }
    store.setState((s) => (s.status === 'ready' ? { ...s, ...next, saving: false } : s));
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      switch (event.type) {
        case 'load':
          return load();
        case 'setOn':
          return edit({ on: event.on });
        case 'setDays':
          return edit({ days: event.days });
        case 'save':
          return save();
      }
    },
  };
}
