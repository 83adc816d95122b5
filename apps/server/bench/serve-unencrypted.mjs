// The production build with the local store's files kept in plain (`unencryptedStorage`), for the
// encryption benchmark's "without" side: the same server and code paths, minus the cipher. The
// environment configures it as it does `node dist/main.js`; nothing else can start a server this way.
import { buildServer, loadConfig } from '../dist/app.js';
import { tuneCollector } from '../dist/collector.js';

tuneCollector();
const config = loadConfig();
const server = await buildServer(config, { unencryptedStorage: true });
await server.app.listen({ port: config.port, host: config.host });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
