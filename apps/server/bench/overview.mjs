// The programme overview's queries on a seeded season (docs/behaviour.md#programme-overview): 50
// volunteers, 5 000 clients (a tenth with a custom category; a fifth without any file), 100 000 stored
// documents spread over the last 60 days. Each query timed alone, median of 7 after a warm-up, against the goal of 50 ms;
// the whole overview (the queries in parallel) too. Prints; asserts nothing.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../dist/db/database.js';
import { startEmbeddedPostgres } from '../dist/db/embedded/cluster.js';
import { programmeOverview, seasonStart, uploadsPerDay, volunteerTotals } from '../dist/overview.js';

const RUNS = 7;
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const quiet = { info: () => undefined, warn: (m) => console.warn(m), error: (o, m) => console.error(m, o) };

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'vita-overview-'));
const embedded = await startEmbeddedPostgres({ dataDir, log: quiet, durable: false });
const db = await openDatabase(embedded.connection());
try {
  const seedStart = performance.now();
  await sql`insert into users (email, first_name, last_name, pin_hash, approved)
    select 'vol' || i || '@example.org', 'Vol', 'Unteer ' || i, 'x', true from generate_series(1, 50) i`.execute(
    db,
  );
  await sql`insert into clients (id, first_name, last_name, email, phone, created_by, created_at)
    select 'Client' || lpad(i::text, 6, '0'), 'Client', 'No ' || i, 'c' || i || '@example.org', '555-0100',
           'vol' || (1 + i % 50) || '@example.org', date_trunc('year', now()) + (i % 300) * interval '1 day'
    from generate_series(1, 5000) i`.execute(db);
  await sql`insert into client_doc_types (client_id, name)
    select 'Client' || lpad(i::text, 6, '0'), 'W-2' from generate_series(1, 5000, 10) i`.execute(db);
  await sql`insert into documents (key, client_id, doc_type, ord, filename, state, content_type, max_bytes,
                                   size, sha256, crc32, uploaded_by, expires_at, stored_at)
    select 'Client' || lpad((1 + i % 4000)::text, 6, '0') || '/t/' || i || '_f.pdf',
           'Client' || lpad((1 + i % 4000)::text, 6, '0'),
           case when i % 4000 % 10 = 0 and i % 3 = 0 then 'W-2'
                else (array['13614-C', 'Michigan/Locality Intake', 'License/Other Identification', 'Digital Consent Form', 'Banking Info'])[1 + (i / 4000 + i % 7) % 5] end,
           i, 'f.pdf', 'stored', 'application/pdf', 26214400, 1000, md5(i::text), i, 'vol1@example.org', now(),
           now() - ((i * 7919) % (60 * 24)) * interval '1 hour'
    from generate_series(1, 100000) i`.execute(db);
  // As a running database is after autovacuum: statistics and the visibility map (index-only scans).
  await sql`vacuum analyze`.execute(db);
  const seeded = performance.now() - seedStart;

  const timed = async (work) => {
    await work();
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      await work();
      times.push(performance.now() - start);
    }
    return median(times);
  };
  const now = new Date();
  const whole = await timed(() => programmeOverview(db, now));
  const volunteersMs = await timed(() => volunteerTotals(db, seasonStart(now)));
  const perDayMs = await timed(() => uploadsPerDay(db, now));
  const overview = await programmeOverview(db, now);
  console.log(
    [
      '',
      `Programme overview (${os.availableParallelism()} CPUs, load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; seeded in ${(seeded / 1000).toFixed(1)} s)`,
      `  per volunteer (clients, complete, missing categories)  median ${volunteersMs.toFixed(1)} ms  (goal < 50 ms)`,
      `  documents stored per day, 30 days                     median ${perDayMs.toFixed(1)} ms  (goal < 50 ms)`,
      `  the whole overview (both at once)                     median ${whole.toFixed(1)} ms`,
      `  answer: ${overview.clients} clients this season, ${overview.complete} complete, ${overview.uploadsPerDay.length} days with uploads, ${overview.volunteers.length} volunteers`,
      '',
    ].join('\n'),
  );
} finally {
  await db.destroy();
  await embedded.stop();
  await rm(dataDir, { recursive: true, force: true });
}
