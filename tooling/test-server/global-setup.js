// A vitest globalSetup for the packages whose tests start servers with `startTestServer`: one
// PostgreSQL for the package's whole run (the embedded cluster, without fsync, as the server's own
// tests use; or the server TEST_DATABASE_URL names) and a migrated template database. Each test
// server then gets a copy of the template (CREATE DATABASE … TEMPLATE takes milliseconds) instead
// of creating, starting and migrating a cluster of its own. The cluster and the migrations are the
// built server's (apps/server/dist): turbo.json makes those test tasks depend on its build.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { ADMIN_URL_ENV, TEMPLATE_ENV, databaseUrl } from './database.js';

const serverDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/server/dist');
const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

async function serverModule(file) {
  const url = pathToFileURL(path.join(serverDist, file)).href;
  return import(url).catch((error) => {
    throw new Error(
      `apps/server/dist is missing or stale: run \`pnpm --filter @vita-docs/server build\` (${error})`,
    );
  });
}

export default async function setup() {
  const { startEmbeddedPostgres } = await serverModule('db/embedded/cluster.js');
  const { openDatabase } = await serverModule('db/database.js');
  let cluster;
  let dir;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vita-test-pg-'));
    cluster = await startEmbeddedPostgres({ dataDir: dir, log: quietLog, durable: false });
    adminUrl = cluster.connectionString('postgres');
  }
  const template = `vita_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  await admin.end();
  const db = await openDatabase(databaseUrl(adminUrl, template));
  await db.destroy();
  // The test files run in workers this process starts afterwards: they inherit these.
  process.env[ADMIN_URL_ENV] = adminUrl;
  process.env[TEMPLATE_ENV] = template;

  return async () => {
    if (cluster) {
      await cluster.stop();
    } else {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
      await c.end();
    }
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  };
}
