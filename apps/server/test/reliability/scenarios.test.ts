/**
 * The short form of the reliability suite (see reliability/), `npm run test:reliability`: each
 * scenario starts the production build as its own process and drives it over HTTP for minutes. A row
 * that says something broke fails the test. The crash-during-uploads scenario is `npm test`'s smoke
 * (test/crash-recovery.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../reliability/harness.js';
import { scenario as crashDuringDeletes } from '../../reliability/scenarios/3-crash-during-zip-and-deletes.js';
import { scenario as diskFull } from '../../reliability/scenarios/4-disk-full.js';
import { scenario as databaseOutage } from '../../reliability/scenarios/5-database-outage.js';
import { scenario as severalProcesses } from '../../reliability/scenarios/8-several-processes.js';
import { scenario as hungDependencies } from '../../reliability/scenarios/9-hung-dependencies.js';
import { findNginx } from '../../reliability/balancer.js';

// RELIABILITY_LOG=1 prints each scenario's progress lines (the numbers behind its row).
const quiet = {
  short: true,
  log: process.env.RELIABILITY_LOG ? (line: string) => console.log(line) : () => undefined,
};
const nginx = await findNginx();

async function expectNothingBroke(scenario: Scenario) {
  const row = await scenario.run(quiet);
  expect(row.broke, `${row.scenario}: ${row.done}`).toBe('');
}

describe('reliability, short form', () => {
  it('shows nothing half-deleted after being killed during a ZIP, a category delete and a client delete', async () => {
    await expectNothingBroke(crashDuringDeletes);
  }, 300_000);

  it('answers 507 to the upload that does not fit on a full disk, keeps nothing partial and recovers when space is freed', async () => {
    await expectNothingBroke(diskFull);
  }, 240_000);

  it('answers 503 quickly while its database is away, and works again without a restart', async () => {
    await expectNothingBroke(databaseOutage);
  }, 240_000);

  // nginx is a Debian package (.ci/run installs it); without it there is no balancer to test through.
  it.skipIf(!nginx)(
    'behind nginx, spreads work over processes, honours changes everywhere, shares limits and restarts them one at a time failing no request',
    async () => {
      await expectNothingBroke(severalProcesses);
    },
    // About a minute on a quiet machine before the rolling restart was in it, four under the heaviest
    // load seen; the rolling restart took 57–169 s more beside 2–8 busy loops and other test runs (load
    // average 11–39), the whole test up to eight minutes.
    900_000,
  );

  it('answers 503 within 3 s while its database, S3 or SMTP stops answering, and recovers by itself', async () => {
    await expectNothingBroke(hungDependencies);
  }, 300_000);
});
