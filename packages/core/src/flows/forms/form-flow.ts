import { errorMessage } from '../../api/errors.js';
import type { Dialogs } from '../../ports.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';

/** A one-shot form: `editing` (with the last error) → `submitting` → `done` with what `submit` returned. */
export type FormState<Done extends object> =
  { status: 'editing'; error: string | null } | { status: 'submitting' } | ({ status: 'done' } & Done);

/**
 * One submit at a time; field checks are the server's (docs/behaviour.md#validation-rules), so a
 * failure goes back to `editing` with its message, which is also alerted.
 */
export function createFormFlow<Event, Done extends object>(
  submit: (event: Event) => Promise<Done>,
  platform: Pick<Dialogs, 'alert'>,
): Flow<FormState<Done>, Event> {
  const store = createStore<FormState<Done>>({ status: 'editing', error: null });
  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      if (store.getState().status !== 'editing') return;
      store.setState({ status: 'submitting' });
      try {
        const done = await submit(event);
        store.setState({ status: 'done', ...done });
      } catch (error) {
        const message = errorMessage(error);
        store.setState({ status: 'editing', error: message });
        await platform.alert(message);
      }
    },
  };
}
