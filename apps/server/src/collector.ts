/**
 * Garbage-collector tuning for a process that streams files. Every byte a download or upload moves
 * passes through a fresh Buffer (a file read, a decrypted chunk), and V8 counts the memory those
 * Buffers hold, once allocated since the last full collection, against the old generation's
 * headroom. Left to itself, V8 sizes that headroom from how busy the collector recently was: in about
 * half of the server processes measured on a 2-core machine (2026-11-25, `--trace-gc-verbose`),
 * one burst of collections shrank it to 1.2× the live heap, after which the Buffers of ~60 ms of
 * streaming filled it, started the next full collection, which kept the headroom small — a loop
 * that lasted the process's whole life and cost two to three times the CPU per MB served (ZIP at
 * 120–200 MB/s instead of 400–500). A fixed growing factor of 3 keeps every process out of that loop
 * (measured: 2 still fell into it every time, 3 and 4 never); V8 itself picks 4 for a small heap
 * when the collector is idle, and 3 holds less garbage while slow readers keep buffers alive.
 */
import { setFlagsFromString } from 'node:v8';

const FLAG = '--heap-growing-percent';

/** Applies the tuning, unless the process was started with its own `--heap-growing-percent`. */
export function tuneCollector(): void {
  // (V8 does not accept the flag in NODE_OPTIONS: only the command line can give it.)
  if (process.execArgv.some((arg) => arg.startsWith(FLAG))) return;
  setFlagsFromString(`${FLAG}=200`);
}
