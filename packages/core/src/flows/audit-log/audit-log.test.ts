import { describe, expect, it } from 'vitest';
import { createRecordingDialogs, createTestAuditEntry } from '../../testing/index.js';
import type { ApiClient } from '../../api/client.js';
import type { AuditEntry, AuditQuery } from '../../api/schemas.js';
import {
  allAuditEntries,
  auditQuery,
  createAuditExportFlow,
  createAuditLogFlow,
  NO_FILTERS,
} from './audit-log.js';

/** A server of `count` entries (ids count…1) paging as the real one: newest first, `before` exclusive. */
function fakeAudit(count: number) {
  const queries: AuditQuery[] = [];
  const all = Array.from({ length: count }, (_, i) => createTestAuditEntry(count - i));
  return {
    queries,
    api: {
      audit: (async ({ query = {} } = {}) => {
        queries.push(query);
        const limit = Number(query.limit ?? 100);
        const after = all.filter((e) => query.before === undefined || e.id < Number(query.before));
        const items = after.slice(0, limit);
        return { items, next: after.length > limit ? (items.at(-1)?.id ?? null) : null };
      }) satisfies ApiClient['audit'],
    },
  };
}

describe('audit screen', () => {
  it('asks for whole local days: from its midnight, to the midnight after the last day', () => {
    const query = auditQuery({
      ...NO_FILTERS,
      actor: ' Vera@Example.org ',
      from: '2026-11-01',
      to: '2026-11-02',
      action: 'doc.view',
    });
    expect(query).toEqual({
      actor: 'Vera@Example.org',
      action: 'doc.view',
      from: new Date(2026, 10, 1).toISOString(),
      to: new Date(2026, 10, 3).toISOString(),
    });
    expect(auditQuery(NO_FILTERS)).toEqual({});
  });

  it('loads a page, then the next one by cursor, keeping what it has', async () => {
    const { api, queries } = fakeAudit(120);
    const flow = createAuditLogFlow({ api });
    await flow.send({ type: 'apply', filters: NO_FILTERS });
    await flow.send({ type: 'more' });
    await flow.send({ type: 'more' });
    const state = flow.getState();
    expect(state.status === 'ready' && state.items.map((e) => e.id)).toEqual(
      Array.from({ length: 120 }, (_, i) => 120 - i),
    );
    expect(state.status === 'ready' && state.next).toBeNull();
    expect(queries.map((q) => q.before)).toEqual([undefined, 71, 21]);
  });

  it('exports every entry the filters select, page by page', async () => {
    const { api, queries } = fakeAudit(2500);
    expect(await allAuditEntries(api, NO_FILTERS)).toHaveLength(2500);
    expect(queries).toHaveLength(3);
  });

  it('Export CSV saves every selected entry as audit-log-<day>.csv, once at a time; a failure is alerted', async () => {
    const { api, queries } = fakeAudit(3);
    const saved: { name: string; text: string }[] = [];
    const platform = {
      ...createRecordingDialogs(),
      saveFile: async (name: string, data: Blob) => void saved.push({ name, text: await data.text() }),
    };
    const clock = { now: () => Date.UTC(2026, 10, 25, 12) };
    const toCsv = async (entries: readonly AuditEntry[]) => entries.map((e) => e.id).join(',');
    const flow = createAuditExportFlow({ api, platform, clock, toCsv });
    const exporting = flow.send({ type: 'export', filters: { ...NO_FILTERS, actor: 'vera@example.org' } });
    expect(flow.getState().status).toBe('exporting');
    void flow.send({ type: 'export', filters: NO_FILTERS }); // a second press while it runs does nothing
    await exporting;
    expect(saved).toEqual([{ name: 'audit-log-2026-11-25.csv', text: '3,2,1' }]);
    expect(queries).toEqual([{ actor: 'vera@example.org', limit: 1000 }]);
    expect(flow.getState().status).toBe('idle');

    const failing = createAuditExportFlow({
      api,
      platform,
      clock,
      toCsv: async () => Promise.reject(new Error('No space left')),
    });
    await failing.send({ type: 'export', filters: NO_FILTERS });
    expect(platform.alerts).toEqual(['No space left']);
  });
});
