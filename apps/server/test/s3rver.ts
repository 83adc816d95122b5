import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** s3rver ships no types; this is the part the tests use. */
type S3rverCtor = new (options: Record<string, unknown>) => { run(): Promise<AddressInfo>; close(): Promise<void> };

/** An in-process S3-compatible server on a random port, with one bucket, and the env to use it. */
export async function startS3rver(bucket = 'vita-docs') {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverCtor;
  const directory = await mkdtemp(path.join(tmpdir(), 'vita-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    env: {
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
