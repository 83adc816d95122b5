/**
 * The data directory holds the database (with the HMAC key that signs download URLs, unless
 * SESSION_SECRET comes from the environment), documents and logs: it must be private to the server's
 * user. Created 0700; an existing one that others may read or write stops the server.
 */
import fs from 'node:fs/promises';

/** Group or others may list, read or write (group traversal alone is allowed: the embedded PostgreSQL's group uses it). */
const TOO_OPEN = 0o067;

export async function preparePrivateDataDir(dataDir: string): Promise<void> {
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  const { mode } = await fs.stat(dataDir);
  if ((mode & TOO_OPEN) !== 0) {
    throw new Error(
      `The data directory ${dataDir} can be read by other users (mode ${(mode & 0o777).toString(8)}); it holds ` +
        `client documents and the key that signs download links. Make it private, then start again: chmod 700 ${dataDir}`,
    );
  }
}
