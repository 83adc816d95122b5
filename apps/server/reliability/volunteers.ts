/**
 * How a simulated volunteer works, shared by the load and slow-clients scenarios: the same calls the
 * app makes (dashboard, a client, a category, an upload, sometimes a rename, a preview, a delete, now
 * and then the client's ZIP), the PDFs it uploads, the clients it works on, and the report's lines.
 */
import http from 'node:http';
import { FIXED_CATEGORIES, uploadToPresignedUrl, type FileLike, type PutFile } from '@vita-docs/core';
import {
  MB,
  latencySummary,
  newClient,
  randomPdf,
  sha256,
  upload,
  type Browser,
  type Recorder,
} from './harness.js';

/** Families the report gives percentiles for, in its order. */
const FAMILIES = ['JSON reads', 'JSON writes', 'upload PUT', 'view GET', 'ZIP'] as const;
/** No single request may take longer; past this it counts as an error (a timeout). */
const REQUEST_TIMEOUT_MS = 30_000;

/** A failed request to a URL the API handed out (the typed client raises its own errors). */
class HttpFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const signal = () => AbortSignal.timeout(REQUEST_TIMEOUT_MS);

/**
 * How long a connection to a URL the API handed out (the server's own file store, or S3) stays open
 * unused here. Well under the server's own limit (Node's and s3rver's 5 s; Fastify's 72 s): a server
 * closes an idle connection when its timer says so, and a request sent on it in that moment is reset
 * before any answer ("socket hang up"). Closing first on this side leaves no such moment unless this
 * process's timers run 3 s late. Node's agent applies a server's `Keep-Alive: timeout=` hint only when
 * it has a timeout of its own: without one it kept sockets for ever, and a view GET sent on one that
 * s3rver was closing failed a rolling restart in CI (docs/reliability.md, scenario 8).
 */
const IDLE_CONNECTION_MS = 2_000;

/**
 * The megabytes of uploads and previews go over node:http rather than `fetch`: the server sees the
 * same requests, and the load generator, which shares the two cores with the server it measures,
 * spends far less on them (`fetch` copies every request body and every answer once more, and its
 * streams cost more per chunk: undici's body handling and the garbage it makes were a fifth of the
 * generator's CPU). Connections are kept alive, as a browser keeps them, for {@link IDLE_CONNECTION_MS}.
 */
export const agent = new http.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS });

/** Sends one request of a volunteer over node:http; resolves with the status and the answer's bytes (counted, or kept). */
function request(
  browser: Browser,
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: Uint8Array; keep: boolean },
): Promise<{ status: number; size: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: init.method,
        agent,
        signal: signal(),
        headers: { ...init.headers, 'x-forwarded-for': browser.address },
      },
      (res) => {
        let size = 0;
        const kept: Buffer[] = [];
        // A refusal's words are kept whatever `keep` says (the error names them).
        const keep = init.keep || (res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) > 299;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (keep) kept.push(chunk);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, size, text: Buffer.concat(kept).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    // What the connection was is part of the failure: a reset on a reused one is the keep-alive race.
    req.on('error', (error) =>
      reject(
        new Error(`${error.message} (${req.reusedSocket ? 'a reused' : 'a new'} connection)`, {
          cause: error,
        }),
      ),
    );
    req.end(init.body);
  });
}

/** Reads a whole answer from a URL the API handed out (no cookies); its size; fails on a non-OK status. */
async function fetchSize(browser: Browser, url: string): Promise<number> {
  const answer = await request(browser, url, { method: 'GET', keep: false });
  if (answer.status < 200 || answer.status > 299)
    throw new HttpFailure(answer.status, answer.text.slice(0, 200));
  return answer.size;
}

/** The app's PUT to a signed URL, over node:http (see {@link agent}); no cookies, as the app sends none. */
const putOverHttp =
  (browser: Browser, bytes: Buffer): PutFile =>
  async (url, _file, contentType, _onProgress, headers) => {
    const answer = await request(browser, url, {
      method: 'PUT',
      headers: { ...headers, 'content-type': contentType },
      body: bytes,
      keep: true,
    });
    return { status: answer.status, ok: answer.status >= 200 && answer.status <= 299, body: answer.text };
  };

