import pg from 'pg';

/** Set by global-setup.js for the test workers: the test cluster's admin URL and the template's name. */
export const ADMIN_URL_ENV = 'VITA_TEST_ADMIN_DATABASE_URL';
export const TEMPLATE_ENV = 'VITA_TEST_TEMPLATE_DATABASE';

/** The same server and credentials, another database. */
export function databaseUrl(base, database) {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

async function adminQuery(adminUrl, statement) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

let databases = 0;

/**
 * A database of its own for one test server, copied from the template global-setup.js made; null
 * when no global setup ran (the server then creates its embedded cluster in its data directory).
 * @returns {Promise<{ url: string, drop: () => Promise<void> } | null>}
 */
export async function templateCopy() {
  const adminUrl = process.env[ADMIN_URL_ENV];
  const template = process.env[TEMPLATE_ENV];
  if (!adminUrl || !template) return null;
  databases += 1;
  const name = `vita_server_${process.pid}_${databases}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`);
  return {
    url: databaseUrl(adminUrl, name),
    drop: () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
