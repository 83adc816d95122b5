/**
 * The Rename Document dialog (docs/behaviour.md#rename): trimmed; empty is refused; unchanged just closes;
 * the original extension is kept; on success the list entry is updated in place.
 */
import type { ApiClient } from '../../api/client.js';
import { errorMessage } from '../../api/errors.js';
import type { DocItem } from '../../api/schemas.js';
import { applyRenameRule } from '../../domain/files.js';
import { messages } from '../../domain/messages.js';
import type { Dialogs } from '../../ports.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';

/** A finished rename, handed to the file list so the entry and its selection follow the new key. */
export interface RenamedFile {
  oldKey: string;
  newKey: string;
  filename: string;
}

/** The dialog: closed, open with the typed `value`, or saving. */
export type RenameState =
  | { status: 'closed' }
  | { status: 'editing'; item: DocItem; value: string }
  | { status: 'saving'; item: DocItem; value: string; filename: string };

/** What the user does. */
export type RenameEvent =
  { type: 'open'; item: DocItem } | { type: 'change'; value: string } | { type: 'save' } | { type: 'cancel' };

/** The ports of {@link createRenameFlow}. */
export interface RenameFlowOptions {
  api: Pick<ApiClient, 'renameDoc'>;
  platform: Pick<Dialogs, 'alert'>;
  /** Usually `(change) => fileList.send({ type: 'renamed', ...change })`. */
  onRenamed: (change: RenamedFile) => unknown;
}

/** The rename dialog flow. */
export type RenameFlow = Flow<RenameState, RenameEvent>;

/** Creates the rename dialog flow. */
export function createRenameFlow({ api, platform, onRenamed }: RenameFlowOptions): RenameFlow {
  const store = createStore<RenameState>({ status: 'closed' });

  async function save(item: DocItem, value: string): Promise<void> {
    const filename = applyRenameRule(item.filename, value);
    if (filename === null) return platform.alert(messages.renameEmpty);
    if (filename === item.filename) return store.setState({ status: 'closed' });
    store.setState({ status: 'saving', item, value, filename });
    try {
      const result = await api.renameDoc({ body: { key: item.key, filename } });
      await onRenamed({ oldKey: item.key, newKey: result.newKey, filename: result.filename });
      store.setState({ status: 'closed' });
    } catch (error) {
      store.setState({ status: 'editing', item, value });
      await platform.alert(messages.renameFailedPrefix + errorMessage(error));
    }
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      const state = store.getState();
      if (event.type === 'open' && state.status !== 'saving') {
        store.setState({ status: 'editing', item: event.item, value: event.item.filename });
      } else if (state.status === 'editing') {
        if (event.type === 'change') store.setState({ ...state, value: event.value });
        if (event.type === 'cancel') store.setState({ status: 'closed' });
        if (event.type === 'save') await save(state.item, state.value);
      }
    },
  };
}
