/**
 * A download from the desk's server straight to a file the person chose: the season's archive can
 * hold every client's documents, far more than a renderer could hold in memory or pass over IPC, so
 * main streams it to disk. Written beside the target first and renamed when complete, so a cut
 * connection never leaves a truncated ZIP under the chosen name.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FetchLike } from './server-fetch.js';

/** What the server answered instead of the file: its `{ error }` text when it sent one. */
async function refusal(response: Response): Promise<Error> {
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === 'string' && body.error !== '') return new Error(body.error);
  } catch {
    // Not JSON: the status says enough.
  }
  return new Error(`The server answered ${response.status} ${response.statusText}`.trim() + '.');
}

/** Streams `url` (fetched with the desk's session) into `file`; resolves with the bytes written. */
export async function downloadToFile(fetch: FetchLike, url: string, file: string): Promise<number> {
  const response = await fetch(url, { method: 'GET' });
  if (!response.ok || !response.body) throw await refusal(response);
  const partial = `${file}.part`;
  let bytes = 0;
  try {
    const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    body.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    await pipeline(body, createWriteStream(partial, { mode: 0o600 }));
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return bytes;
}
