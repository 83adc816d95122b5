import { createStore, errorMessage } from '@vita-docs/core';
import type { ApiClient, Dialogs, Flow } from '@vita-docs/core';

/** `done.approved` is true for the very first account of a fresh installation: it is already an admin. */
export type RegisterState =
  | { status: 'editing'; error: string | null }
  | { status: 'submitting' }
  | { status: 'done'; approved: boolean };

export type RegisterEvent = {
  type: 'submit';
  firstName: string;
  lastName: string;
  email: string;
  pin: string;
};

export type RegisterFlow = Flow<RegisterState, RegisterEvent>;

export interface RegisterFlowOptions {
  api: Pick<ApiClient, 'register'>;
  platform: Pick<Dialogs, 'alert'>;
}

/** The "New Volunteer Account" form (SPEC §2): field checks are the server's (SPEC §5). */
export function createRegisterFlow({ api, platform }: RegisterFlowOptions): RegisterFlow {
  const store = createStore<RegisterState>({ status: 'editing', error: null });
  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      if (store.getState().status !== 'editing') return;
      store.setState({ status: 'submitting' });
      try {
        const { status } = await api.register({
          body: {
            firstName: event.firstName.trim(),
            lastName: event.lastName.trim(),
            email: event.email.trim(),
            pin: event.pin,
          },
        });
        store.setState({ status: 'done', approved: status === 'approved' });
      } catch (error) {
        const message = errorMessage(error);
        store.setState({ status: 'editing', error: message });
        await platform.alert(message);
      }
    },
  };
}
