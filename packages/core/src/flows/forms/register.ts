import type { ApiClient } from '../../api/client.js';
import type { Dialogs } from '../../ports.js';
import type { Flow } from '../../store.js';
import { createFormFlow } from './form-flow.js';
import type { FormState } from './form-flow.js';

/** `done.approved` is true for the very first account of a fresh installation: it is already an admin. */
export type RegisterState = FormState<{ approved: boolean }>;

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

/** The "New Volunteer Account" form: field checks are the server's. */
export function createRegisterFlow({ api, platform }: RegisterFlowOptions): RegisterFlow {
  return createFormFlow(async (event: RegisterEvent) => {
    const { status } = await api.register({
      body: {
        firstName: event.firstName.trim(),
        lastName: event.lastName.trim(),
        email: event.email.trim(),
        pin: event.pin,
      },
    });
    return { approved: status === 'approved' };
  }, platform);
}
