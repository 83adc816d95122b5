/** A list whose deletes show at once and are undone by a reload when the server refuses. */
import { errorMessage } from '../../api/errors.js';
import { deleteFailedMessage } from '../../domain/messages.js';
import type { Dialogs } from '../../ports.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';

/** The list. `error` is the last load failure. */
export interface OptimisticListState<T> {
  status: 'loading' | 'ready' | 'error';
  items: readonly T[];
  error: string | null;
}

/** Reload, or delete the item with this id (after the screen's own confirm modal). */
export type OptimisticListEvent = { type: 'reload' } | { type: 'delete'; id: string };

/** What a concrete list provides. */
export interface OptimisticListOptions<T> {
  load: () => Promise<readonly T[]>;
  remove: (item: T) => Promise<unknown>;
  idOf: (item: T) => string;
  platform: Pick<Dialogs, 'alert'>;
}

/** A list flow with optimistic delete. */
export type OptimisticListFlow<T> = Flow<OptimisticListState<T>, OptimisticListEvent>;

/** Creates a list flow with optimistic delete. It starts in `loading`: send `reload` to load. */
export function createOptimisticList<T>({
  load,
  remove,
  idOf,
  platform,
}: OptimisticListOptions<T>): OptimisticListFlow<T> {
  const store = createStore<OptimisticListState<T>>({ status: 'loading', items: [], error: null });
  let loads = 0;
  // Ids deleted here, while the server is still deleting them and after: a reload (Refresh, another
  // section's change) may read the list before the delete is done, and must not bring the item back.
  // Only a refused delete takes its id out again.
  const deleted = new Set<string>();
  const shown = (items: readonly T[]) => items.filter((i) => !deleted.has(idOf(i)));

  async function reload(): Promise<void> {
    const current = ++loads;
    store.setState((s) => ({ ...s, status: 'loading', error: null }));
    try {
      const items = await load();
      if (current === loads) store.setState({ status: 'ready', items: shown(items), error: null });
    } catch (error) {
      if (current !== loads) return;
      const message = errorMessage(error);
      store.setState((s) => ({ ...s, status: 'error', error: message }));
      await platform.alert(message);
    }
  }

  async function deleteItem(id: string): Promise<void> {
    const item = store.getState().items.find((i) => idOf(i) === id);
    if (!item) return;
    deleted.add(id);
    store.setState((s) => ({ ...s, items: shown(s.items) }));
    try {
      await remove(item);
    } catch (error) {
      deleted.delete(id);
      await platform.alert(deleteFailedMessage(errorMessage(error)));
      await reload();
    }
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      if (event.type === 'reload') return reload();
      if (event.type === 'delete') return deleteItem(event.id);
    },
  };
}
