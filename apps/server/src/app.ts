import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import fastifyStatic, { type FastifyStaticOptions } from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { pruneCodes } from './auth/codes.js';
import { pruneChallenges } from './auth/passkeys.js';
import { pruneRateLimits } from './auth/rate-limit.js';
import { pruneThrottle } from './auth/throttle.js';
import { pruneSessions } from './auth/sessions.js';
import { createJournalKeys, journalWrapKey, linkJournalRoot } from './auth/journal-keys.js';
import { ensureAdmin, loadSecret } from './bootstrap.js';
import { preparePrivateDataDir } from './data-dir.js';
import { openDatabase } from './db/database.js';
import { CHANGES_AUTH, createSessionCache, listenForAuthChanges } from './auth/session-cache.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded/cluster.js';
import type { Config } from './env.js';
import { appPages, escapeHtml } from './http/app-page.js';
import { gracefulStop } from './http/graceful-stop.js';
import { installErrorCodes, installErrorHandler } from './http/errors.js';
import { installForwardedForCheck } from './http/forwarded.js';
import { installJsonParser } from './http/json.js';
import {
  clientErrorHandler,
  deadlineServerOptions,
  HTTP_SERVER_OPTIONS,
  installBodyDeadlines,
  installProtocolChecks,
  REQUEST_DEADLINES,
  type RequestDeadlines,
} from './http/protocol.js';
import { withLogRedaction } from './http/log.js';
import { installSecurity, installSecurityHeaders, requestPath } from './http/security.js';
import { outboxMailer, smtpMailer } from './mail/mailer.js';
import { adminUserRoutes } from './routes/admin-users.js';
import { auditRoutes } from './routes/audit.js';
import { authRoutes } from './routes/auth.js';
import { passkeyRoutes } from './routes/passkeys.js';
import { clientRoutes } from './routes/clients.js';
import { clientLinkRoutes } from './routes/client-links.js';
import { linkSessionRoutes } from './routes/link-session.js';
import { remindAndExpire } from './client-links/links.js';
import { configRoutes } from './routes/config.js';
import { devRoutes } from './routes/dev.js';
import { docRoutes } from './routes/docs.js';
import { downloadRoutes } from './routes/download.js';
import { journalKeyRoutes } from './routes/journal-key.js';
import { reassignRoutes } from './routes/reassign.js';
import { readingRoutes } from './routes/reading.js';
import { settingsRoutes } from './routes/settings.js';
import { seasonRoutes } from './routes/season.js';
import { seasonDownloadRoute } from './routes/season-download.js';
import { resumeSeasonClose } from './season.js';
import { runRetention } from './retention.js';
import { createObjectStore } from './storage/create.js';
import { indexStoredFiles, pruneRefusals, settleInterrupted, sweep } from './documents/lifecycle.js';
import { encryptStoredFiles } from './storage/encrypt-existing.js';
import { fixDocumentNames } from './documents/rename.js';
import { claimRun } from './recurring.js';
import { localStorageRoutes } from './storage/local-routes.js';
import type { LocalObjectStore } from './storage/local.js';
import type { Services } from './services.js';
import type { PoolConfig } from 'pg';

export type { Config } from './env.js';
export { loadConfig, ConfigError } from './env.js';

/** How often the sweeper runs, and how old unaccounted bytes or expired uploads must be before it acts. */
const SWEEP_INTERVAL_MS = 10 * 60_000;
const RETENTION_INTERVAL_MS = 60 * 60_000;
/** How often request links are checked for reminders (day 3, day 6) and their end. */
const LINK_REMINDER_INTERVAL_MS = 15 * 60_000;
const SWEEP_GRACE_MS = 60 * 60_000;

/**
 * How long a stop waits for requests in flight (a ZIP being streamed, an upload being verified) before
 * it cuts their connections (docs/scaling.md: a rolling restart loses nothing within it).
 */
const SHUTDOWN_DEADLINE_MS = 30_000;

/** JSON bodies are small; files never pass through JSON routes (they go to presigned URLs). */
const JSON_BODY_LIMIT = 64 * 1024;

export interface BuildOptions {
  /**
   * A PostgreSQL connection (URL or `pg` settings) to use instead of the configured one; tests
   * point each server at its own database this way. Default: DATABASE_URL, else the embedded cluster.
   */
  database?: string | PoolConfig;
  logger?: FastifyServerOptions['logger'];
  /**
   * Store the local store's files in plain, without a storage key. Only for the benchmark that
   * measures what encryption costs (`bench/encryption.mjs`); never reachable from the environment.
   */
  unencryptedStorage?: boolean;
  /** Shorter request deadlines than {@link REQUEST_DEADLINES} (tests). */
  deadlines?: Partial<RequestDeadlines>;
}

