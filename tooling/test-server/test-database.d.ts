export interface TestDatabase {
  /** A URL on the test cluster whose user may create databases. */
  adminUrl: string;
  /** The migrated template database each test server's database is copied from. */
  template: string;
  /** Stops the embedded cluster (or drops the template from TEST_DATABASE_URL's server). */
  stop(): Promise<void>;
}

/** The server's own functions, from its sources (its tests) or its build (everyone else). */
export interface ServerDatabaseModules<Log> {
  /** Given a logger that drops every line. */
  startEmbeddedPostgres(options: {
    dataDir: string;
    log: Log;
    durable: boolean;
  }): Promise<{ connectionString(database?: string): string; stop(): Promise<void> }>;
  openDatabase(connection: string): Promise<{ destroy(): Promise<void> }>;
}

/**
 * One PostgreSQL for a whole test run: the embedded cluster (as `npm start` runs it, minus fsync),
 * or the server TEST_DATABASE_URL names; and a template database migrated once, which each test
 * server's database is copied from (CREATE DATABASE … TEMPLATE takes milliseconds).
 */
export declare function startTestDatabase<Log>(server: ServerDatabaseModules<Log>): Promise<TestDatabase>;
