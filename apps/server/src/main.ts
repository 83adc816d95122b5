import { buildServer, type Server } from './app.js';
import { tuneCollector } from './collector.js';
import { ConfigError, loadConfig, type Config } from './env.js';
import { serverOrigin } from './http/origin.js';

tuneCollector();

// Everything this process writes (files, logs, the database's password file) is its user's alone.
process.umask(0o077);

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

// In a terminal, one readable line per event; anywhere else (services, containers) JSON lines.
const logger = process.stdout.isTTY
  ? {
      level: config.logLevel,
      transport: {
        target: 'pino-pretty',
        options: { ignore: 'pid,hostname,reqId', translateTime: 'HH:MM:ss' },
      },
    }
  : { level: config.logLevel };

let server: Server;
try {
  server = await buildServer(config, { logger });
} catch (err) {
  console.error(`The server could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

try {
  await server.app.listen({ port: config.port, host: config.host });
} catch (err) {
  server.app.log.error(
    `Cannot listen on ${config.host}:${config.port}: ${err instanceof Error ? err.message : String(err)}`,
  );
  await server.close().catch(() => undefined);
  process.exit(1);
}
server.app.log.info(readyLine(config, server));

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.app.log.info(`${signal}: shutting down (requests in flight are finished first)`);
    // Should anything after the requests hang (the database not answering), the process still ends.
    setTimeout(() => process.exit(1), config.drainSeconds * 1000 + 60_000).unref();
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        server.app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

/** The one line a newcomer needs: where to open the app, and where sign-in codes go. */
function readyLine(config: Config, server: Server): string {
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = serverOrigin(config, server.app.server);
  const codes =
    server.services.mailer.kind !== 'outbox'
      ? 'sign-in codes are sent by email'
      : config.devOutbox
        ? `sign-in codes appear in this log and at http://localhost:${port}/api/dev/outbox, for a browser on this machine only`
        : 'sign-in codes appear in this log';
  return `Ready: open ${url} (${codes})`;
}
