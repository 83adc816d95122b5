import fs from 'node:fs/promises';
import path from 'node:path';
import { commandLine, isAlive } from './process.js';

export interface DataDirLock {
  release(): Promise<void>;
}

/**
 * One server per data directory: two postmasters cannot share a cluster, and two servers sharing
 * one would each take the other's PostgreSQL for an orphan to stop. The lock is a pid file; a file
 * whose process is gone (the server was killed) is stale and taken over.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const file = path.join(dataDir, 'server.pid');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      await fs.writeFile(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return {
        async release() {
          const owner = await fs.readFile(file, 'utf8').catch(() => '');
          if (Number.parseInt(owner, 10) === process.pid) await fs.rm(file, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = Number.parseInt(await fs.readFile(file, 'utf8').catch(() => ''), 10);
    if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid) && (await looksLikeNode(pid))) {
      throw new Error(
        `Another server (pid ${pid}) is using the data directory ${dataDir}. Stop it first, or give this ` +
          'server its own DATA_DIR.',
      );
    }
    await fs.rm(file, { force: true });
  }
  throw new Error(`Another server is starting on the data directory ${dataDir} at the same time.`);
}

/** A recycled pid (after a reboot or in a container) belongs to some other program, not to a server. */
async function looksLikeNode(pid: number): Promise<boolean> {
  const cmd = await commandLine(pid);
  return cmd === undefined || /node|electron/i.test(cmd);
}
