/**
 * The programme overview on the admin's dashboard (docs/behaviour.md#programme-overview), loaded on
 * its own: clients this season, complete ones, uploads per day, and per volunteer their clients and
 * missing categories.
 */
import type { ApiClient } from '../../api/client.js';
import { errorMessage } from '../../api/errors.js';
import type { ProgrammeOverview } from '../../api/schemas.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';

export type OverviewState =
  | { status: 'loading' }
  | { status: 'ready'; overview: ProgrammeOverview }
  | { status: 'error'; error: string };

export type OverviewEvent = { type: 'load' };

export type OverviewFlow = Flow<OverviewState, OverviewEvent>;

/** The days the chart shows. */
const DAYS = 30;
const DAY_MS = 86_400_000;

/** The last 30 days (UTC, oldest first, ending on `now`'s day) with their counts, days without uploads as 0. */
export function lastThirtyDays(
  perDay: ProgrammeOverview['uploadsPerDay'],
  now: number,
): { day: string; count: number }[] {
  const counts = new Map(perDay.map((d) => [d.day, d.count]));
  return Array.from({ length: DAYS }, (_, i) => {
    const day = new Date(now - (DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10);
    return { day, count: counts.get(day) ?? 0 };
  });
}

/** Creates the overview's flow. It starts in `loading`: send `load`. */
export function createOverviewFlow({ api }: { api: Pick<ApiClient, 'overview'> }): OverviewFlow {
  const store = createStore<OverviewState>({ status: 'loading' });
  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send() {
      try {
        store.setState({ status: 'ready', overview: await api.overview() });
      } catch (error) {
        store.setState({ status: 'error', error: errorMessage(error) });
      }
    },
  };
}
