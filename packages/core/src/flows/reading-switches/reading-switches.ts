/**
 * The switches of reading documents on the device (docs/behaviour.md#reading-documents), each a
 * checkbox saved as it is ticked: the person's own `Check documents on this device` (Account, which
 * also knows whether the programme turned reading off) and the programme's `Check documents on the
 * device` (Settings). A refused change puts the box back as it was saved.
 */
import type { ApiClient } from '../../api/client.js';
import type { Flow } from '../../store.js';
import { createSettingsForm } from '../settings-form/settings-form.js';
import type { SettingsFormState } from '../settings-form/settings-form.js';

/** `programme`: whether the programme lets documents be read at all (Account shows its own box disabled when not). */
export type ReadingSwitchState = SettingsFormState<{ on: boolean; programme: boolean }>;

export type ReadingSwitchEvent = { type: 'load' } | { type: 'set'; on: boolean };

export type ReadingSwitchFlow = Flow<ReadingSwitchState, ReadingSwitchEvent>;

type Fields = { on: boolean; programme: boolean };

function switchFlow(read: () => Promise<Fields>, write: (on: boolean) => Promise<Fields>): ReadingSwitchFlow {
  const form = createSettingsForm<Fields>({ read, write: ({ on }) => write(on) });
  const { store } = form;

  async function set(on: boolean): Promise<void> {
    const before = store.getState();
    if (before.status !== 'ready' || before.saving) return;
    form.edit({ on });
    await form.save();
    const after = store.getState();
    if (after.status === 'ready' && after.outcome?.saved === false) form.edit({ on: before.on });
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      if (event.type === 'load') return form.load();
      return set(event.on);
    },
  };
}

/** Account's `Check documents on this device`: the person's own switch, kept with the account. */
export function createMyReadingFlow({
  api,
}: {
  api: Pick<ApiClient, 'myReading' | 'setMyReading'>;
}): ReadingSwitchFlow {
  const fields = ({ mine, programme }: { mine: boolean; programme: boolean }) => ({ on: mine, programme });
  return switchFlow(
    async () => fields(await api.myReading()),
    async (on) => fields(await api.setMyReading({ body: { on } })),
  );
}

/** Settings' `Check documents on the device`: the programme's switch (admins only). */
export function createProgrammeReadingFlow({
  api,
}: {
  api: Pick<ApiClient, 'myReading' | 'setProgrammeReading'>;
}): ReadingSwitchFlow {
  const fields = ({ on }: { on: boolean }) => ({ on, programme: on });
  return switchFlow(
    async () => fields({ on: (await api.myReading()).programme }),
    async (on) => fields(await api.setProgrammeReading({ body: { on } })),
  );
}
