export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  sentAt: string;
}

export interface TestServerOptions {
  /** Extra environment for the server (e.g. DATABASE_URL, SMTP_URL, S3_*). */
  env?: Record<string, string>;
  /** Data directory; a fresh temporary one by default (removed by `stop({ keepData: false })`). */
  dataDir?: string;
  /** Port; a free one by default. */
  port?: number;
  /** Print the server's log lines to stderr. */
  verbose?: boolean;
}

export interface TestServer {
  /** Origin, e.g. http://127.0.0.1:41234 (the web app is at `/`, the API at `/api`). */
  url: string;
  apiUrl: string;
  port: number;
  dataDir: string;
  /** Process id of the running server (for RSS sampling in benchmarks). */
  readonly pid: number | undefined;
  /** The development outbox, oldest first. */
  outbox(): Promise<OutboxMail[]>;
  /** The newest 6-digit code mailed to `email`, waiting up to `timeoutMs` for it to arrive. */
  latestCode(email: string, options?: { after?: number; timeoutMs?: number }): Promise<string>;
  /**
   * Runs one SQL statement on this server's database (under global-setup.js only): for a state no API
   * reaches in a test's time, such as a request link past its end.
   */
  query(text: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Stops the process (SIGTERM, then SIGKILL after 5 s). Data is kept unless `keepData` is false. */
  stop(options?: { keepData?: boolean }): Promise<void>;
  /** Starts it again on the same port and data directory. */
  restart(): Promise<void>;
}

/** Spawns apps/server (its build when newer than its sources and core's, else its sources through tsx) and waits until it listens. */
/** A port nothing on 127.0.0.1 listens on now. */
export declare function freePort(): Promise<number>;

export declare function startTestServer(options?: TestServerOptions): Promise<TestServer>;

export interface ChromiumLaunchOptions {
  executablePath: string;
  args: string[];
}

/**
 * Options for playwright-core's `chromium.launch`: the system Chromium (CHROMIUM_PATH overrides),
 * quiet and sandbox-free for containers and CI.
 */
export declare function chromiumLaunchOptions(): ChromiumLaunchOptions;
