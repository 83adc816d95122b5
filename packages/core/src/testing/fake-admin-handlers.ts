/** The fake server's admin settings: the retention rule, the season close and the programme overview. */
import type { EndpointArgs } from '../api/client.js';
import type { Endpoints } from '../api/endpoints.js';
import type { ProgrammeOverview, SeasonSummary } from '../api/schemas.js';
import { FIXED_CATEGORIES } from '../domain/categories.js';
import { RETENTION_MAX_DAYS, RETENTION_MIN_DAYS } from '../domain/constants.js';
import { fullName } from '../domain/format.js';
import { seasonClosePhrase } from '../domain/messages.js';
import type { FakeWorld } from './fake-api.js';
import { fail } from './fake-handlers.js';

type AdminCalls = 'getRetention' | 'setRetention' | 'seasonSummary' | 'closeSeason' | 'overview';
type Handlers = { [K in AdminCalls]: (args: EndpointArgs<Endpoints[K]>) => unknown };

/** What the close of the season would do now, or did. */
function summary(world: FakeWorld): SeasonSummary {
  if (world.season.closed) return world.season.closed;
  const users = [...world.users.values()].filter(({ user }) => !user.isAdmin && user.approved).length;
  const clients = new Set([...world.docs.values()].map((d) => d.item.key.split('/')[0])).size;
  return { year: world.season.year, users, clients, documents: world.docs.size, closedAt: null };
}

/** How many of the five fixed categories of a client have no file (the fake keeps no custom ones). */
function missing(world: FakeWorld, clientId: string): number {
  const held = new Set(
    [...world.docs.values()].filter((d) => d.item.key.startsWith(`${clientId}/`)).map((d) => d.item.docType),
  );
  return FIXED_CATEGORIES.filter((category) => !held.has(category)).length;
}

/** Per volunteer (null: clients without one) their clients, complete clients and missing categories, most missing first. */
function perVolunteer(world: FakeWorld): ProgrammeOverview['volunteers'] {
  const rows = new Map<string | null, ProgrammeOverview['volunteers'][number]>();
  for (const client of world.clients.values()) {
    const owner = world.users.get(client.createdBy ?? '')?.user ?? null;
    const email = owner?.email ?? null;
    const row = rows.get(email) ?? {
      email,
      name: owner ? fullName(owner) : null,
      clients: 0,
      complete: 0,
      missing: 0,
    };
    const gaps = missing(world, client.clientId);
    rows.set(email, {
      ...row,
      clients: row.clients + 1,
      complete: row.complete + (gaps ? 0 : 1),
      missing: row.missing + gaps,
    });
  }
  return [...rows.values()].sort((a, b) => b.missing - a.missing);
}

function overview(world: FakeWorld): ProgrammeOverview {
  const perDay = new Map<string, number>();
  for (const { item } of world.docs.values()) {
    const day = item.lastModified.slice(0, 10);
    perDay.set(day, (perDay.get(day) ?? 0) + 1);
  }
  const volunteers = perVolunteer(world);
  return {
    since: `${world.season.year}-01-01T00:00:00.000Z`,
    clients: world.clients.size,
    complete: volunteers.reduce((sum, v) => sum + v.complete, 0),
    uploadsPerDay: [...perDay]
      .map(([day, count]) => ({ day, count }))
      .sort((a, b) => a.day.localeCompare(b.day)),
    volunteers,
  };
}

/** Suspends every non-admin account (approved again next season) and deletes every document. */
function closeSeason(world: FakeWorld, confirm: string): SeasonSummary {
  const phrase = seasonClosePhrase(world.season.year);
  if (confirm !== phrase) throw fail(400, `Type ${phrase} to confirm.`);
  if (world.season.closed) return world.season.closed;
  const closed: SeasonSummary = { ...summary(world), closedAt: new Date().toISOString() };
  for (const [email, account] of world.users) {
    if (!account.user.isAdmin)
      world.users.set(email, { ...account, user: { ...account.user, approved: false } });
  }
  world.docs.clear();
  world.season.closed = closed;
  return closed;
}

/** The handlers over one world. */
export function fakeAdminHandlers(world: FakeWorld): Handlers {
  return {
    getRetention: () => ({ days: world.retentionDays, ...world.retentionReach }),
    setRetention({ body }) {
      const { days } = body;
      if (
        days !== null &&
        (!Number.isInteger(days) || days < RETENTION_MIN_DAYS || days > RETENTION_MAX_DAYS)
      ) {
        throw fail(400, `Choose between ${RETENTION_MIN_DAYS} and ${RETENTION_MAX_DAYS} days.`);
      }
      world.retentionDays = days;
      return { days, ...world.retentionReach };
    },
    seasonSummary: () => summary(world),
    closeSeason: ({ body }) => closeSeason(world, body.confirm),
    overview: () => overview(world),
  };
}
