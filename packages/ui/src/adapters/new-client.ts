import { createStore, errorMessage } from '@vita-docs/core';
import type { ApiClient, Client, Dialogs, Flow } from '@vita-docs/core';

export type NewClientState =
  { status: 'editing'; error: string | null } | { status: 'submitting' } | { status: 'done'; client: Client };

export type NewClientEvent = {
  type: 'submit';
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  /** Optional client PIN; empty means none (SPEC §5). */
  pin: string;
};

export type NewClientFlow = Flow<NewClientState, NewClientEvent>;

export interface NewClientFlowOptions {
  api: Pick<ApiClient, 'createClient'>;
  platform: Pick<Dialogs, 'alert'>;
}

/** The "Create New Client" form (SPEC §2). Field checks are the server's (SPEC §5); its message is alerted. */
export function createNewClientFlow({ api, platform }: NewClientFlowOptions): NewClientFlow {
  const store = createStore<NewClientState>({ status: 'editing', error: null });
  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      if (store.getState().status !== 'editing') return;
      store.setState({ status: 'submitting' });
      try {
        const pin = event.pin.trim();
        const { client } = await api.createClient({
          body: {
            firstName: event.firstName.trim(),
            lastName: event.lastName.trim(),
            email: event.email.trim(),
            phone: event.phone.trim(),
            ...(pin ? { pin } : {}),
          },
        });
        store.setState({ status: 'done', client });
      } catch (error) {
        const message = errorMessage(error);
        store.setState({ status: 'editing', error: message });
        await platform.alert(message);
      }
    },
  };
}
