/**
 * The Settings screen's programme name (docs/behaviour.md#settings-screen): what the client's request
 * page and every link mail are signed with, `VITA Documents` until an admin sets another.
 */
import type { ApiClient } from '../../api/client.js';
import type { Flow } from '../../store.js';
import { createSettingsForm } from '../settings-form/settings-form.js';
import type { SettingsFormState } from '../settings-form/settings-form.js';

export type ProgrammeNameState = SettingsFormState<{ name: string }>;

export type ProgrammeNameEvent = { type: 'load' } | { type: 'setName'; name: string } | { type: 'save' };

export type ProgrammeNameFlow = Flow<ProgrammeNameState, ProgrammeNameEvent>;

export interface ProgrammeNameFlowOptions {
  api: Pick<ApiClient, 'getProgrammeName' | 'setProgrammeName'>;
}

/** Creates the programme name form's flow. It starts in `loading`: send `load`. */
export function createProgrammeNameFlow({ api }: ProgrammeNameFlowOptions): ProgrammeNameFlow {
  const form = createSettingsForm({
    read: () => api.getProgrammeName(),
    write: ({ name }) => api.setProgrammeName({ body: { name } }),
  });
  const { store } = form;
  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      switch (event.type) {
        case 'load':
          return form.load();
        case 'setName':
          if (store.getState().status === 'ready') form.edit({ name: event.name });
          return;
        case 'save':
          return form.save();
      }
    },
  };
}
