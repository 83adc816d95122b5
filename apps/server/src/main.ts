import { buildServer } from './app.js';
import { ConfigError, loadConfig, type Config } from './env.js';

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

const server = await buildServer(config);
await server.app.listen({ port: config.port, host: config.host });

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.app.log.info(`${signal}: shutting down`);
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        server.app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
