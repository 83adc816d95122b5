/**
 * Questions on standard input that work both for a person at a terminal (the PIN is not echoed)
 * and for a script piping the answers in, one per line, possibly all at once.
 */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

/** Asks questions one after another. */
export interface Prompter {
  /** Writes `question` and resolves with the next line; `secret` hides typing on a terminal. */
  ask(question: string, options?: { secret?: boolean }): Promise<string>;
  close(): void;
}

/** A prompter on the given streams (standard input and standard error by default). */
export function createPrompter(
  input: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin,
  output: NodeJS.WritableStream = process.stderr,
): Prompter {
  let muted = false;
  // On a terminal readline echoes what is typed through `output`; muting it hides the PIN.
  const echo = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) output.write(chunk);
      done();
    },
  });
  const terminal = input.isTTY === true;
  const lines = createInterface({ input, output: echo, terminal });
  // Lines can arrive before they are asked for (piped input): queue them.
  const queued: string[] = [];
  const waiting: Array<{ resolve: (line: string) => void; reject: (error: Error) => void }> = [];
  let ended = false;
  lines.on('line', (line) => {
    const next = waiting.shift();
    if (next) next.resolve(line);
    else queued.push(line);
  });
  // Ctrl-C while a terminal prompt is open reaches readline, not the process: treat it as a stop.
  lines.on('SIGINT', () => {
    lines.close();
    process.kill(process.pid, 'SIGINT');
  });
  lines.on('close', () => {
    ended = true;
    for (const next of waiting.splice(0))
      next.reject(new Error('Standard input ended before the answer was given.'));
  });

  return {
    ask(question, options = {}) {
      output.write(question);
      const line = queued.shift();
      if (line !== undefined) {
        if (!terminal) output.write('\n');
        return Promise.resolve(line);
      }
      if (ended) return Promise.reject(new Error('Standard input ended before the answer was given.'));
      muted = options.secret === true && terminal;
      return new Promise<string>((resolve, reject) => {
        waiting.push({
          resolve: (answer) => {
            if (muted) output.write('\n');
            muted = false;
            if (!terminal) output.write('\n');
            resolve(answer);
          },
          reject,
        });
      });
    },
    close: () => lines.close(),
  };
}
