// The programme overview (docs/behaviour.md#programme-overview): this season's clients, those with a
// file in every category, documents per day, and per volunteer their clients and missing categories.
import { FIXED_CATEGORIES } from '@vita-docs/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePdf } from './storage.js';
import { createClient, upload } from './docs-helpers.js';
import { seedPeople, startApp, type TestApp } from './harness.js';

describe('programme overview', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;

  beforeAll(async () => {
    app = await startApp();
    people = await seedPeople(app);
    const complete = await createClient(people.volA, 'complete@example.org');
    for (const category of FIXED_CATEGORIES)
      await upload(people.volA, complete, category, 'a.pdf', samplePdf(category));
    const partial = await createClient(people.volA, 'partial@example.org');
    await upload(people.volA, partial, 'Banking Info', 'b.pdf', samplePdf('partial'));
    await upload(people.volA, partial, 'Banking Info', 'c.pdf', samplePdf('partial 2'));
    const empty = await createClient(people.volB, 'empty@example.org');
    expect((await people.volB.post(`/api/clients/${empty}/docs/types`, { template: 'W-2' })).status).toBe(
      200,
    );
  });
  afterAll(async () => {
    await app?.close();
  });

  it('counts complete clients, uploads per day and each volunteer’s missing categories', async () => {
    const res = await people.admin.get('/api/admin/overview');
    expect(res.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.body).toEqual({
      since: `${new Date().getUTCFullYear()}-01-01T00:00:00.000Z`,
      clients: 3,
      complete: 1,
      uploadsPerDay: [{ day: today, count: 7 }],
      volunteers: [
        { email: 'volb@example.org', name: 'Test User', clients: 1, complete: 0, missing: 6 },
        { email: 'vola@example.org', name: 'Test User', clients: 2, complete: 1, missing: 4 },
      ],
    });
    expect((await people.officer.get('/api/admin/overview')).status).toBe(403);
  });
});