export interface Server {
  app: FastifyInstance;
  services: Services;
  /**
   * Drains for up to DRAIN_SECONDS (see `gracefulStop`), stops accepting connections, answers every
   * request already accepted (streams included) for up to `deadlineMs`, then cuts what is left, stops
   * the background work and closes the database.
   */
  close(deadlineMs?: number): Promise<void>;
}

/**
 * The web app's page, read once, with the programme's website (PROGRAMME_URL) added as a meta tag
 * the app reads — configuration at run time without inline script. Null when the app is not built.
 */
function loadIndexHtml(webDist: string, programmeUrl: string | undefined): string | null {
  let html: string;
  try {
    html = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8');
  } catch {
    return null;
  }
  if (!programmeUrl) return html;
  return html.replace(
    '</head>',
    `<meta name="vita-programme-url" content="${escapeHtml(programmeUrl)}"></head>`,
  );
}

/** A built page of the web app, or null when the app is not built. */
function readPage(webDist: string, name: string): string | null {
  try {
    return fs.readFileSync(path.join(webDist, name), 'utf8');
  } catch {
    return null;
  }
}

/**
 * How the built app's files are served. The build writes a .br and a .gz beside each script and style
 * sheet (apps/web/vite.config.ts), sent to a browser that accepts them: a third of the bytes on a
 * phone's slow wi-fi, and no compressing per request. Files under assets/ are named by their content,
 * so a browser keeps them for a year without asking again; everything else here (the service worker,
 * the manifest, icons) keeps its name across builds, so a browser asks each time (a 304 when unchanged).
 */
function webAppFiles(webDist: string): FastifyStaticOptions {
  const assets = path.resolve(webDist, 'assets') + path.sep;
  return {
    root: webDist,
    wildcard: false,
    index: false,
    preCompressed: true,
    // The compressed copies are not addresses of their own: they are sent in place of their original.
    globIgnore: ['**/*.br', '**/*.gz'],
    cacheControl: false,
    setHeaders: (res, file) => {
      res.setHeader(
        'cache-control',
        file.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
      // A cache between the server and the browser must not hand a brotli copy to a browser without brotli.
      res.setHeader('vary', 'accept-encoding');
    },
  };
}

/** The default location of the built web app: apps/web/dist beside this package. */
function defaultWebDist(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');
}

/** Builds the whole server: database (migrated), services, API routes, and the web app at `/`. */
export async function buildServer(config: Config, options: BuildOptions = {}): Promise<Server> {
  const deadlines = { ...REQUEST_DEADLINES, ...options.deadlines };
  const app = Fastify({
    logger: withLogRedaction(options.logger ?? { level: config.logLevel }),
    bodyLimit: JSON_BODY_LIMIT,
    // A hop count becomes a function: Fastify's types take addresses or a predicate.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    // A HEAD of download-all would build (and audit) a whole ZIP for nothing.
    exposeHeadRoutes: false,
    // Malformed requests, oversized headers and timeouts answered in JSON like every other refusal.
    clientErrorHandler,
    // Slow requests: see `installBodyDeadlines` (Fastify's own option is only set after the server is made).
    requestTimeout: 0,
    http: { ...HTTP_SERVER_OPTIONS, ...deadlineServerOptions(deadlines) },
    // A request on a connection accepted before the stop is answered, not refused: the balancer
    // cannot send it elsewhere once sent (see `gracefulStop`).
    return503OnClosing: false,
    frameworkErrors: (error, _request, reply) => {
      const message =
        error.code === 'FST_ERR_BAD_URL' ? 'The address is not valid.' : 'The request is not valid.';
      void (reply as unknown as FastifyReply).code(400).send({ error: message, code: 'invalid_request' });
    },
  });
  installErrorCodes(app);
  await preparePrivateDataDir(config.dataDir);
  let embedded: EmbeddedPostgres | undefined;
  let connection = options.database ?? config.databaseUrl;
  if (connection === undefined) {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, log: app.log });
    connection = embedded.connection();
  }
  try {
    return await assemble(app, config, connection, embedded, options, deadlines);
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
}

/**
 * The server's own work beside requests: housekeeping, the sweeper and retention on timers; finishing
 * an interrupted season close, encrypting plain files and typing untyped names once.
 */
interface BackgroundWork {
  /** Stops the timers, and asks the one-off jobs to stop between two files. */
  stop(): void;
  /** Resolves once every run under way has ended. */
  finished(): Promise<unknown>;
}

/**
 * Opens what the routes need: the database (and its session cache), the HMAC secret, the object
 * store, the mailer; then indexes and settles what a stop left unfinished, before anything is listed.
 */
