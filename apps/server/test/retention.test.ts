// The retention rule with a hand-set clock (docs/behaviour.md#retention): the volunteer is mailed 7
// days ahead, exactly the due clients lose their documents — client, categories and audit trail
// stay — and nothing is deleted sooner than 7 days after its notice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRetention } from '../src/retention.js';
import { samplePdf } from './storage.js';
import { createClient, upload } from './docs-helpers.js';
import { seedPeople, startApp, type TestApp } from './harness.js';

const DAY = 86_400_000;
/** The end of the day a notice names, plus the 12 hours' margin: when deletion may happen. */
const dayStart = (at: number) => at - (at % DAY);
const dueFrom = (earliest: number) => dayStart(earliest) + DAY + 12 * 3_600_000;
const longDate = (at: number) =>
  new Date(at).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });

describe('retention rule', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;

  beforeAll(async () => {
    app = await startApp();
    people = await seedPeople(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  const run = (at: number) => runRetention(app.server.services, new Date(at));
  const files = async (clientId: string) =>
    (
      (await people.volA.get(`/api/docs/list/${clientId}?docType=Banking%20Info`)).body as {
        items: unknown[];
      }
    ).items.length;
  const notices = async () => (await app.outbox()).filter((m) => m.subject.startsWith('Documents for '));
  const submittedClient = async (email: string) => {
    const id = await createClient(people.volA, email);
    await upload(people.volA, id, 'Banking Info', 'statement.pdf', samplePdf(email));
    expect((await people.volA.post(`/api/clients/${id}/submit`)).status).toBe(200);
    return id;
  };

  it('is off until an admin sets it: 7–365 days, admins only', async () => {
    expect((await people.admin.get('/api/admin/retention')).body).toEqual({
      days: null,
      clients: 0,
      nextDeletionOn: null,
    });
    expect(await run(Date.now() + 400 * DAY)).toBeUndefined();
    expect((await people.admin.post('/api/admin/retention', { days: 6 })).body).toEqual({
      error: 'Choose between 7 and 365 days.',
      code: expect.any(String),
    });
    expect((await people.admin.post('/api/admin/retention', { days: 366 })).status).toBe(400);
    expect((await people.volA.post('/api/admin/retention', { days: 30 })).status).toBe(403);
    const on = { days: 30, clients: 0, nextDeletionOn: null };
    expect((await people.admin.post('/api/admin/retention', { days: 30 })).body).toEqual(on);
    expect((await people.admin.get('/api/admin/retention')).body).toEqual(on);
  });

  it('mails the volunteer 7 days ahead, once, then deletes exactly the due clients’ documents', async () => {
    const t0 = Date.now();
    const due = await submittedClient('due@example.org');
    const open = await createClient(people.volA, 'open@example.org'); // never submitted
    await upload(people.volA, open, 'Banking Info', 'open.pdf', samplePdf('open'));

    expect(await run(t0 + 22 * DAY)).toEqual({ noticed: 0, deleted: 0, files: 0 });
    expect(await run(t0 + 23 * DAY + 60_000)).toEqual({ noticed: 1, deleted: 0, files: 0 });
    expect(await run(t0 + 23 * DAY + 120_000)).toEqual({ noticed: 0, deleted: 0, files: 0 });
    const [notice] = await notices();
    // The rule's day (a minute later than submission + 30 days: the notice went a minute late).
    const earliest = t0 + 30 * DAY + 60_000;
    expect(notice).toMatchObject({
      to: 'vola@example.org',
      subject: `Documents for Cli E. will be deleted on ${longDate(earliest)}`,
    });

    // Not before the named day is over (with a margin for US time zones).
    expect(await run(dueFrom(earliest) - 60_000)).toEqual({ noticed: 0, deleted: 0, files: 0 });
    expect(await files(due)).toBe(1);
    expect(await run(dueFrom(earliest) + 60_000)).toEqual({ noticed: 0, deleted: 1, files: 1 });
    expect(await files(due)).toBe(0);
    expect(await files(open)).toBe(1);
    // The client and its categories stay; the audit log says what went.
    expect((await people.volA.get(`/api/clients/${due}/docs/types`)).status).toBe(200);
    const trail = (await people.admin.get(`/api/admin/audit?clientId=${due}&action=client.retention`))
      .body as { items: { keys: string[] }[] };
    expect(trail.items).toHaveLength(1);
    expect(trail.items[0]?.keys[0]).toMatch(/statement\.pdf$/);
    expect(await run(t0 + 40 * DAY)).toMatchObject({ deleted: 0 });

    // A file uploaded after the deletion gets its own notice and its own week.
    await upload(people.volA, due, 'Banking Info', 'amended.pdf', samplePdf('amended'));
    expect(await run(t0 + 41 * DAY)).toEqual({ noticed: 1, deleted: 0, files: 0 });
    expect(await run(t0 + 47 * DAY)).toMatchObject({ deleted: 0 });
    expect(await files(due)).toBe(1);
    expect(await run(dueFrom(t0 + 48 * DAY) + 60_000)).toMatchObject({ deleted: 1 });
  });

  it('a shortened rule still gives 7 days’ notice before anything goes', async () => {
    const t0 = Date.now();
    const late = await submittedClient('late@example.org');
    expect((await people.admin.post('/api/admin/retention', { days: 7 })).status).toBe(200);
    const before = (await notices()).length;
    // 10 days after submission: past the new rule's day, but never told — told now, deleted in 7 days.
    expect(await run(t0 + 10 * DAY)).toMatchObject({ noticed: 1, deleted: 0 });
    expect((await notices()).length).toBe(before + 1);
    expect(await run(t0 + 17 * DAY)).toMatchObject({ deleted: 0 });
    expect(await files(late)).toBe(1);
    expect(await run(dueFrom(t0 + 17 * DAY) + 60_000)).toMatchObject({ deleted: 1 });
    expect(await files(late)).toBe(0);
  });

  it('a changed rule withdraws the notices sent under the old one: nothing goes without a new one', async () => {
    const t0 = Date.now();
    const kept = await submittedClient('changed@example.org');
    expect((await people.admin.post('/api/admin/retention', { days: 7 })).status).toBe(200);
    expect(await run(t0 + 1 * DAY)).toMatchObject({ noticed: 1 });
    // Off, then on again months later: the old notice counts for nothing.
    expect((await people.admin.post('/api/admin/retention', { days: null })).status).toBe(200);
    expect((await people.admin.post('/api/admin/retention', { days: 30 })).status).toBe(200);
    expect(await run(t0 + 200 * DAY)).toMatchObject({ noticed: 1, deleted: 0 });
    expect(await files(kept)).toBe(1);
    expect(await run(dueFrom(t0 + 207 * DAY) + 60_000)).toMatchObject({ deleted: 1 });
  });

  it('a submission can be undone until its documents are deleted; the page and Settings say when that is', async () => {
    const id = await submittedClient('undo@example.org');
    const status = (await people.volA.get(`/api/clients/${id}/submission`)).body;
    const submittedAt = Date.parse(status.submittedAt);
    const deleteOn = new Date(dayStart(submittedAt + 30 * DAY)).toISOString();
    expect(status).toEqual({ submittedAt: status.submittedAt, deleteOn, canUndo: true, retentionDays: 30 });
    expect((await people.volB.get(`/api/clients/${id}/submission`)).status).toBe(403);
    // Settings: the one submitted client with documents, and its day.
    expect((await people.admin.get('/api/admin/retention')).body).toEqual({
      days: 30,
      clients: 1,
      nextDeletionOn: deleteOn,
    });

    expect((await people.volB.del(`/api/clients/${id}/submit`)).status).toBe(403);
    expect((await people.volA.del(`/api/clients/${id}/submit`)).body).toEqual({
      submittedAt: null,
      deleteOn: null,
      canUndo: false,
      retentionDays: 30,
    });
    expect((await people.admin.get('/api/admin/retention')).body).toMatchObject({ clients: 0 });
    expect((await people.volA.del(`/api/clients/${id}/submit`)).body).toEqual({
      error: 'This client is not submitted.',
      code: 'conflict',
    });
    const trail = (await people.admin.get(`/api/admin/audit?clientId=${id}&action=client.unsubmit`)).body;
    expect(trail.items).toHaveLength(1);
    // Nothing is deleted for an undone submission.
    expect(await run(Date.now() + 60 * DAY)).toMatchObject({ deleted: 0 });

    // Submitted again and its documents deleted: no undo any more.
    expect((await people.volA.post(`/api/clients/${id}/submit`)).status).toBe(200);
    await run(Date.now() + 23 * DAY + 60_000);
    expect(await run(Date.now() + 60 * DAY)).toMatchObject({ deleted: 1 });
    expect((await people.volA.get(`/api/clients/${id}/submission`)).body).toMatchObject({
      deleteOn: null,
      canUndo: false,
    });
    expect((await people.volA.del(`/api/clients/${id}/submit`)).body).toEqual({
      error: 'The documents were already deleted under this submission.',
      code: 'conflict',
    });
  });
});
