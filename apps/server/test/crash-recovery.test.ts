/**
 * `npm test`'s smoke of crash recovery: the production build killed with SIGKILL in the middle of 100
 * uploads, started again, loses no upload it acknowledged (reliability/scenarios/2-crash-during-uploads).
 * The other crash and outage scenarios take minutes and run in `npm run test:reliability`.
 */
import { expect, it } from 'vitest';
import { scenario } from '../reliability/scenarios/2-crash-during-uploads.js';

it('loses no acknowledged upload when the server is killed in the middle of 100', async () => {
  const row = await scenario.run({ short: true, log: () => undefined });
  expect(row.broke, `${row.scenario}: ${row.done}`).toBe('');
}, 240_000);