const asPdf = (name: string, bytes: Buffer): FileLike => ({
  name,
  type: 'application/pdf',
  size: bytes.length,
  arrayBuffer: async () =>
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
});

/** A ready PDF: its bytes and their SHA-256. */
export interface Pdf {
  bytes: Buffer;
  sha256: string;
}

/**
 * PDFs of 1–3 MB made before the clock starts: making random bytes and hashing them takes the load
 * generator several milliseconds per file, and it shares the CPUs with the server it measures.
 */
export function pdfPool(count: number): Pdf[] {
  return Array.from({ length: count }, () => {
    const bytes = randomPdf(MB + Math.floor(Math.random() * 2 * MB));
    return { bytes, sha256: sha256(bytes) };
  });
}

/** How one volunteer works. */
interface WorkOptions {
  /** What it uploads, one after the other. */
  pdfs: readonly Pdf[];
  /** Every this many loops the client's ZIP is downloaded; 0 never. */
  zipEvery: number;
  /** Where in that cycle this volunteer starts, so the ZIPs of many volunteers spread out rather than come together. */
  offset: number;
  /** Every this many loops the upload is renamed. */
  renameEvery: number;
  /** A person's pause before each click, drawn evenly from [least, most] ms; none when absent. */
  pauseMs?: readonly [number, number];
}

/** What the volunteers did, beyond the recorder's requests. */
export interface WorkCounts {
  loops: number;
  uploads: number;
  uploadedBytes: number;
  zips: number;
  zipBytes: number;
}

export const newCounts = (): WorkCounts => ({ loops: 0, uploads: 0, uploadedBytes: 0, zips: 0, zipBytes: 0 });

/**
 * One volunteer's loop until `until` (ms since the epoch), on its own client: each loop is a whole
 * visit, finished even past `until` so its upload is deleted again. A failed step is recorded and
 * ends that loop; the next one starts from the dashboard, as a volunteer would after an error.
 */
