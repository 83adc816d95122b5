// Recurring work (the sweep, the retention rule) on a database several server processes share: one
// run per interval between them (docs/scaling.md).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { claimRun } from '../src/recurring.js';
import { startApp, type TestApp } from './harness.js';

describe('recurring runs across processes', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  const age = (name: string, seconds: number) =>
    sql`UPDATE recurring_runs SET ran_at = now() - make_interval(secs => ${seconds}) WHERE name = ${name}`.execute(
      app.server.services.db,
    );

  it('gives each interval to one of the processes that ask at once, and the next only once it is due', async () => {
    const { db } = app.server.services;
    const HOUR = 3_600_000;
    await claimRun(db, 'test-job', 0);
    await age('test-job', 3601);
    // Eight timers ticking together (processes on one database): exactly one runs.
    const claims = await Promise.all(Array.from({ length: 8 }, () => claimRun(db, 'test-job', HOUR)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    // Half an interval later nobody runs; a tick a moment early (timers drift) does.
    await age('test-job', 1800);
    expect(await claimRun(db, 'test-job', HOUR)).toBe(false);
    await age('test-job', 3500);
    expect(await claimRun(db, 'test-job', HOUR)).toBe(true);
    expect(await claimRun(db, 'test-job', HOUR)).toBe(false);
  });

  it('runs at every start, and a start counts as the interval’s run for the others', async () => {
    const { db } = app.server.services;
    await age('test-start', 0);
    expect(await claimRun(db, 'test-start', 0)).toBe(true);
    expect(await claimRun(db, 'test-start', 0)).toBe(true);
    expect(await claimRun(db, 'test-start', 60_000)).toBe(false);
  });

  it('keeps the server’s own sweep and retention runs on the record', async () => {
    // The start's claims are made beside the start itself, not before it answers.
    await vi.waitFor(async () => {
      const { rows } = await sql<{ name: string }>`SELECT name FROM recurring_runs`.execute(
        app.server.services.db,
      );
      expect(rows.map((row) => row.name)).toEqual(expect.arrayContaining(['retention', 'sweep']));
    });
  });
});
