/**
 * The Settings screen's passkey rule (docs/behaviour.md#passkeys): "Require passkeys for admins and
 * officers", saved as it is ticked. A refused change puts the box back as it was saved.
 */
import type { ApiClient } from '../../api/client.js';
import type { Flow } from '../../store.js';
import { createSettingsForm } from '../settings-form/settings-form.js';
import type { SettingsFormState } from '../settings-form/settings-form.js';

export type PasskeyPolicyState = SettingsFormState<{ requireForStaff: boolean }>;

export type PasskeyPolicyEvent = { type: 'load' } | { type: 'set'; requireForStaff: boolean };

export type PasskeyPolicyFlow = Flow<PasskeyPolicyState, PasskeyPolicyEvent>;

export interface PasskeyPolicyFlowOptions {
  api: Pick<ApiClient, 'getPasskeyPolicy' | 'setPasskeyPolicy'>;
}

/** Creates the passkey rule's flow. It starts in `loading`: send `load`. */
export function createPasskeyPolicyFlow({ api }: PasskeyPolicyFlowOptions): PasskeyPolicyFlow {
  const form = createSettingsForm({
    read: () => api.getPasskeyPolicy(),
    write: (body) => api.setPasskeyPolicy({ body }),
  });
  const { store } = form;

  async function set(requireForStaff: boolean): Promise<void> {
    const before = store.getState();
    if (before.status !== 'ready' || before.saving) return;
    form.edit({ requireForStaff });
    await form.save();
    const after = store.getState();
    if (after.status === 'ready' && after.outcome?.saved === false)
      form.edit({ requireForStaff: before.requireForStaff });
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      if (event.type === 'load') return form.load();
      return set(event.requireForStaff);
    },
  };
}
