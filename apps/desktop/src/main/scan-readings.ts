/**
 * Reads each new scan of the inbox once, on the device (docs/behaviour.md#reading-documents): one at
 * a time, beside the inbox (never before a scan is listed nor an upload starts). Only the reading
 * (form, tax year, an ID's expiry date) is kept, in memory, by scan id; a scan that cannot be read
 * has none, and nothing is said or logged about it.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { DocumentReader } from '@vita-docs/core';
import type { InboxScan } from '../shared/bridge.js';

/** What the panel is told of a scan's reading. */
export type ScanReading = NonNullable<InboxScan['reading']>;

/** The readings of one desk's scans. */
export interface ScanReadings {
  /** Reads the file at `path` for scan `id`, after the scans queued before it; a scan is read once. */
  add(id: string, path: string): void;
  get(id: string): ScanReading | undefined;
  /** Drops a scan that left the inbox (queued, its reading is skipped). */
  forget(id: string): void;
  /** Skips the scans still queued, waits for the one being read and closes the reader. */
  close(): Promise<void>;
}

/** Options for {@link createScanReadings}. */
export interface ScanReadingsOptions {
  /**
   * Makes the reader, on the first scan (its OCR worker is costly; a desk without scans never starts
   * it). Its readings must end: core's Node reader gives each 60 s, then ends the thread it read in
   * and answers an empty reading, so a stuck or hostile scan holds no later one.
   */
  createReader: () => Promise<DocumentReader>;
  /** A scan got a reading. */
  onRead: (id: string) => void;
  /** Scans larger than this (bytes) are not read; default 30 MB. */
  maxBytes?: number;
}

/**
 * A scan's first page is what is read: a scanner's letter page is a few MB. A far larger file costs
 * the desk's memory and the reader's time for nothing (a hostile one, in a shared folder, for that alone).
 */
const MAX_READ_BYTES = 30 * 1024 * 1024;

/**
 * The bytes of the regular file at `path`, at most `maxBytes` of them, or undefined for anything
 * else. A scan is listed as a file but read later, after the scans queued before it: whoever can
 * write the folder can swap it meanwhile. One handle is opened, never through a link (a link to
 * /dev/zero, its size 0, had Node read without end: 22 GB in 12 minutes), without waiting for a
 * writer (a named pipe held every later scan unread), and it is checked and read as it is.
 */
async function scanBytes(path: string, maxBytes: number): Promise<Uint8Array | undefined> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > maxBytes) return undefined;
    const { size } = stats;
    const bytes = new Uint8Array(size);
    let read = 0;
    while (read < size) {
      const { bytesRead } = await handle.read(bytes, read, size - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return bytes.subarray(0, read);
  } finally {
    await handle.close();
  }
}

/** Only what the panel may see, even if a reader returned more. */
function keptOf(reading: ScanReading): ScanReading | undefined {
  const kept: ScanReading = {};
  if (typeof reading.form === 'string') kept.form = reading.form;
  if (typeof reading.year === 'number') kept.year = reading.year;
  if (typeof reading.idExpiry === 'string') kept.idExpiry = reading.idExpiry;
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/** Creates the readings; nothing is read (and no reader made) until a scan is added. */
export function createScanReadings(options: ScanReadingsOptions): ScanReadings {
  const { createReader, onRead } = options;
  const readings = new Map<string, ScanReading>();
  const seen = new Set<string>();
  const queued = new Set<string>();
  let reader: Promise<DocumentReader> | undefined;
  let chain: Promise<void> = Promise.resolve();
  let closed = false;

  const maxBytes = options.maxBytes ?? MAX_READ_BYTES;

  const readOne = async (id: string, path: string): Promise<void> => {
    if (closed || !queued.delete(id)) return;
    try {
      const bytes = await scanBytes(path, maxBytes);
      if (!bytes) return;
      const made = (reader ??= createReader());
      const kept = keptOf(await (await made).readDocument(bytes));
      if (!kept || closed || !seen.has(id)) return;
      readings.set(id, kept);
      onRead(id);
    } catch {
      // A scan the reader cannot read (or a reader that would not start) says nothing, as in the browser.
    }
  };

  return {
    add(id, path) {
      if (closed || seen.has(id)) return;
      seen.add(id);
      queued.add(id);
      chain = chain.then(() => readOne(id, path));
    },
    get: (id) => readings.get(id),
    forget(id) {
      queued.delete(id);
      readings.delete(id);
      seen.delete(id);
    },
    async close() {
      closed = true;
      queued.clear();
      await chain;
      const made = reader;
      reader = undefined;
      await made?.then(
        (r) => r.close(),
        () => undefined,
      );
    },
  };
}
