import type { ApiClient } from '../../api/client.js';
import { errorMessage } from '../../api/errors.js';
import type { Client } from '../../api/schemas.js';
import { isCategoryTemplate, isFixedCategory } from '../../domain/categories.js';
import type { CategoryTemplate } from '../../domain/categories.js';
import type { Actor } from '../../domain/roles.js';
import type { Dialogs } from '../../ports.js';
import { createStore } from '../../store.js';
import { deleteCategory, findClientCard } from './client-card.js';
import type { Flow } from '../../store.js';

/** One row of the Required Documents list: Ready when it has files, Missing otherwise. */
export interface DocCategory {
  name: string;
  hasFiles: boolean;
  /** Not one of the five fixed categories: it has a Delete Type button. */
  custom: boolean;
}

/** The "Add additional document" dialog; `template` stays null until one is chosen. */
export interface AddTypeDialog {
  template: CategoryTemplate | null;
  note: string;
  saving: boolean;
}

/** The Client Documents page. `client` is the client's card when the lists the person may see have it. */
export interface ClientDocsState {
  status: 'loading' | 'ready' | 'error';
  categories: readonly DocCategory[];
  client: Client | null;
  error: string | null;
  /** The open Add dialog, or null. */
  adding: AddTypeDialog | null;
  /** A category being deleted. */
  deleting: string | null;
}

export type ClientDocsEvent =
  | { type: 'refresh' }
  | { type: 'openAdd' }
  | { type: 'chooseTemplate'; template: string }
  | { type: 'changeNote'; note: string }
  | { type: 'cancelAdd' }
  | { type: 'confirmAdd' }
  | { type: 'deleteType'; name: string }
  /** After Reassign Client: the page's owner is the new volunteer. */
  | { type: 'reassigned'; email: string }
  /** A file of `docType` was just stored (an upload queue's): its row is Ready without a reload. */
  | { type: 'stored'; docType: string };

export type ClientDocsFlow = Flow<ClientDocsState, ClientDocsEvent>;

export interface ClientDocsFlowOptions {
  api: Pick<
    ApiClient,
    'docTypes' | 'docStatus' | 'addDocType' | 'deleteDocType' | 'listClients' | 'listAllClients'
  >;
  platform: Dialogs;
  clientId: string;
  /** Who looks: admins find the client among all clients, others among their own. */
  actor: Actor;
}

/** The Add button is disabled until a template is chosen. Narrows `adding` for confirmAdd. */
export function canAddType(state: ClientDocsState): state is ClientDocsState & { adding: AddTypeDialog } {
  return state.adding !== null && state.adding.template !== null && !state.adding.saving;
}

/** The client's categories, each Ready (it holds files) or Missing. */
async function loadCategories(
  api: Pick<ApiClient, 'docTypes' | 'docStatus'>,
  clientId: string,
): Promise<DocCategory[]> {
  const params = { id: clientId };
  const [{ types }, status] = await Promise.all([api.docTypes({ params }), api.docStatus({ params })]);
  return types.map((name) => ({ name, hasFiles: status[name] === true, custom: !isFixedCategory(name) }));
}

const LOADING: ClientDocsState = {
  status: 'loading',
  categories: [],
  client: null,
  error: null,
  adding: null,
  deleting: null,
};

type Edit = Extract<
  ClientDocsEvent,
  { type: 'openAdd' | 'chooseTemplate' | 'changeNote' | 'cancelAdd' | 'reassigned' | 'stored' }
>;

/** What the Add dialog's edits, a reassignment and a stored upload change on the page: nothing the server is asked for. */
function edited(state: ClientDocsState, event: Edit): ClientDocsState {
  // The dialog cannot change while it saves.
  const open = state.adding && !state.adding.saving ? state.adding : null;
  const withAdding = (adding: AddTypeDialog | null) => ({ ...state, adding });
  switch (event.type) {
    case 'openAdd':
      return state.adding ? state : withAdding({ template: null, note: '', saving: false });
    case 'chooseTemplate':
      return open
        ? withAdding({ ...open, template: isCategoryTemplate(event.template) ? event.template : null })
        : state;
    case 'changeNote':
      return open ? withAdding({ ...open, note: event.note }) : state;
    case 'cancelAdd':
      return open ? withAdding(null) : state;
    case 'reassigned':
      return state.client ? { ...state, client: { ...state.client, createdBy: event.email } } : state;
    case 'stored':
      return {
        ...state,
        categories: state.categories.map((c) => (c.name === event.docType ? { ...c, hasFiles: true } : c)),
      };
  }
}

/** Creates the Client Documents page flow. It starts in `loading`: send `refresh`. */
export function createClientDocsFlow({
  api,
  platform,
  clientId,
  actor,
}: ClientDocsFlowOptions): ClientDocsFlow {
  const store = createStore<ClientDocsState>(LOADING);
  let loads = 0;
  /** Categories whose upload landed while the current load was under way (its answer may predate them). */
  let landed = new Set<string>();

  const findClient = () => findClientCard(api, actor, clientId);

  async function refresh(): Promise<void> {
    const load = ++loads;
    const landedSince = (landed = new Set());
    store.setState((s) => ({ ...s, status: 'loading', error: null }));
    const client = store.getState().client ? Promise.resolve(store.getState().client) : findClient();
    try {
      const categories = (await loadCategories(api, clientId)).map((c) =>
        landedSince.has(c.name) ? { ...c, hasFiles: true } : c,
      );
      const found = await client;
      if (load === loads)
        store.setState((s) => ({ ...s, status: 'ready', categories, client: found, error: null }));
    } catch (error) {
      if (load !== loads) return;
      const message = errorMessage(error);
      // Nothing of a client the person may not see stays on screen; the load error is alerted.
      store.setState((s) => ({ ...s, status: 'error', categories: [], client: null, error: message }));
      await platform.alert(message);
    }
  }

  async function confirmAdd(dialog: AddTypeDialog): Promise<void> {
    if (!dialog.template) return;
    store.setState((s) => ({ ...s, adding: { ...dialog, saving: true } }));
    try {
      const note = dialog.note.trim();
      const { template } = dialog;
      await api.addDocType({ params: { id: clientId }, body: note ? { template, note } : { template } });
    } catch (error) {
      store.setState((s) => ({ ...s, adding: { ...dialog, saving: false } }));
      await platform.alert(errorMessage(error));
      return;
    }
    store.setState((s) => ({ ...s, adding: null }));
    await refresh();
  }

  async function deleteType(name: string): Promise<void> {
    store.setState((s) => ({ ...s, deleting: name }));
    const deleted = await deleteCategory(api, platform, clientId, name);
    store.setState((s) => ({ ...s, deleting: null }));
    if (deleted) await refresh();
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      const state = store.getState();
      switch (event.type) {
        case 'refresh':
          return refresh();
        case 'openAdd':
        case 'chooseTemplate':
        case 'changeNote':
        case 'cancelAdd':
        case 'reassigned':
          return store.setState(edited(state, event));
        case 'stored':
          landed.add(event.docType);
          return store.setState(edited(state, event));
        case 'confirmAdd':
          if (canAddType(state)) await confirmAdd(state.adding);
          return;
        case 'deleteType':
          if (state.status === 'ready' && state.deleting === null) await deleteType(event.name);
          return;
      }
    },
  };
}
