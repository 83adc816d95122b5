import fs from 'node:fs/promises';
import path from 'node:path';
import { run, type RunAs } from './process.js';

/** The account the cluster runs as when the server itself runs as root (PostgreSQL refuses root). */
const POSTGRES_ACCOUNT = 'postgres';

interface Log {
  warn(message: string): void;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

async function lookup(name: string): Promise<Required<RunAs> | undefined> {
  const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
  if (uid.code !== 0 || gid.code !== 0) return undefined;
  return { uid: Number.parseInt(uid.stdout, 10), gid: Number.parseInt(gid.stdout, 10) };
}

/**
 * This process's own identity ({}), or — as root, in containers and CI — the unprivileged
 * `postgres` account, created as a system user (no home, no shell) when missing.
 */
export async function clusterOwner(log: Log): Promise<RunAs> {
  if (!isRoot()) return {};
  const existing = await lookup(POSTGRES_ACCOUNT);
  if (existing) return existing;
  log.warn(
    `Running as root: creating the system user "${POSTGRES_ACCOUNT}" to run the embedded PostgreSQL, ` +
      'which refuses to run as root.',
  );
  const created = await run('useradd', [
    '--system',
    '--user-group',
    '--no-create-home',
    '--home-dir',
    '/nonexistent',
    '--shell',
    '/usr/sbin/nologin',
    POSTGRES_ACCOUNT,
  ]).catch((err: unknown) => ({ code: -1, stdout: '', stderr: String(err) }));
  const ids = await lookup(POSTGRES_ACCOUNT);
  if (!ids) {
    throw new Error(
      `PostgreSQL refuses to run as root, and the user "${POSTGRES_ACCOUNT}" could not be created ` +
        `(${created.stderr.trim() || `useradd exited with ${created.code}`}). Create an unprivileged user ` +
        `named ${POSTGRES_ACCOUNT}, run the server as a normal user, or set DATABASE_URL.`,
    );
  }
  return ids;
}

/**
 * Makes sure the cluster's owner can reach `dir`: as root, the data directory is opened to the
 * owner's group for traversal only (0710), and every folder above it must already let it pass.
 */
export async function ensureReachable(dir: string, owner: RunAs): Promise<void> {
  if (owner.uid === undefined || owner.gid === undefined) return;
  const stat = await fs.stat(dir);
  if ((stat.mode & 0o001) === 0 && !(stat.gid === owner.gid && (stat.mode & 0o010) !== 0)) {
    await fs.chown(dir, stat.uid, owner.gid);
    await fs.chmod(dir, (stat.mode & 0o777) | 0o010);
  }
  for (let parent = path.dirname(dir); ; parent = path.dirname(parent)) {
    const s = await fs.stat(parent);
    const passes =
      (s.mode & 0o001) !== 0 ||
      (s.gid === owner.gid && (s.mode & 0o010) !== 0) ||
      (s.uid === owner.uid && (s.mode & 0o100) !== 0);
    if (!passes) {
      throw new Error(
        `The embedded PostgreSQL runs as the user "${POSTGRES_ACCOUNT}", which cannot reach ${dir}: ` +
          `${parent} (mode ${(s.mode & 0o777).toString(8)}) does not let it pass. Put DATA_DIR where that user ` +
          'can reach it (for example /var/lib/vita-docs), run the server as a normal user, or set DATABASE_URL.',
      );
    }
    if (path.dirname(parent) === parent) return;
  }
}
