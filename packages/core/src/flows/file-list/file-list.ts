/**
 * The "Uploaded" list of the category screen (docs/behaviour.md#file-list): sorted by the numeric
 * prefix of the key, selection cleared on each refresh, Select All / Clear Selection, and deletes
 * after confirm.
 */
import type { ApiClient } from '../../api/client.js';
import { errorMessage } from '../../api/errors.js';
import type { DocItem } from '../../api/schemas.js';
import type { UploadTarget } from '../../api/upload.js';
import { keyOrder } from '../../domain/files.js';
import { deleteFailedMessage, deleteSelectedConfirm, messages } from '../../domain/messages.js';
import type { Dialogs } from '../../ports.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';
import type { RenamedFile } from '../rename/rename.js';

/** The list; `selected` holds keys in list order. */
export interface FileListState {
  status: 'loading' | 'ready' | 'deleting' | 'error';
  items: readonly DocItem[];
  selected: readonly string[];
  /** The last load failure, when `status` is `error`. */
  error: string | null;
}

/** What the user does. */
export type FileListEvent =
  | { type: 'refresh' }
  | { type: 'toggle'; key: string }
  | { type: 'selectAll' }
  | { type: 'clearSelection' }
  | { type: 'deleteSelected' }
  | { type: 'deleteFile'; key: string }
  | ({ type: 'renamed' } & RenamedFile);

/** The ports of {@link createFileListFlow}. */
export interface FileListFlowOptions {
  api: Pick<ApiClient, 'listDocs' | 'deleteDocs'>;
  platform: Dialogs;
  target: UploadTarget;
}

/** The file list flow. */
export type FileListFlow = Flow<FileListState, FileListEvent>;

/** Ascending by the numeric prefix of the key's file name; ties keep a stable order. */
export function sortByKeyOrder(items: readonly DocItem[]): DocItem[] {
  return [...items].sort(
    (a, b) => keyOrder(a.key) - keyOrder(b.key) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
}

/** True when every file is selected (the header button then reads Clear Selection). */
export function allSelected(state: FileListState): boolean {
  return state.items.length > 0 && state.selected.length === state.items.length;
}

/** Creates the file list flow. It starts empty in `loading`: send `refresh` to load. */
export function createFileListFlow({ api, platform, target }: FileListFlowOptions): FileListFlow {
  const store = createStore<FileListState>({ status: 'loading', items: [], selected: [], error: null });
  let loads = 0;

  async function refresh(): Promise<void> {
    const load = ++loads;
    store.setState((s) => ({ ...s, status: 'loading', selected: [], error: null }));
    try {
      const { items } = await api.listDocs({
        params: { id: target.clientId },
        query: { docType: target.docType },
      });
      // A slower, older load must not overwrite a newer one.
      if (load === loads)
        store.setState({ status: 'ready', items: sortByKeyOrder(items), selected: [], error: null });
    } catch (error) {
      if (load !== loads) return;
      const message = errorMessage(error);
      store.setState((s) => ({ ...s, status: 'error', selected: [], error: message }));
      await platform.alert(message);
    }
  }

  async function remove(keys: readonly string[], question: string): Promise<void> {
    if (!keys.length || !(await platform.confirm(question))) return;
    store.setState((s) => ({ ...s, status: 'deleting' }));
    try {
      await api.deleteDocs({ body: { keys: [...keys] } });
    } catch (error) {
      await platform.alert(deleteFailedMessage(errorMessage(error)));
    }
    await refresh();
  }

  function select(selected: (s: FileListState) => readonly string[]): void {
    store.setState((s) => ({ ...s, selected: selected(s) }));
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      const state = store.getState();
      switch (event.type) {
        case 'refresh':
          return refresh();
        case 'toggle':
          return select((s) =>
            s.selected.includes(event.key)
              ? s.selected.filter((k) => k !== event.key)
              : s.items.filter((i) => i.key === event.key || s.selected.includes(i.key)).map((i) => i.key),
          );
        case 'selectAll':
          return select((s) => s.items.map((i) => i.key));
        case 'clearSelection':
          return select(() => []);
        case 'deleteSelected':
          if (state.status === 'ready')
            await remove(state.selected, deleteSelectedConfirm(state.selected.length));
          return;
        case 'deleteFile':
          if (state.status === 'ready') await remove([event.key], messages.deleteFileConfirm);
          return;
        case 'renamed':
          return store.setState((s) => ({
            ...s,
            items: s.items.map((i) =>
              i.key === event.oldKey ? { ...i, key: event.newKey, filename: event.filename } : i,
            ),
            selected: s.selected.map((k) => (k === event.oldKey ? event.newKey : k)),
          }));
      }
    },
  };
}
