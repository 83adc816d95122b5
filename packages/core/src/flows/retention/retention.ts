/**
 * The Settings screen's retention form (docs/behaviour.md#settings-screen, docs/behaviour.md#retention):
 * loads the rule, lets the admin switch it on or off and choose the days, and saves it; the outcome
 * shows in a status line.
 */
import type { ApiClient } from '../../api/client.js';
import type { RetentionStatus } from '../../api/schemas.js';
import { RETENTION_MAX_DAYS, RETENTION_MIN_DAYS } from '../../domain/constants.js';
import { messages } from '../../domain/messages.js';
import type { Flow } from '../../store.js';
import { createSettingsForm } from '../settings-form/settings-form.js';
import type { SaveOutcome, SettingsFormState } from '../settings-form/settings-form.js';

/** The days the form offers while the rule is off. */
const OFFERED_DAYS = 180;

/** How the last Save went: saved, or the server's refusal. */
export type RetentionOutcome = SaveOutcome;

export type RetentionState = SettingsFormState<{
  /** The checkbox "Delete a client’s documents after the client was submitted". */
  on: boolean;
  /** "Days after submission" as typed. */
  days: string;
  /** What the saved rule will touch: submitted clients with documents, and its next day (null: none). */
  reach: { clients: number; nextDeletionOn: string | null } | null;
}>;

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

/** `Days after submission` as typed is a whole number from 7 to 365. */
export function retentionDaysValid(days: string): boolean {
  const value = Number(days);
  return (
    days.trim() !== '' &&
    Number.isInteger(value) &&
    value >= RETENTION_MIN_DAYS &&
    value <= RETENTION_MAX_DAYS
  );
}

/** The form of a saved rule: on with its days, or off with the days offered. */
const formOf = ({ days, clients, nextDeletionOn }: RetentionStatus, offered: string) => ({
  on: days !== null,
  days: String(days ?? offered),
  reach: days === null ? null : { clients, nextDeletionOn },
});

/** Creates the retention form's flow. It starts in `loading`: send `load`. */
export function createRetentionFlow({ api }: RetentionFlowOptions): RetentionFlow {
  const form = createSettingsForm({
    read: async () => formOf(await api.getRetention(), String(OFFERED_DAYS)),
    write: async ({ on, days }) =>
      formOf(await api.setRetention({ body: { days: on ? Number(days) : null } }), days),
  });
  const { store } = form;

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      switch (event.type) {
        case 'load':
          return form.load();
        case 'setOn':
          return form.edit({ on: event.on });
        case 'setDays':
          return form.edit({ days: event.days });
        case 'save': {
          // Refused here, in the form's own words, rather than by the browser's bubble alone (or a
          // round trip): the rule is left as saved.
          const state = store.getState();
          if (state.status === 'ready' && state.on && !retentionDaysValid(state.days)) {
            store.setState({ ...state, outcome: { saved: false, error: messages.retentionDaysRange } });
            return;
          }
          return form.save();
        }
      }
    },
  };
}
