import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** s3rver ships no types; this is the part the tests use. */
type S3rverCtor = new (options: Record<string, unknown>) => {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
};

/** A request that reached the S3 server (through the recording proxy). */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

/**
 * An answer the proxy gives instead of passing a request on, for the requests `when` picks: a
 * refusing S3 (wrong credentials: 403 `SignatureDoesNotMatch`; an outage: 500 with no body), which
 * s3rver itself never gives, as it checks no signatures.
 */
export interface S3Fault {
  status: number;
  /** S3's error code, sent as an XML error body (a HEAD answer has no body whatever this says). */
  code?: string;
  when(request: { method: string; url: string }): boolean;
}

/**
 * A proxy in front of s3rver that records every request (method, URL, headers) and passes it on
 * unchanged (what the server and the browser actually sent to "S3"), unless a fault is set that
 * picks it.
 */
async function recordingProxy(
  target: number,
  requests: RecordedRequest[],
  faults: { current: S3Fault | null },
) {
  const proxy = http.createServer((request, response) => {
    const seen = { method: request.method ?? '', url: request.url ?? '' };
    requests.push({ ...seen, headers: request.headers });
    const fault = faults.current;
    if (fault?.when(seen)) {
      const body = fault.code
        ? `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${fault.code}</Code><Message>${fault.code}</Message></Error>`
        : '';
      request.resume();
      response.writeHead(fault.status, {
        'content-type': 'application/xml',
        'content-length': Buffer.byteLength(body),
      });
      response.end(seen.method === 'HEAD' ? undefined : body);
      return;
    }
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: target,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    port: (proxy.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}

/**
 * An in-process S3-compatible server on a random port, with one bucket, and the env to use it. With
 * `record`, the env points at a proxy that keeps every request in `requests`; with `faults`, at one
 * that also answers what {@link S3Fault} `fault(…)` sets in S3's place (null passes all on again).
 */
export async function startS3rver(
  bucket = 'vita-docs',
  options: { record?: boolean; faults?: boolean } = {},
) {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverCtor;
  const directory = await mkdtemp(path.join(tmpdir(), 'vita-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const requests: RecordedRequest[] = [];
  const faults: { current: S3Fault | null } = { current: null };
  const proxy = options.record || options.faults ? await recordingProxy(port, requests, faults) : undefined;
  return {
    env: {
      S3_ENDPOINT: `http://127.0.0.1:${proxy?.port ?? port}`,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    requests,
    fault(fault: S3Fault | null) {
      faults.current = fault;
    },
    /** Deletes an object behind the server's back (s3rver checks no signature). */
    async remove(key: string) {
      const res = await fetch(
        `http://127.0.0.1:${port}/${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`,
        {
          method: 'DELETE',
        },
      );
      if (!res.ok) throw new Error(`delete ${key}: ${res.status}`);
    },
    async close() {
      await proxy?.close();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
