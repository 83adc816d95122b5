/**
 * Garbage-collector tuning for a process that streams files. Every byte a download or upload moves
 * passes through a fresh Buffer (a file read, a decrypted chunk), and V8 counts the memory those
 * Buffers hold, once allocated since the last full collection, against the old generation's
 * headroom. Left to itself, V8 sizes that headroom from how busy the collector recently was, so a
 * burst of collections can shrink it until a moment of streaming fills it and starts the next full
 * collection, which keeps it small: a loop that lasts the process's whole life and multiplies the
 * CPU every MB served costs. A fixed growing factor keeps the headroom from shrinking that far. It
 * is 3: the factor V8 picks for a small heap with an idle collector is larger, and a smaller one
 * holds less garbage while slow readers keep buffers alive, but too small a one falls into the loop
 * again. What was measured, and how: docs/architecture.md, "The collector while streaming".
 */
import { setFlagsFromString } from 'node:v8';

const FLAG = '--heap-growing-percent';

/** Applies the tuning, unless the process was started with its own `--heap-growing-percent`. */
export function tuneCollector(): void {
  // (V8 does not accept the flag in NODE_OPTIONS: only the command line can give it.)
  if (process.execArgv.some((arg) => arg.startsWith(FLAG))) return;
  setFlagsFromString(`${FLAG}=200`);
}