async function openServices(
  app: FastifyInstance,
  config: Config,
  connection: string | PoolConfig,
  options: BuildOptions,
): Promise<{ services: Services; local: LocalObjectStore | undefined; closeStore: () => void }> {
  const sessions = createSessionCache();
  const db = await openDatabase(
    connection,
    // Code and message only: `pg` hangs the whole connection object on the error.
    (err) =>
      app.log.warn(
        { code: 'code' in err ? err.code : undefined, message: err.message },
        'database connection lost; it will be replaced',
      ),
    // This process's own change to who may do what is heard at once (others' through the triggers).
    (statement) => CHANGES_AUTH.test(statement) && sessions.clear(),
    config.dependencyTimeoutMs,
  );
  const secret = await loadSecret(db, config);
  // A missing or wrong storage key stops the start here, before anything is served.
  const {
    store,
    local,
    storageKey,
    close: closeStore,
  } = await createObjectStore(config, {
    db,
    secret,
    log: app.log,
    encrypt: options.unencryptedStorage !== true,
  }).catch(async (err: unknown) => {
    await db.destroy();
    throw err;
  });
  const mailer = config.smtpUrl
    ? await smtpMailer(config.smtpUrl, config.mailFrom, app.log, config.dependencyTimeoutMs)
    : outboxMailer(db, app.log);
  const journalKeys = createJournalKeys(
    db,
    journalWrapKey(storageKey, secret),
    linkJournalRoot(storageKey, secret),
  );
  const services: Services = { config, db, secret, mailer, store, sessions, journalKeys, log: app.log };
  // Before anything is listed: files stored before the index existed get their rows.
  await indexStoredFiles(services);
  const interrupted = await settleInterrupted(services);
  if (interrupted > 0) app.log.info({ stored: interrupted }, 'settled uploads a stop had interrupted');
  await ensureAdmin(db, config, app.log);
  return { services, local, closeStore };
}

/** Installs the request hooks, the API routes, the local store's routes and the web app with its SPA fallback. */
async function installHttp(
  app: FastifyInstance,
  services: Services,
  local: LocalObjectStore | undefined,
  deadlines: RequestDeadlines,
): Promise<void> {
  const { config, mailer } = services;
  installErrorHandler(app);
  installBodyDeadlines(app, deadlines);
  installProtocolChecks(app);
  installForwardedForCheck(app);
  installJsonParser(app);
  await app.register(cookie);
  installSecurityHeaders(app, services);
  installSecurity(app, services);

  authRoutes(app, services);
  passkeyRoutes(app, services);
  adminUserRoutes(app, services);
  clientRoutes(app, services);
  clientLinkRoutes(app, services);
  linkSessionRoutes(app, services);
  docRoutes(app, services);
  downloadRoutes(app, services);
  reassignRoutes(app, services);
  auditRoutes(app, services);
  configRoutes(app, services);
  journalKeyRoutes(app, services);
  settingsRoutes(app, services);
  readingRoutes(app, services);
  seasonRoutes(app, services);
  seasonDownloadRoute(app, services);
  if (local) await app.register(localStorageRoutes(local), { prefix: '/api/storage' });
  if (mailer.kind === 'outbox') {
    if (config.devOutbox) devRoutes(app, services);
    app.log.warn(
      `No SMTP_URL: sign-in and reset codes are written to this server's log` +
        (config.devOutbox ? ' and can be read by anyone on this machine at /api/dev/outbox' : '') +
        '. Set SMTP_URL before volunteers use this server' +
        (config.devOutbox ? ' (or DEV_OUTBOX=false to turn the outbox page off).' : '.'),
    );
  }

  const webDist = config.webDist ?? defaultWebDist();
  const indexHtml = loadIndexHtml(webDist, config.programmeUrl);
  const pageFor = indexHtml === null ? null : appPages(webDist, indexHtml, config.programmeUrl);
  // The client's document-request page is a page of its own (apps/web/u.html): a phone gets only it.
  const clientPageHtml = readPage(webDist, 'u.html');
  if (indexHtml !== null) await app.register(fastifyStatic, webAppFiles(webDist));
  app.setNotFoundHandler((request, reply) => {
    // The SPA owns every non-API path (it redirects unknown ones to /); the API answers 404 JSON.
    // Judged by the decoded path, as the router judges it: `/%61pi/x` is an API path too.
    const route = requestPath(request);
    if (clientPageHtml !== null && request.method === 'GET' && route === '/u') {
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(clientPageHtml);
    }
    if (pageFor !== null && request.method === 'GET' && !route.startsWith('/api/')) {
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(pageFor(route));
    }
    return reply.code(404).send({ error: 'Not found.' });
  });
}

/**
 * Runs `work` now and then every `intervalMs`, each tick only if this process claims the interval's
 * run (one run per interval across the processes sharing the database; a start always runs). Runs
 * under way are in `running`.
 */
