/**
 * Database outage: the server runs on a PostgreSQL of its own (an external one, `DATABASE_URL`),
 * which is stopped in the middle of steady traffic and started again. While it is away every request
 * must answer quickly (503 with the "try again" text, within 2 s; no 500, no hang, no crash), and
 * once it is back everything must work again without restarting the server.
 */
import fs from 'node:fs/promises';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/db/embedded/cluster.js';
import { DATABASE_UNAVAILABLE } from '../../src/http/errors.js';
import {
  freshDataDir,
  newClient,
  randomPdf,
  setUpProgramme,
  sleep,
  startServer,
  upload,
  type Browser,
  type Row,
  type Scenario,
} from '../harness.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const TIMEOUT_MS = 5_000;

interface Probe {
  at: number;
  ms: number;
  status: number;
  body: string;
  phase: 'before' | 'outage' | 'after';
}

export const scenario: Scenario = {
  name: 'Database outage',
  async run({ short, log }): Promise<Row> {
    const dbDir = await freshDataDir('outage-db');
    const dataDir = await freshDataDir('outage');
    const startDb = () => startEmbeddedPostgres({ dataDir: dbDir, log: quiet, durable: false });
    let database: EmbeddedPostgres | undefined = await startDb();
    const server = await startServer({ dataDir, env: { DATABASE_URL: database.connectionString() } });
    const problems: string[] = [];
    try {
      const { volunteers } = await setUpProgramme(server.url, 1);
      const volunteer = volunteers[0] as Browser;
      const clientId = await newClient(volunteer, 'Outage');
      const before = await upload(volunteer, clientId, 'Banking Info', 'before.pdf', randomPdf(50_000));

      let phase: Probe['phase'] = 'before';
      let running = true;
      const probes: Probe[] = [];
      const paths = [
        '/api/me',
        '/api/clients',
        `/api/docs/list/${clientId}?docType=Banking%20Info`,
        `/api/clients/${clientId}/docs/status`,
      ];
      const began = Date.now();
      const worker = async (n: number) => {
        for (let i = n; running; i += 1) {
          const path = paths[i % paths.length] ?? '/api/me';
          const started = Date.now();
          const seenPhase = phase;
          let status = 0;
          let body = '';
          try {
            const res = await volunteer.fetch(`${server.url}${path}`, {
              signal: AbortSignal.timeout(TIMEOUT_MS),
            });
            status = res.status;
            body = await res.text();
          } catch (error) {
            body = error instanceof Error ? error.message : String(error);
          }
          probes.push({ at: started - began, ms: Date.now() - started, status, body, phase: seenPhase });
          await sleep(50);
        }
      };
      const workers = Array.from({ length: 4 }, (_, n) => worker(n));
      await sleep(1_500);
      phase = 'outage';
      const stoppedAt = Date.now() - began;
      await database.stop();
      database = undefined;
      log(`PostgreSQL stopped at ${stoppedAt} ms`);
      await sleep(short ? 3_000 : 8_000);
      // An upload attempted during the outage is refused cleanly too.
      const refusedUpload = await upload(
        volunteer,
        clientId,
        'Banking Info',
        'during.pdf',
        randomPdf(30_000),
      ).then(
        () => 'accepted',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
      database = await startDb();
      const restartedAt = Date.now() - began;
      phase = 'after';
      log(`PostgreSQL back at ${restartedAt} ms`);
      await sleep(short ? 3_000 : 6_000);
      running = false;
      await Promise.all(workers);

      const during = probes.filter((p) => p.phase === 'outage');
      const after = probes.filter((p) => p.phase === 'after');
      const firstOk = after.find((p) => p.status === 200);
      const recoveredMs = firstOk ? firstOk.at - restartedAt : Number.NaN;
      const lastFailure = after.filter((p) => p.status !== 200).at(-1);
      const slow = during.filter((p) => p.ms > 2_000);
      const hangs = probes.filter((p) => p.status === 0);
      const wrong = during.filter(
        (p) => p.status !== 200 && !(p.status === 503 && p.body.includes(DATABASE_UNAVAILABLE)),
      );
      const fiveHundreds = probes.filter((p) => p.status === 500);
      if (during.filter((p) => p.status === 503).length === 0)
        problems.push('no request was refused during the outage (did it happen?)');
      if (slow.length > 0)
        problems.push(
          `${slow.length} answers during the outage took over 2 s (slowest ${Math.max(...slow.map((p) => p.ms))} ms)`,
        );
      if (hangs.length > 0) problems.push(`${hangs.length} requests got no answer: ${hangs[0]?.body ?? ''}`);
      if (wrong.length > 0)
        problems.push(
          `${wrong.length} answers during the outage were not the 503: ${wrong[0]?.status} ${wrong[0]?.body.slice(0, 120) ?? ''}`,
        );
      if (fiveHundreds.length > 0) problems.push(`${fiveHundreds.length} × 500`);
      if (!refusedUpload.includes(DATABASE_UNAVAILABLE))
        problems.push(`an upload during the outage answered: ${refusedUpload}`);
      if (!firstOk) problems.push('nothing worked again after the database came back');
      if (lastFailure && lastFailure.at - restartedAt > 2_000)
        problems.push(`still failing ${lastFailure.at - restartedAt} ms after the database came back`);
      if (server.exited()) problems.push('the server process exited');
      const listed = await volunteer.api.listDocs({
        params: { id: clientId },
        query: { docType: 'Banking Info' },
      });
      if (!listed.items.some((item) => item.key === before))
        problems.push('the upload from before the outage is not listed');
      const afterUpload = await upload(
        volunteer,
        clientId,
        'Banking Info',
        'after.pdf',
        randomPdf(30_000),
      ).then(() => 'ok', String);
      if (afterUpload !== 'ok') problems.push(`an upload after the outage failed: ${afterUpload}`);

      const maxDuring = during.length ? Math.max(...during.map((p) => p.ms)) : 0;
      return {
        scenario: this.name,
        done: `4 clients polling me/clients/list/status, PostgreSQL stopped for ${((restartedAt - stoppedAt) / 1000).toFixed(0)} s then started again; ${probes.length} requests (${during.length} during the outage), an upload during and after`,
        held: problems.length
          ? ''
          : `every request during the outage answered 503 "${DATABASE_UNAVAILABLE}" in ≤ ${maxDuring} ms, the upload too; no 500, no hang, no crash; working again ${recoveredMs} ms after the database was back, without a restart`,
        broke: problems.join('; '),
      };
    } catch (error) {
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}; the server's log ends:\n${server.log().slice(-3000)}`,
      );
    } finally {
      await server.stop();
      await database?.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
      await fs.rm(dbDir, { recursive: true, force: true });
    }
  },
};
