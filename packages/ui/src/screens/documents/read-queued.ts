/**
 * Reading a queued file on the device: loaded with the upload part (never with the category page),
 * since only a queued file is ever read.
 */
import { readingVerdict } from '@vita-docs/core';
import type { DocumentReader, FileLike } from '@vita-docs/core';
import { recordVerdict, startReading } from './readings';

let reader: Promise<DocumentReader> | undefined;

function readerFor(folder: string): Promise<DocumentReader> {
  reader ??= import('./reader-loader').then((m) =>
    m.createWorkerReader({ assets: m.readerAssetsIn(folder) }),
  );
  return reader;
}

/**
 * Reads a queued file (as chosen: the photo, not the PDF made of it) in the reader's worker, once;
 * the upload does not wait for it. A failure to read says nothing.
 */
export function readQueued(
  id: string,
  original: FileLike,
  category: string,
  folder: string,
  now: () => Date,
): void {
  if (!startReading(id)) return;
  void (async () => {
    const bytes = new Uint8Array(await original.arrayBuffer());
    const reading = await (await readerFor(folder)).readDocument(bytes);
    recordVerdict(id, readingVerdict(reading, category, now()) ?? null);
  })().catch(() => undefined);
}
