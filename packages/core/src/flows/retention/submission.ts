/**
 * The client documents page's submission line (docs/behaviour.md#client-documents-screen):
 * `Mark as submitted` (after a confirm saying what it means), then `Submitted on <date>` and, while
 * the retention rule is on, `Documents will be deleted on <date>.`; `Undo submitted` until then.
 */
import type { ApiClient } from '../../api/client.js';
import { errorMessage } from '../../api/errors.js';
import type { SubmissionStatus } from '../../api/schemas.js';
import { markSubmittedConfirm } from '../../domain/messages.js';
import type { Dialogs } from '../../ports.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';

export type SubmissionState =
  | { status: 'loading' }
  | { status: 'ready'; submission: SubmissionStatus; busy: boolean }
  /** The line is left out (the page alerts its own load failure). */
  | { status: 'error' };

export type SubmissionEvent = { type: 'load' } | { type: 'submit'; clientName: string } | { type: 'undo' };

export type SubmissionFlow = Flow<SubmissionState, SubmissionEvent>;

export interface SubmissionFlowOptions {
  api: Pick<ApiClient, 'submission' | 'submitClient' | 'unsubmitClient'>;
  platform: Pick<Dialogs, 'alert' | 'confirm'>;
  clientId: string;
}

/** Creates the flow; it starts in `loading`: send `load`. */
export function createSubmissionFlow({ api, platform, clientId }: SubmissionFlowOptions): SubmissionFlow {
  const store = createStore<SubmissionState>({ status: 'loading' });
  const params = { id: clientId };

  async function load(): Promise<void> {
    try {
      store.setState({ status: 'ready', submission: await api.submission({ params }), busy: false });
    } catch {
      store.setState({ status: 'error' });
    }
  }

  async function act(change: (submission: SubmissionStatus) => Promise<unknown>): Promise<void> {
    const state = store.getState();
    if (state.status !== 'ready' || state.busy) return;
    store.setState({ ...state, busy: true });
    try {
      await change(state.submission);
    } catch (error) {
      await platform.alert(errorMessage(error));
    }
    await load();
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      switch (event.type) {
        case 'load':
          return load();
        case 'submit':
          return act(async (submission) => {
            if (!(await platform.confirm(markSubmittedConfirm(event.clientName, submission.retentionDays))))
              return;
            await api.submitClient({ params });
          });
        case 'undo':
          return act(() => api.unsubmitClient({ params }));
      }
    },
  };
}
