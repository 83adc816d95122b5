// A vitest globalSetup for the packages whose tests start servers with `startTestServer`: one
// PostgreSQL and one migrated template for the package's whole run (test-database.js), each test
// server on a copy of it, instead of each creating, starting and migrating a cluster of its own.
// The cluster code and the migrations are the built server's (apps/server/dist): the turbo.json of
// each package using this makes its test task depend on the server's build.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ADMIN_URL_ENV, TEMPLATE_ENV } from './database.js';
import { startTestDatabase } from './test-database.js';

const serverDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/server/dist');

async function serverModule(file) {
  return import(pathToFileURL(path.join(serverDist, file)).href).catch((error) => {
    throw new Error(`apps/server/dist is missing: run \`pnpm --filter @vita-docs/server build\` (${error})`);
  });
}

export default async function setup() {
  const { startEmbeddedPostgres } = await serverModule('db/embedded/cluster.js');
  const { openDatabase } = await serverModule('db/database.js');
  const database = await startTestDatabase({ startEmbeddedPostgres, openDatabase });
  // The test files run in workers this process starts afterwards: they inherit these.
  process.env[ADMIN_URL_ENV] = database.adminUrl;
  process.env[TEMPLATE_ENV] = database.template;
  return () => database.stop();
}
