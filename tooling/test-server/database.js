import pg from 'pg';

/** Set by the run's global setup (or `npm test` itself) for the test workers: the test cluster's admin URL and the template's name. */
export const ADMIN_URL_ENV = 'VITA_TEST_ADMIN_DATABASE_URL';
export const TEMPLATE_ENV = 'VITA_TEST_TEMPLATE_DATABASE';

/** The same server and credentials, another database. */
export function databaseUrl(base, database) {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

/** The shared test cluster, or null when no global setup handed one down. */
function shared() {
  const adminUrl = process.env[ADMIN_URL_ENV];
  const template = process.env[TEMPLATE_ENV];
  return adminUrl && template ? { adminUrl, template } : null;
}

/** Runs one statement as the test cluster's administrator. */
export async function adminQuery(statement) {
  const cluster = shared();
  if (!cluster) throw new Error(`${ADMIN_URL_ENV} is not set: the test run's global setup did not run`);
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

let databases = 0;

/**
 * A database of its own for one test server or test, copied from the migrated template (CREATE
 * DATABASE … TEMPLATE takes milliseconds); null when no global setup ran (a test server then creates
 * its embedded cluster in its data directory). The name carries the process id: several packages'
 * tests share the cluster at once.
 * @returns {Promise<{ url: string, drop: () => Promise<void> } | null>}
 */
export async function templateCopy() {
  const cluster = shared();
  if (!cluster) return null;
  databases += 1;
  const name = `vita_test_${process.pid}_${databases}`;
  await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${cluster.template}`);
  return {
    url: databaseUrl(cluster.adminUrl, name),
    drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
