export declare const ADMIN_URL_ENV: 'VITA_TEST_ADMIN_DATABASE_URL';
export declare const TEMPLATE_ENV: 'VITA_TEST_TEMPLATE_DATABASE';

/** The same server and credentials, another database. */
export declare function databaseUrl(base: string, database: string): string;

/** Runs one statement as the test cluster's administrator. */
export declare function adminQuery(statement: string): Promise<void>;

/** A database of its own, copied from the migrated template; null when no global setup ran. */
export declare function templateCopy(): Promise<{ url: string; drop: () => Promise<void> } | null>;
