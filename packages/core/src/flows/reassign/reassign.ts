/**
 * Reassign Client (docs/behaviour.md#orphaned-clients-and-reassignment): the owner comes from the client-meta
 * lookup; when that fails the client is treated as an orphan so reassignment still works. Afterwards
 * the page's owner is the new volunteer.
 */
import type { ApiClient } from '../../api/client.js';
import { errorMessage } from '../../api/errors.js';
import type { Volunteer } from '../../api/schemas.js';
import { messages } from '../../domain/messages.js';
import type { Dialogs } from '../../ports.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';

/** Who owns the client as far as the page knows. */
export type ClientOwner = { kind: 'volunteer'; email: string } | { kind: 'orphan' };

/** The Reassign dialog. `owner` stays known after it closes. An empty `volunteers` list shows the "No volunteers found" text. */
export type ReassignState =
  | { status: 'closed'; owner: ClientOwner | null }
  | { status: 'loading'; owner: ClientOwner | null }
  | { status: 'choosing'; owner: ClientOwner; volunteers: readonly Volunteer[]; selected: string | null }
  | { status: 'saving'; owner: ClientOwner; volunteers: readonly Volunteer[]; selected: string };

/** What the user does. */
export type ReassignEvent =
  /** Opens the dialog; `clientEmail` is needed for owned clients when client-meta does not give it. */
  | { type: 'open'; clientEmail?: string }
  | { type: 'choose'; email: string | null }
  | { type: 'confirm' }
  | { type: 'cancel' };

/** The ports of {@link createReassignFlow}. */
export interface ReassignFlowOptions {
  api: Pick<ApiClient, 'clientMeta' | 'volunteers' | 'reassignClient' | 'reassignOrphan'>;
  platform: Pick<Dialogs, 'alert'>;
  clientId: string;
}

/** The reassign flow. */
export type ReassignFlow = Flow<ReassignState, ReassignEvent>;

/** The confirm button is disabled until a volunteer is chosen. */
export function canConfirmReassign(state: ReassignState): boolean {
  return state.status === 'choosing' && state.selected !== null;
}

/** Creates the reassign flow. */
export function createReassignFlow({ api, platform, clientId }: ReassignFlowOptions): ReassignFlow {
  const store = createStore<ReassignState>({ status: 'closed', owner: null });
  let clientEmail: string | undefined;

  async function open(givenEmail: string | undefined): Promise<void> {
    store.setState({ status: 'loading', owner: store.getState().owner });
    const [meta, list] = await Promise.allSettled([
      api.clientMeta({ params: { id: clientId } }),
      api.volunteers(),
    ]);
    const createdBy = meta.status === 'fulfilled' ? meta.value.createdBy : null;
    clientEmail = givenEmail ?? (meta.status === 'fulfilled' ? meta.value.clientEmail : undefined);
    const owner: ClientOwner = createdBy ? { kind: 'volunteer', email: createdBy } : { kind: 'orphan' };
    // A failed volunteer lookup shows as an empty list (with its "No volunteers found" text).
    const volunteers = list.status === 'fulfilled' ? list.value.items : [];
    store.setState({ status: 'choosing', owner, volunteers, selected: null });
  }

  async function confirm(
    owner: ClientOwner,
    volunteers: readonly Volunteer[],
    selected: string,
  ): Promise<void> {
    store.setState({ status: 'saving', owner, volunteers, selected });
    try {
      if (owner.kind === 'orphan') {
        await api.reassignOrphan({ body: { clientId, newVolunteerEmail: selected } });
      } else {
        if (!clientEmail) throw new Error('The client’s email is unknown; reload the page and try again.');
        await api.reassignClient({
          body: { from: owner.email, clientEmail, newVolunteerEmail: selected, clientId },
        });
      }
    } catch (error) {
      store.setState({ status: 'choosing', owner, volunteers, selected });
      await platform.alert(errorMessage(error));
      return;
    }
    store.setState({ status: 'closed', owner: { kind: 'volunteer', email: selected } });
    await platform.alert(messages.clientReassigned);
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      const state = store.getState();
      if (event.type === 'open' && state.status === 'closed') return open(event.clientEmail);
      if (state.status !== 'choosing') return;
      if (event.type === 'choose') store.setState({ ...state, selected: event.email });
      if (event.type === 'cancel') store.setState({ status: 'closed', owner: state.owner });
      if (event.type === 'confirm' && state.selected !== null) {
        await confirm(state.owner, state.volunteers, state.selected);
      }
    },
  };
}
