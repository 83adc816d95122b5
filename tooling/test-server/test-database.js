import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ADMIN_URL_ENV, databaseUrl, TEMPLATE_ENV } from './database.js';

const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** @type {import('./test-database.js').startTestDatabase} */
export async function startTestDatabase({ startEmbeddedPostgres, openDatabase }) {
  // `npm test` (tooling/repo-checks/run-checks.mjs) starts one PostgreSQL and template for every
  // package's tests and hands them down: a package's global setup then uses them, starting nothing.
  const shared = { adminUrl: process.env[ADMIN_URL_ENV], template: process.env[TEMPLATE_ENV] };
  if (shared.adminUrl && shared.template) {
    return { adminUrl: shared.adminUrl, template: shared.template, stop: async () => undefined };
  }
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
  return {
    adminUrl,
    template,
    async stop() {
      if (cluster) {
        await cluster.stop();
      } else {
        const c = new pg.Client({ connectionString: adminUrl });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
        await c.end();
      }
      if (dir) await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