function recurringOn({ db, log }: Services, running: Set<Promise<unknown>>) {
  return (name: string, intervalMs: number, work: () => Promise<unknown>, failed: string) => {
    const run = (claimMs: number) => {
      const done = claimRun(db, name, claimMs)
        .then(async (mine) => {
          if (!mine) return;
          await work();
          // Said once per run: an operator (and the reliability suite) sees when the work is done.
          log.info({ job: name }, 'background job finished');
        })
        .catch((err: unknown) => log.warn({ err }, failed));
      running.add(done);
      void done.finally(() => running.delete(done));
    };
    run(0);
    const timer = setInterval(() => run(intervalMs), intervalMs);
    timer.unref();
    return timer;
  };
}

/** Starts the background work: each recurring job runs now, then on its timer; the one-off jobs run once. */
function startBackgroundWork(services: Services, local: LocalObjectStore | undefined): BackgroundWork {
  const { db, log, config } = services;
  const policy = { idleMinutes: config.sessionIdleMinutes, maxHours: config.sessionMaxHours };
  const housekeeping = setInterval(() => {
    Promise.all([
      pruneSessions(db, policy),
      pruneRateLimits(db),
      pruneRefusals(db),
      pruneCodes(db),
      pruneChallenges(db),
      pruneThrottle(db),
      services.journalKeys.prune(),
    ]).catch((err: unknown) => log.warn({ err }, 'housekeeping failed'));
  }, 15 * 60_000);
  housekeeping.unref();
  /** Recurring work under way, awaited by `finished`. */
  const running = new Set<Promise<unknown>>();
  const recurring = recurringOn(services, running);
  // Uploads settled, abandoned ones dropped, bytes no document refers to removed: now, then regularly.
  const sweeper = recurring(
    'sweep',
    SWEEP_INTERVAL_MS,
    () => sweep(services, { graceMs: SWEEP_GRACE_MS }),
    'sweep failed',
  );
  // The retention rule: now, then every hour (each run does what is due and nothing twice).
  const retention = recurring(
    'retention',
    RETENTION_INTERVAL_MS,
    () => runRetention(services, new Date()),
    'retention run failed',
  );
  // Clients who have not pressed Done are reminded on day 3 and 6; links past their end are closed.
  const reminders = recurring(
    'client-link-reminders',
    LINK_REMINDER_INTERVAL_MS,
    () => remindAndExpire(db, services.mailer),
    'client link reminders failed',
  );
  // A season close a crash interrupted is finished now, whatever step it had reached.
  const resuming = resumeSeasonClose(services).then(
    (year) => year !== undefined && log.info({ year }, 'an interrupted season close was finished'),
    (err: unknown) =>
      log.warn({ err }, 'finishing an interrupted season close failed; the next start tries again'),
  );
  // Files stored before encryption are encrypted in the background; a stop resumes at the next start.
  const stopOneOffs = new AbortController();
  const encrypting = local
    ? encryptStoredFiles(local, services, { signal: stopOneOffs.signal }).catch((err: unknown) =>
        log.warn(
          { code: err instanceof Error ? err.name : 'unknown' },
          'encrypting stored files failed; the next start tries again',
        ),
      )
    : Promise.resolve();
  // Names stored before every name was given its type's extension get it, once, in the background.
  const naming = fixDocumentNames(services, { signal: stopOneOffs.signal }).catch((err: unknown) =>
    log.warn(
      { code: err instanceof Error ? err.name : 'unknown' },
      'typing stored names failed; the next start tries again',
    ),
  );
  return {
    stop() {
      for (const timer of [housekeeping, sweeper, retention, reminders]) clearInterval(timer);
      stopOneOffs.abort();
    },
    finished: async () => {
      await Promise.all(running);
      await resuming;
      await encrypting;
      await naming;
    },
  };
}

/** Opens the services, installs HTTP, starts the background work, and last the session-change listener. */
async function assemble(
  app: FastifyInstance,
  config: Config,
  connection: string | PoolConfig,
  embedded: EmbeddedPostgres | undefined,
  options: BuildOptions,
  deadlines: RequestDeadlines,
): Promise<Server> {
  const { services, local, closeStore } = await openServices(app, config, connection, options);
  // First of the hooks: a GET a stopping process sends elsewhere costs it nothing.
  const stop = gracefulStop(app);
  await installHttp(app, services, local, deadlines);
  const background = startBackgroundWork(services, local);
  // Last, when nothing can fail any more: until it listens, no session lookup is kept.
  const listener = listenForAuthChanges(connection, services.sessions, (err) =>
    app.log.warn(
      { message: err.message },
      'the connection that hears session changes failed; sessions are looked up every time until it is back',
    ),
  );
  return {
    app,
    services,
    async close(deadlineMs = SHUTDOWN_DEADLINE_MS) {
      background.stop();
      await stop(config.drainSeconds * 1000, deadlineMs);
      await background.finished();
      services.mailer.close();
      closeStore();
      await listener.close();
      await services.db.destroy();
      await embedded?.stop();
    },
  };
}
