/**
 * One PostgreSQL for the whole test run: the embedded cluster (as `npm start` runs it, minus fsync),
 * or the server TEST_DATABASE_URL names. A migrated template database is made once; each test
 * server gets its own copy of it (CREATE DATABASE … TEMPLATE takes milliseconds).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/database.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../src/db/embedded/cluster.js';
import { databaseUrl } from './database-url.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A URL on the test cluster whose user may create databases. */
    adminDatabaseUrl: string;
    templateDatabase: string;
  }
}

const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

export default async function setup(project: TestProject) {
  let cluster: EmbeddedPostgres | undefined;
  let dir: string | undefined;
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
  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabase', template);

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
