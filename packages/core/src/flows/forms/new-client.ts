import type { ApiClient } from '../../api/client.js';
import type { Client } from '../../api/schemas.js';
import type { Dialogs } from '../../ports.js';
import type { Flow } from '../../store.js';
import { createFormFlow } from './form-flow.js';
import type { FormState } from './form-flow.js';

export type NewClientState = FormState<{ client: Client }>;

export type NewClientEvent = {
  type: 'submit';
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  /** Optional client PIN; empty means none. */
  pin: string;
};

export type NewClientFlow = Flow<NewClientState, NewClientEvent>;

export interface NewClientFlowOptions {
  api: Pick<ApiClient, 'createClient'>;
  platform: Pick<Dialogs, 'alert'>;
}

/** The "Create New Client" form. Field checks are the server's; its message is alerted. */
export function createNewClientFlow({ api, platform }: NewClientFlowOptions): NewClientFlow {
  return createFormFlow(async (event: NewClientEvent) => {
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
    return { client };
  }, platform);
}
