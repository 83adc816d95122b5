/**
 * Crash during uploads: 100 uploads in flight, the server SIGKILLed at a random moment, started again
 * on the same address and DATA_DIR, the clients retrying what failed (after looking whether the
 * server kept it, by SHA-256, as a careful client does). Then: every acknowledged upload is listed
 * and hashes to what the client sent; nothing else is listed; once the sweeper's grace period has
 * passed (the leftovers are aged, then the server restarts, which sweeps at start) no temp file and
 * no pending row remain; the client's ZIP opens and matches the list.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import JSZip from 'jszip';
import {
  databaseOf,
  download,
  filesUnder,
  freshDataDir,
  newClient,
  randomPdf,
  setUpProgramme,
  sha256,
  sleep,
  startServer,
  sweepNow,
  upload,
  type Browser,
  type Row,
  type Scenario,
  type ServerProcess,
} from '../harness.js';

const DOC_TYPE = 'Banking Info';
const UPLOADS = 100;

interface Attempt {
  name: string;
  bytes: Buffer;
  sha256: string;
  acknowledged: boolean;
  retried: boolean;
}

async function pendingRows(server: ServerProcess): Promise<number> {
  const db = await databaseOf(server.dataDir);
  try {
    const { rows } = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM documents WHERE state = 'pending'`,
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await db.end();
  }
}

/** One round: start, upload with a kill in the middle, restart, retry, check. Returns the problems found. */
async function round(
  index: number,
  log: (line: string) => void,
): Promise<{ facts: string; problems: string[] }> {
  const dataDir = await freshDataDir(`crash-upload-${index}`);
  let server = await startServer({ dataDir });
  const problems: string[] = [];
  try {
    const port = Number(new URL(server.url).port);
    const { volunteers } = await setUpProgramme(server.url, 1);
    const volunteer = volunteers[0] as Browser;
    const clientId = await newClient(volunteer, `Crash ${index}`);
    const attempts: Attempt[] = Array.from({ length: UPLOADS }, (_, i) => {
      const bytes = randomPdf(64 * 1024 + Math.floor(Math.random() * 512 * 1024));
      return {
        name: `scan-${index}-${i}.pdf`,
        bytes,
        sha256: sha256(bytes),
        acknowledged: false,
        retried: false,
      };
    });

    // A random moment in the middle: once a random number of uploads were acknowledged, plus a jitter.
    const killAt = 1 + Math.floor(Math.random() * (UPLOADS - 10));
    let acknowledgedSoFar = 0;
    let reached: () => void = () => undefined;
    const killMoment = new Promise<void>((resolve) => (reached = resolve));
    const began = Date.now();
    const inFlight = attempts.map(async (attempt) => {
      try {
        await upload(volunteer, clientId, DOC_TYPE, attempt.name, attempt.bytes);
        attempt.acknowledged = true;
        acknowledgedSoFar += 1;
        if (acknowledgedSoFar === killAt) reached();
      } catch {
        // Failed by the crash: retried below.
      }
    });
    await Promise.race([killMoment, sleep(60_000)]);
    await sleep(Math.floor(Math.random() * 30));
    const killAfterMs = Date.now() - began;
    await server.kill();
    await Promise.all(inFlight);
    const acknowledgedBeforeKill = attempts.filter((a) => a.acknowledged).length;
    log(
      `round ${index + 1}: killed after ${killAfterMs} ms with ${acknowledgedBeforeKill} of ${UPLOADS} acknowledged`,
    );

    server = await startServer({ dataDir, port });
    // The client retries what failed, unless the server kept it after all (same bytes already listed).
    const listed = async () =>
      (await volunteer.api.listDocs({ params: { id: clientId }, query: { docType: DOC_TYPE } })).items;
    const kept = new Set((await listed()).map((item) => item.sha256));
    const failed = attempts.filter((a) => !a.acknowledged);
    let keptAnyway = 0;
    for (const attempt of failed) {
      if (kept.has(attempt.sha256)) {
        keptAnyway += 1;
        attempt.acknowledged = true;
        continue;
      }
      await upload(volunteer, clientId, DOC_TYPE, attempt.name, attempt.bytes);
      attempt.acknowledged = true;
      attempt.retried = true;
    }

    // Every upload is now acknowledged: each must be listed once with its bytes, and nothing else.
    const items = await listed();
    const bySha = new Map(attempts.map((a) => [a.sha256, a]));
    const seen = new Map<string, number>();
    for (const item of items) {
      if (!bySha.has(item.sha256 ?? '')) problems.push(`listed but never sent: ${item.filename}`);
      seen.set(item.sha256 ?? '', (seen.get(item.sha256 ?? '') ?? 0) + 1);
    }
    for (const attempt of attempts) {
      const count = seen.get(attempt.sha256) ?? 0;
      if (count === 0) problems.push(`acknowledged but not listed: ${attempt.name}`);
      if (count > 1) problems.push(`listed ${count} times: ${attempt.name}`);
    }
    // The bytes behind each listed document, through the view URL, hash to what the client sent.
    for (const item of items) {
      const { url } = await volunteer.api.presignGet({ body: { key: item.key } });
      const body = await download(volunteer, url).catch((error: unknown) => error);
      if (!(body instanceof Buffer) || sha256(body) !== item.sha256)
        problems.push(`bytes differ for ${item.filename}: ${String(body)}`);
    }

    // The ZIP holds exactly the listed documents, byte for byte.
    const zipResponse = await volunteer.api.downloadAll({ params: { id: clientId } });
    const zip = await JSZip.loadAsync(Buffer.from(await zipResponse.arrayBuffer()));
    const entries = Object.values(zip.files).filter((entry) => !entry.dir);
    const zipShas = new Set<string>();
    for (const entry of entries) {
      if (entry.name.endsWith('MISSING-FILES.txt')) problems.push('the ZIP names missing files');
      zipShas.add(sha256(await entry.async('nodebuffer')));
    }
    if (entries.length !== items.length || items.some((item) => !zipShas.has(item.sha256 ?? ''))) {
      problems.push(`ZIP holds ${entries.length} files, the list ${items.length}`);
    }

    // After the grace period: no temp file, no pending row.
    server = await sweepNow(server);
    const temp = await filesUnder(path.join(dataDir, 'files', '.tmp'));
    const pending = await pendingRows(server);
    if (temp.length > 0) problems.push(`${temp.length} temp files left after the sweep`);
    if (pending > 0) problems.push(`${pending} pending rows left after the sweep`);
    if ((await listed()).length !== UPLOADS) problems.push('the sweep changed the list');
    const retried = attempts.filter((a) => a.retried).length;
    return {
      facts: `killed at ${killAfterMs} ms: ${acknowledgedBeforeKill} acknowledged before, ${keptAnyway} kept unacknowledged, ${retried} retried`,
      problems,
    };
  } finally {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

export const scenario: Scenario = {
  name: 'Crash during uploads',
  async run({ short, log }): Promise<Row> {
    const rounds = short ? 1 : 5;
    const facts: string[] = [];
    const problems: string[] = [];
    for (let i = 0; i < rounds; i += 1) {
      const result = await round(i, log);
      facts.push(result.facts);
      problems.push(...result.problems.map((p) => `round ${i + 1}: ${p}`));
    }
    return {
      scenario: this.name,
      done: `${rounds} × (${UPLOADS} uploads of 64–576 KB in flight, SIGKILL at a random moment, restart, retry what failed); ${facts.join('; ')}`,
      held:
        problems.length === 0
          ? 'every acknowledged upload listed once with matching SHA-256 and bytes; nothing else listed; the ZIP matches the list; no temp file or pending row after the sweep'
          : '',
      broke:
        problems.slice(0, 10).join('; ') + (problems.length > 10 ? `; … ${problems.length - 10} more` : ''),
    };
  },
};
