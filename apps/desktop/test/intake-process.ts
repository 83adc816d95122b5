/**
 * Runs the headless intake as a real child process (the way a desk runs it, minus pnpm) and lets a
 * test wait for its output lines. Every wait is event-based with a generous limit.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';

const desktopDir = join(import.meta.dirname, '..');

/** A running intake process. */
export interface IntakeProcess {
  stdout: string[];
  stderr: string[];
  /** Writes one line to its standard input. */
  answer(line: string): void;
  /** Resolves with the first stdout line (past or future) matching `pattern`. */
  line(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves once stderr (prompts, notes) has shown `pattern`. */
  note(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Sends Ctrl-C and resolves with the exit code. */
  interrupt(): Promise<number | null>;
  exited: Promise<number | null>;
}

/** Starts `src/cli/intake.ts` with `args`. */
export function spawnIntake(args: string[]): IntakeProcess {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=vita-source', 'src/cli/intake.ts', ...args],
    { cwd: desktopDir, stdio: 'pipe' },
  );
  const stdout: string[] = [];
  const stderr: string[] = [];
  const wakers = new Set<() => void>();
  const wake = (): void => {
    for (const w of [...wakers]) w();
  };
  const collect = (into: string[]) => {
    let partial = '';
    return (chunk: Buffer): void => {
      partial += chunk.toString();
      const parts = partial.split('\n');
      partial = parts.pop() ?? '';
      into.push(...parts);
      // Prompts end without a newline: keep them visible while they wait for an answer.
      if (partial) {
        into.push(partial);
        partial = '';
      }
      wake();
    };
  };
  child.stdout.on('data', collect(stdout));
  child.stderr.on('data', collect(stderr));
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      wake();
      resolve(code);
    });
  });

  const waitIn = (lines: string[], pattern: RegExp, timeoutMs = 90_000): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = lines.find((l) => pattern.test(l));
        if (found !== undefined) {
          done();
          resolve(found);
          return true;
        }
        if (child.exitCode !== null) {
          done();
          reject(
            new Error(
              `intake exited (${child.exitCode}) before ${pattern}:\n${[...stdout, '--- stderr', ...stderr].join('\n')}`,
            ),
          );
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(
            `no ${pattern} within ${timeoutMs} ms:\n${[...stdout, '--- stderr', ...stderr].join('\n')}`,
          ),
        );
      }, timeoutMs);
      const waker = (): void => void check();
      const done = (): void => {
        clearTimeout(timer);
        wakers.delete(waker);
      };
      if (!check()) wakers.add(waker);
    });

  return {
    stdout,
    stderr,
    answer: (line) => void child.stdin.write(`${line}\n`),
    line: (pattern, timeoutMs) => waitIn(stdout, pattern, timeoutMs),
    note: (pattern, timeoutMs) => waitIn(stderr, pattern, timeoutMs),
    async interrupt() {
      if (child.exitCode === null) child.kill('SIGINT');
      return exited;
    },
    exited,
  };
}
