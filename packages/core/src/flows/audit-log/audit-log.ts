import type { ApiClient } from '../../api/client.js';
import { errorMessage, isApiError } from '../../api/errors.js';
import type { AuditEntry, AuditQuery } from '../../api/schemas.js';
import type { AuditAction } from '../../domain/audit.js';
import type { Clock, Dialogs, FileSaver } from '../../ports.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';

/** The audit screen's filters as typed: dates are the person's own days (`YYYY-MM-DD`). */
export interface AuditFilters {
  actor: string;
  /** A client's name or id. */
  client: string;
  action: AuditAction | '';
  from: string;
  to: string;
}

export const NO_FILTERS: AuditFilters = { actor: '', client: '', action: '', from: '', to: '' };

/**
 * The audit screen (docs/behaviour.md#audit-screen): entries newest first, a page at a time by cursor.
 * `signedOut` and `forbidden` come from the server's answer.
 */
export type AuditLogState =
  | { status: 'loading'; filters: AuditFilters }
  | {
      status: 'ready';
      filters: AuditFilters;
      items: readonly AuditEntry[];
      /** The cursor of the next page; null on the last. */
      next: number | null;
      loadingMore: boolean;
      /** A failed "Load more": the entries so far stay. */
      error?: string;
    }
  | { status: 'error'; filters: AuditFilters; error: string }
  | { status: 'signedOut' }
  | { status: 'forbidden' };

export type AuditLogEvent = { type: 'apply'; filters: AuditFilters } | { type: 'more' };

export type AuditLogFlow = Flow<AuditLogState, AuditLogEvent>;

const PAGE = 50;
const EXPORT_PAGE = 1000;

/** Midnight at the start of a local day (`YYYY-MM-DD`), `days` later, as an ISO instant. */
function localMidnight(day: string, days = 0): string {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(year, month - 1, date + days).toISOString();
}

/**
 * The API query of the filters: `to` includes its whole day.
 * @internal Exported for its unit test.
 */
export function auditQuery(
  filters: AuditFilters,
  extra: Pick<AuditQuery, 'before' | 'limit'> = {},
): AuditQuery {
  return {
    ...(filters.actor.trim() ? { actor: filters.actor.trim() } : {}),
    ...(filters.client.trim() ? { client: filters.client.trim() } : {}),
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.from ? { from: localMidnight(filters.from) } : {}),
    ...(filters.to ? { to: localMidnight(filters.to, 1) } : {}),
    ...extra,
  };
}

/** Creates the audit screen's flow; send `apply` to load the first page. */
export function createAuditLogFlow({ api }: { api: Pick<ApiClient, 'audit'> }): AuditLogFlow {
  const store = createStore<AuditLogState>({ status: 'loading', filters: NO_FILTERS });
  // Only the newest request may set the state: a slow first page must not overwrite a newer filter.
  let generation = 0;

  const failed = (error: unknown, filters: AuditFilters): AuditLogState => {
    const status = isApiError(error) ? error.status : 0;
    if (status === 401) return { status: 'signedOut' };
    if (status === 403) return { status: 'forbidden' };
    return { status: 'error', filters, error: errorMessage(error) };
  };

  async function apply(filters: AuditFilters): Promise<void> {
    const mine = ++generation;
    store.setState({ status: 'loading', filters });
    try {
      const { items, next } = await api.audit({ query: auditQuery(filters, { limit: PAGE }) });
      if (mine === generation) store.setState({ status: 'ready', filters, items, next, loadingMore: false });
    } catch (error) {
      if (mine === generation) store.setState(failed(error, filters));
    }
  }

  async function more(): Promise<void> {
    const state = store.getState();
    if (state.status !== 'ready' || state.next === null || state.loadingMore) return;
    const mine = generation;
    store.setState({ ...state, loadingMore: true, error: undefined });
    try {
      const page = await api.audit({ query: auditQuery(state.filters, { limit: PAGE, before: state.next }) });
      if (mine === generation) {
        store.setState({
          ...state,
          items: [...state.items, ...page.items],
          next: page.next,
          loadingMore: false,
        });
      }
    } catch (error) {
      if (mine === generation) store.setState({ ...state, loadingMore: false, error: errorMessage(error) });
    }
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      switch (event.type) {
        case 'apply':
          return apply(event.filters);
        case 'more':
          return more();
      }
    },
  };
}

/**
 * Every entry the filters select, newest first, fetched page by page.
 * @internal Exported for its unit test.
 */
export async function allAuditEntries(
  api: Pick<ApiClient, 'audit'>,
  filters: AuditFilters,
): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let before: number | undefined;
  for (;;) {
    const page = await api.audit({
      query: auditQuery(filters, { limit: EXPORT_PAGE, ...(before === undefined ? {} : { before }) }),
    });
    entries.push(...page.items);
    if (page.next === null) return entries;
    before = page.next;
  }
}

/** Export CSV: idle, or writing the file (the button waits). */
export interface AuditExportState {
  status: 'idle' | 'exporting';
}

/** Saves every entry `filters` select (not only the rows shown) as `audit-log-<YYYY-MM-DD>.csv`. */
export type AuditExportEvent = { type: 'export'; filters: AuditFilters };

export type AuditExportFlow = Flow<AuditExportState, AuditExportEvent>;

export interface AuditExportFlowOptions {
  api: Pick<ApiClient, 'audit'>;
  platform: Pick<Dialogs, 'alert'> & FileSaver;
  clock: Pick<Clock, 'now'>;
  /** Writes the entries as CSV for a spreadsheet (the host's CSV writer). */
  toCsv: (entries: readonly AuditEntry[]) => Promise<string>;
}

/** Creates the audit screen's Export CSV flow; a failure is alerted. */
export function createAuditExportFlow({
  api,
  platform,
  clock,
  toCsv,
}: AuditExportFlowOptions): AuditExportFlow {
  const store = createStore<AuditExportState>({ status: 'idle' });
  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send({ filters }) {
      if (store.getState().status === 'exporting') return;
      store.setState({ status: 'exporting' });
      try {
        const csv = await toCsv(await allAuditEntries(api, filters));
        const day = new Date(clock.now()).toISOString().slice(0, 10);
        await platform.saveFile(`audit-log-${day}.csv`, new Blob([csv], { type: 'text/csv' }));
      } catch (error) {
        await platform.alert(errorMessage(error));
      } finally {
        store.setState({ status: 'idle' });
      }
    },
  };
}
