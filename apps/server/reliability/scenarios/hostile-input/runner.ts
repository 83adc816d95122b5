/**
 * The runner: draws the run's requests from the table of properties (fc.sample with a fixed seed,
 * so a run replays request for request), sends them a few at a time, and judges every answer by its
 * property's checks. Requests are sampled, not run through fc.assert: a shrinking search against a
 * live server would take far longer than the run, and the report keeps the smallest failing request
 * of each kind instead.
 */
import fc from 'fast-check';
import { ADMIN, VOLUNTEER_PIN, type ServerProcess } from '../../harness.js';
import { isCutOff } from './checks.js';
import { runFlow } from './flow.js';
import { propertyOf, requestArbitrary } from './properties.js';
import { send } from './raw-client.js';
import type { Spec, Who } from './spec.js';
import { describe, type Tally } from './tally.js';
import { materialize, type Identity, type Wiring } from './wire.js';
import { buildWorld, session } from './world.js';

/** Requests in flight at once (the machine has two cores, shared with PostgreSQL and this process). */
export const CONCURRENCY = 6;

export const fmt = (n: number) => n.toLocaleString('en-US');
export const mb = (n: number) => `${n.toFixed(0)} MB`;

/** The world made, the identities signed in, and the download link kept fresh. */
export async function prepare(server: ServerProcess, cleanups: Array<() => void>) {
  const url = server.url;
  const port = Number(new URL(url).port);
  const setup = await buildWorld(url);
  const identities: Record<Who, Identity> = {
    admin: (await session(url, ADMIN.email, ADMIN.pin)).identity,
    volunteer0: (await session(url, 'volunteer0@reliability.test', VOLUNTEER_PIN)).identity,
    volunteer1: (await session(url, 'volunteer1@reliability.test', VOLUNTEER_PIN)).identity,
    anonymous: (await session(url)).identity,
  };
  const wiring: Wiring = {
    port,
    identities,
    putTemplates: setup.putTemplates,
    getTemplate: setup.getTemplate,
  };
  const renewer = setInterval(() => void setup.renewGet().catch(() => undefined), 30_000);
  cleanups.push(() => clearInterval(renewer));
  return { url, port, setup, identities, wiring };
}

type Prepared = Awaited<ReturnType<typeof prepare>>;

export const sampleRequests = (p: Prepared, seed: number, total: number): Spec[] =>
  fc.sample(requestArbitrary(p.setup.world), { seed, numRuns: total });

/** Sends batches of requests, `CONCURRENCY` at a time, into `tally`; stops when the server exits. */
export function makeRunner(
  p: Prepared,
  server: ServerProcess,
  tally: Tally,
  progress: (done: number) => Promise<void>,
) {
  let exited = false;

  const runRaw = async (spec: Spec) => {
    const wire = materialize(spec, p.wiring);
    const outcome = await send(p.port, wire, wire.stream ? 90_000 : 30_000);
    if (!wire.stream) tally.latencies.push(outcome.ms);
    const found = tally.judge(outcome.answers, wire.method, propertyOf(spec.kind).holds);
    if (isCutOff(wire, outcome)) tally.cutOff += 1;
    else if (outcome.answers.length === 0) found.add('no answer');
    const size = wire.head.length + wire.body.length + (wire.stream?.bytes ?? 0);
    for (const failure of found)
      tally.fail(`${failure} on ${wire.label}`, size, describe(spec, wire, outcome));
  };

  const runOne = async (spec: Spec) => {
    tally.count(spec);
    if (spec.flow) {
      const { world } = p.setup;
      await runFlow(
        {
          url: p.url,
          identity: p.identities[spec.who],
          clients:
            spec.who === 'admin' ? [...world.ownClientIds, ...world.otherClientIds] : world.ownClientIds,
          tally,
          holds: propertyOf(spec.kind).holds,
        },
        spec,
        spec.flow,
      );
    } else await runRaw(spec);
    tally.done += 1;
    await progress(tally.done);
  };

  return (batch: readonly Spec[]) => {
    let next = 0;
    return Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < batch.length && !exited) {
          const spec = batch[next];
          next += 1;
          if (spec) await runOne(spec);
          if (server.exited()) exited = true;
        }
      }),
    );
  };
}