export async function workLoop(
  volunteer: Browser,
  clientId: string,
  recorder: Recorder,
  counts: WorkCounts,
  until: number,
  options: WorkOptions,
): Promise<void> {
  const { api } = volunteer;
  const read = <T>(endpoint: string, work: () => Promise<T>) => recorder.time('JSON reads', endpoint, work);
  const write = <T>(endpoint: string, work: () => Promise<T>) => recorder.time('JSON writes', endpoint, work);
  const params = { id: clientId };
  const [least, most] = options.pauseMs ?? [0, 0];
  /**
   * The time a person takes to look and click. A loop begun before `until` is finished at the same
   * pace: cutting the pauses short there made all the volunteers finish their loops in the same second,
   * a burst that is the capacity run's load, not a person's pace.
   */
  const click = async () => {
    const ms = least + Math.random() * (most - least);
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  };
  // People do not all start at the same second: each starts somewhere within its first loop's pauses
  // (within the first half of a short run).
  if (options.pauseMs)
    await new Promise((resolve) =>
      setTimeout(resolve, Math.random() * Math.min(most * 5, (until - Date.now()) / 2)),
    );
  for (let loop = 0; Date.now() < until; loop += 1) {
    counts.loops += 1;
    try {
      await click(); // the dashboard
      await read('me', () => api.me(undefined, { signal: signal() }));
      await read('listClients', () => api.listClients(undefined, { signal: signal() }));
      await click(); // a client
      const { types } = await read('docTypes', () => api.docTypes({ params }, { signal: signal() }));
      await read('docStatus', () => api.docStatus({ params }, { signal: signal() }));
      const docType = types[loop % types.length] ?? FIXED_CATEGORIES[0];
      await click(); // a category
      await read('listDocs', () => api.listDocs({ params, query: { docType } }, { signal: signal() }));

      // The app's upload: presign with size and SHA-256, PUT to the URL, complete.
      const pdf = options.pdfs[(loop + options.offset) % options.pdfs.length];
      if (!pdf) throw new Error('no PDFs to upload');
      const { bytes } = pdf;
      await click(); // Upload files
      const presigned = await write('presignUpload', () =>
        api.presignUpload(
          {
            params,
            body: {
              docType,
              filename: `scan ${loop}.pdf`,
              contentType: 'application/pdf',
              size: bytes.length,
              sha256: pdf.sha256,
            },
          },
          { signal: signal() },
        ),
      );
      // The same bytes under the same name are already in the category when an earlier loop failed
      // after its upload (before its delete): the server says so with an empty URL, and the app
      // sends nothing (core's uploadDocument). Reading that URL anyway threw "Invalid URL".
      if (!presigned.alreadyStored) {
        await recorder.time('upload PUT', 'PUT upload', () =>
          uploadToPresignedUrl(presigned.url, asPdf(`scan ${loop}.pdf`, bytes), {
            putFile: putOverHttp(volunteer, bytes),
            ...(presigned.headers ? { headers: presigned.headers } : {}),
          }),
        );
        await write('completeUpload', () =>
          api.completeUpload({ body: { key: presigned.key } }, { signal: signal() }),
        );
      }
      counts.uploads += 1;
      counts.uploadedBytes += bytes.length;
      let key = presigned.key;

      // Renames spread over the volunteers like their ZIPs, rather than everyone renaming in the same loop.
      if (
        options.renameEvery > 0 &&
        (loop + options.offset) % options.renameEvery === options.renameEvery - 1
      ) {
        await click();
        const renamed = await write('renameDoc', () =>
          api.renameDoc({ body: { key, filename: `renamed ${loop}` } }, { signal: signal() }),
        );
        key = renamed.newKey;
      }

      await click(); // View
      const view = await write('presignView', () => api.presignView({ body: { key } }, { signal: signal() }));
      const seen = await recorder.time('view GET', 'GET view', () => fetchSize(volunteer, view.url));
      if (seen !== bytes.length) throw new Error(`the preview was ${seen} bytes, not ${bytes.length}`);

      if (options.zipEvery > 0 && (loop + options.offset) % options.zipEvery === options.zipEvery - 1) {
        await click();
        const zip = await recorder.time('ZIP', 'downloadAll', async () => {
          const res = await api.downloadAll({ params, query: {} }, { signal: signal() });
          return Buffer.from(await res.arrayBuffer());
        });
        counts.zips += 1;
        counts.zipBytes += zip.length;
      }

      await click(); // Delete
      await write('deleteDocs', () => api.deleteDocs({ body: { keys: [key] } }, { signal: signal() }));
    } catch {
      // Recorded by the recorder (or below); the volunteer starts over.
    }
  }
}

/** Each volunteer's client, with one document already in it so its ZIP holds something. */
export async function clientsFor(volunteers: readonly Browser[]): Promise<string[]> {
  const clients: string[] = [];
  // A few at a time: setting up is not what is measured, but it should not take all day either.
  for (let i = 0; i < volunteers.length; i += 10) {
    const batch = volunteers.slice(i, i + 10);
    clients.push(
      ...(await Promise.all(
        batch.map(async (volunteer, j) => {
          const clientId = await newClient(volunteer, `Load ${i + j}`);
          await upload(volunteer, clientId, FIXED_CATEGORIES[0], 'intake.pdf', randomPdf(MB));
          return clientId;
        }),
      )),
    );
  }
  return clients;
}

/** "JSON reads 12 000 × p50 … ms" for each family that had requests. */
export function familyLines(recorder: Recorder): string[] {
  return FAMILIES.filter((family) => recorder.families.has(family)).map(
    (family) =>
      `${family} ${recorder.families.get(family)?.length ?? 0} × ${latencySummary(recorder.families.get(family) ?? [])}`,
  );
}
