/** The fake server's admin settings: the retention rule, the season close and the programme overview. */
import type { EndpointArgs } from '../api/client.js';
import type { Endpoints } from '../api/endpoints.js';
import { ApiError } from '../api/errors.js';
import type { ProgrammeOverview, SeasonSummary } from '../api/schemas.js';
import { FIXED_CATEGORIES } from '../domain/categories.js';
import { RETENTION_MAX_DAYS, RETENTION_MIN_DAYS } from '../domain/constants.js';
import { fullName } from '../domain/format.js';
import { seasonClosePhrase } from '../domain/messages.js';
import type { FakeWorld } from './fake-api.js';

type AdminCalls = 'getRetention' | 'setRetention' | 'seasonSummary' | 'closeSeason' | 'overview';
type Handlers = { [K in AdminCalls]: (args: EndpointArgs<Endpoints[K]>) => unknown };

const fail = (status: number, message: string) => new ApiError('http', status, message);

/** The handlers over one world. */
export function fakeAdminHandlers(world: FakeWorld): Handlers {
  const clientsWithDocs = () => new Set([...world.docs.values()].map((d) => d.item.key.split('/')[0]));

  function summary(): SeasonSummary {
    if (world.season.closed) return world.season.closed;
    const users = [...world.users.values()].filter(({ user }) => !user.isAdmin && user.approved).length;
    return { year: world.season.year, users, clients: clientsWithDocs().size, documents: world.docs.size, closedAt: null };
  }

  /** Per client, how many of the five fixed categories have no file (the fake keeps no custom ones). */
  function missing(clientId: string): number {
    const held = new Set([...world.docs.values()].filter((d) => d.item.key.startsWith(`${clientId}/`)).map((d) => d.item.docType));
    return FIXED_CATEGORIES.filter((category) => !held.has(category)).length;
  }

  function overview(): ProgrammeOverview {
    const volunteers = new Map<string | null, ProgrammeOverview['volunteers'][number]>();
    let complete = 0;
    for (const client of world.clients.values()) {
      const owner = world.users.get(client.createdBy ?? '')?.user ?? null;
      const row = volunteers.get(owner?.email ?? null) ?? {
        email: owner?.email ?? null,
        name: owner ? fullName(owner) : null,
        clients: 0,
        complete: 0,
        missing: 0,
      };
      const gaps = missing(client.clientId);
      if (gaps === 0) complete += 1;
      volunteers.set(row.email, { ...row, clients: row.clients + 1, complete: row.complete + (gaps ? 0 : 1), missing: row.missing + gaps });
    }
    const perDay = new Map<string, number>();
    for (const { item } of world.docs.values()) {
      const day = item.lastModified.slice(0, 10);
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
    }
    return {
      since: `${world.season.year}-01-01T00:00:00.000Z`,
      clients: world.clients.size,
      complete,
      uploadsPerDay: [...perDay].map(([day, count]) => ({ day, count })).sort((a, b) => a.day.localeCompare(b.day)),
      volunteers: [...volunteers.values()].sort((a, b) => b.missing - a.missing),
    };
  }

  return {
    getRetention: () => ({ days: world.retentionDays }),
    setRetention({ body }) {
      const { days } = body;
      if (days !== null && (!Number.isInteger(days) || days < RETENTION_MIN_DAYS || days > RETENTION_MAX_DAYS)) {
        throw fail(400, `Choose between ${RETENTION_MIN_DAYS} and ${RETENTION_MAX_DAYS} days.`);
      }
      world.retentionDays = days;
      return { days };
    },
    seasonSummary: () => summary(),
    closeSeason({ body }) {
      const phrase = seasonClosePhrase(world.season.year);
      if (body.confirm !== phrase) throw fail(400, `Type ${phrase} to confirm.`);
      if (world.season.closed) return world.season.closed;
      const closed: SeasonSummary = { ...summary(), closedAt: new Date().toISOString() };
      // Every non-admin account is suspended (approved again next season); every document goes.
      for (const [email, account] of world.users) {
        if (!account.user.isAdmin) world.users.set(email, { ...account, user: { ...account.user, approved: false } });
      }
      world.docs.clear();
      world.season.closed = closed;
      return closed;
    },
    overview: () => overview(),
  };
}
