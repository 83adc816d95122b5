import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';

/** Who runs PostgreSQL: this process's user, or an unprivileged account when the server runs as root. */
export interface RunAs {
  uid?: number;
  gid?: number;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program to completion (never through a shell, so paths need no quoting). */
export function run(file: string, args: string[], runAs: RunAs = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { ...runAs, maxBuffer: 4 * 1024 * 1024, windowsHide: true },
      (err, stdout, stderr) => {
        if (err && typeof err.code !== 'number') return reject(new Error(err.message, { cause: err }));
        resolve({ code: typeof err?.code === 'number' ? err.code : 0, stdout, stderr });
      },
    );
  });
}

/** True while a process with this pid exists (one owned by another user counts). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The command line of a live process where the OS shows it (Linux), else undefined. */
export async function commandLine(pid: number): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    return (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').join(' ');
  } catch {
    return undefined;
  }
}

/** The last `lines` lines of a text file ('' when it does not exist). */
export async function tail(file: string, lines = 20): Promise<string> {
  try {
    const handle = await fs.open(file, 'r');
    try {
      const { size } = await handle.stat();
      const length = Math.min(size, 16 * 1024);
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, size - length);
      return buffer
        .toString('utf8')
        .split('\n')
        .slice(-lines - 1)
        .join('\n')
        .trim();
    } finally {
      await handle.close();
    }
  } catch {
    return '';
  }
}
