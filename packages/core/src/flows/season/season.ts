/**
 * Season close (docs/behaviour.md#season-close): what closing the season does (or did), every
 * client's ZIP to download first, and the close itself once the admin typed the phrase.
 */
import type { ApiClient } from '../../api/client.js';
import { errorMessage } from '../../api/errors.js';
import type { Client, SeasonSummary } from '../../api/schemas.js';
import { zipFileName } from '../../domain/constants.js';
import { seasonClosePhrase } from '../../domain/messages.js';
import type { Dialogs, FileSaver } from '../../ports.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';

export type SeasonState =
  | { status: 'loading' }
  /** The summary could not be loaded: nothing to show but the error. */
  | { status: 'error'; error: string }
  | {
      status: 'ready';
      /** What the close will do, or — once `closedAt` is set — what it did. */
      summary: SeasonSummary;
      clients: readonly Client[];
      /** The confirmation as typed. */
      typed: string;
      closing: boolean;
      /** The client whose ZIP is being downloaded (one at a time). */
      downloading: string | null;
      /** Why the last close failed. */
      error: string | null;
    };

export type SeasonEvent =
  | { type: 'load' }
  | { type: 'type'; text: string }
  /** Closes the season; only with the phrase typed exactly. */
  | { type: 'close' }
  /** Saves the client's whole Download All archive. */
  | { type: 'download'; clientId: string };

export type SeasonFlow = Flow<SeasonState, SeasonEvent>;

export interface SeasonFlowOptions {
  api: Pick<ApiClient, 'seasonSummary' | 'listAllClients' | 'closeSeason' | 'downloadAll'>;
  platform: Pick<Dialogs, 'alert'> & FileSaver;
}

type Ready = Extract<SeasonState, { status: 'ready' }>;

/** `Close season` is enabled: the phrase of the season's year is typed exactly and no close runs. */
export function canCloseSeason(state: SeasonState): boolean {
  return state.status === 'ready' && !state.closing && state.typed === seasonClosePhrase(state.summary.year);
}

/** Creates the season close flow. It starts in `loading`: send `load`. */
export function createSeasonFlow({ api, platform }: SeasonFlowOptions): SeasonFlow {
  const store = createStore<SeasonState>({ status: 'loading' });
  const update = (patch: Partial<Ready>) =>
    store.setState((s) => (s.status === 'ready' ? { ...s, ...patch } : s));

  async function load(): Promise<void> {
    try {
      const [summary, { items }] = await Promise.all([api.seasonSummary(), api.listAllClients()]);
      store.setState({
        status: 'ready',
        summary,
        clients: items,
        typed: '',
        closing: false,
        downloading: null,
        error: null,
      });
    } catch (error) {
      store.setState({ status: 'error', error: errorMessage(error) });
    }
  }

  async function close(state: Ready): Promise<void> {
    update({ closing: true, error: null });
    try {
      update({ summary: await api.closeSeason({ body: { confirm: state.typed } }), closing: false });
    } catch (error) {
      update({ error: errorMessage(error), closing: false });
    }
  }

  async function download(clientId: string): Promise<void> {
    update({ downloading: clientId });
    try {
      const response = await api.downloadAll({ params: { id: clientId } });
      await platform.saveFile(zipFileName(clientId), await response.blob());
    } catch (error) {
      await platform.alert(errorMessage(error));
    } finally {
      update({ downloading: null });
    }
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      const state = store.getState();
      switch (event.type) {
        case 'load':
          return load();
        case 'type':
          return update({ typed: event.text });
        case 'close':
          if (state.status === 'ready' && canCloseSeason(state)) await close(state);
          return;
        case 'download':
          if (state.status === 'ready' && state.downloading === null) await download(event.clientId);
          return;
      }
    },
  };
}
