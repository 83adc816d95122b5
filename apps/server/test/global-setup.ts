/**
 * One PostgreSQL for the whole test run and a migrated template database (tooling/test-server's
 * startTestDatabase, here with the server's own sources); each test server gets its own copy of the
 * template (see harness.ts).
 */
import { startTestDatabase } from '@vita-docs/test-server/test-database';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/database.js';
import { startEmbeddedPostgres } from '../src/db/embedded/cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A URL on the test cluster whose user may create databases. */
    adminDatabaseUrl: string;
    templateDatabase: string;
  }
}

export default async function setup(project: TestProject) {
  const database = await startTestDatabase({ startEmbeddedPostgres, openDatabase });
  project.provide('adminDatabaseUrl', database.adminUrl);
  project.provide('templateDatabase', database.template);
  return () => database.stop();
}
