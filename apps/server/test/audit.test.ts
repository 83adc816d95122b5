// The audit log as the admin's audit screen reads it (docs/behaviour.md#audit-log): uploads recorded
// as their uploader, filters by who, client, action and time, newest first, pages by cursor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePdf } from './storage.js';
import { createClient, upload } from './docs-helpers.js';
import { seedPeople, startApp, type TestApp } from './harness.js';

interface Entry {
  id: number;
  at: string;
  actor: string | null;
  action: string;
  clientId: string | null;
  clientName: string | null;
  keys: string[];
}

describe('audit log', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  let clientA: string;
  let clientB: string;
  const keys: string[] = [];

  beforeAll(async () => {
    app = await startApp();
    people = await seedPeople(app);
    clientA = await createClient(people.volA, 'audit-a@example.org');
    clientB = await createClient(people.volB, 'audit-b@example.org');
    for (let i = 0; i < 5; i++)
      keys.push(await upload(people.volA, clientA, 'Banking Info', `a-${i}.pdf`, samplePdf(`a ${i}`)));
    keys.push(await upload(people.volB, clientB, '13614-C', 'b.pdf', samplePdf('b')));
    await people.volA.post('/api/docs/presign-view', { key: keys[0] });
  });
  afterAll(async () => {
    await app?.close();
  });

  const audit = async (query: string) => {
    const res = await people.admin.get(`/api/admin/audit?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { items: Entry[]; next: number | null };
  };

  it('records each stored upload as its uploader, with the client and key', async () => {
    const { items } = await audit(`action=doc.upload&clientId=${clientA}`);
    expect(items.map((e) => [e.actor, e.clientId, e.keys])).toEqual(
      keys
        .slice(0, 5)
        .reverse()
        .map((key) => ['vola@example.org', clientA, [key]]),
    );
  });

  it('filters by who, by action and by client, newest first', async () => {
    const byB = await audit('actor=VOLB@example.org');
    expect(byB.items.map((e) => e.action)).toEqual(['doc.upload', 'client.create']);
    const views = await audit('action=doc.view');
    expect(views.items).toEqual([expect.objectContaining({ actor: 'vola@example.org', keys: [keys[0]] })]);
    const onB = await audit(`clientId=${clientB}`);
    expect(onB.items.every((e) => e.clientId === clientB)).toBe(true);
    const ids = (await audit('limit=1000')).items.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
  });

  it('finds a client by id or by name, without regard to case or accents, and names it beside its id', async () => {
    const ada = (
      await people.volA.post('/api/clients/new', {
        firstName: 'Adá',
        lastName: 'Lovelace',
        email: 'ada-search@example.org',
        phone: '(734) 555-0100',
      })
    ).body.client.clientId as string;
    for (const text of ['Ada Lovelace', 'ada lovelace', 'Adá', 'LOVELACE', ada]) {
      const { items } = await audit(`client=${encodeURIComponent(text)}`);
      expect(items.map((e) => [e.action, e.clientId, e.clientName])).toEqual([
        ['client.create', ada, 'Adá Lovelace'],
      ]);
    }
    expect((await audit('client=Grace%20Hopper')).items).toEqual([]);
    expect((await audit(`clientId=${clientA}`)).items[0]?.clientName).toBe('Cli Ent');
  });

  it('filters by time: from inclusive, to exclusive', async () => {
    const all = (await audit('limit=1000')).items;
    const newest = all[0]!;
    const exactly = await audit(`from=${encodeURIComponent(newest.at)}`);
    expect(exactly.items.map((e) => e.id)).toContain(newest.id);
    const before = await audit(`to=${encodeURIComponent(newest.at)}`);
    expect(before.items.map((e) => e.id)).not.toContain(newest.id);
    const future = await audit(`from=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`);
    expect(future).toEqual({ items: [], next: null });
  });

  it('pages with a cursor: every entry once, in order, even when entries are added between pages', async () => {
    const all = (await audit('limit=1000')).items.map((e) => e.id);
    const seen: number[] = [];
    let page = await audit('limit=4');
    seen.push(...page.items.map((e) => e.id));
    // A new entry now would shift an offset-based second page by one.
    await people.volA.post('/api/docs/presign-view', { key: keys[1] });
    while (page.next !== null) {
      page = await audit(`limit=4&before=${page.next}`);
      seen.push(...page.items.map((e) => e.id));
    }
    expect(seen).toEqual(all);
  });

  it('refuses filters it cannot read with their reason', async () => {
    const refused = async (query: string) =>
      (await people.admin.get(`/api/admin/audit?${query}`)).body as unknown;
    expect(await refused('action=doc.steal')).toEqual({ error: 'Unknown action.', code: expect.any(String) });
    expect(await refused('from=yesterday')).toEqual({
      error: 'from must be a date and time (ISO 8601).',
      code: expect.any(String),
    });
    expect(await refused('before=0')).toEqual({
      error: 'before must be at least 1.',
      code: expect.any(String),
    });
    expect((await people.volA.get('/api/admin/audit')).status).toBe(403);
  });
});
