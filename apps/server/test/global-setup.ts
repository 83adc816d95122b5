/**
 * One PostgreSQL for the whole test run and a migrated template database (tooling/test-server's
 * startTestDatabase, here with the server's own sources, or the one `npm test` started for every
 * package); each test server gets its own copy of the template (see harness.ts). The test files run
 * in workers started afterwards: they inherit the two variables.
 */
import { ADMIN_URL_ENV, TEMPLATE_ENV } from '@vita-docs/test-server/database';
import { startTestDatabase } from '@vita-docs/test-server/test-database';
import { openDatabase } from '../src/db/database.js';
import { startEmbeddedPostgres } from '../src/db/embedded/cluster.js';

export default async function setup() {
  const database = await startTestDatabase({ startEmbeddedPostgres, openDatabase });
  process.env[ADMIN_URL_ENV] = database.adminUrl;
  process.env[TEMPLATE_ENV] = database.template;
  return () => database.stop();
}
