/**
 * Encrypts, in the background, the local store's files written before encryption existed. Each file
 * is encrypted to a temp file, fsynced and renamed over the plain one (`encryptInPlace`), so a stop
 * at any moment leaves every file whole, plain or encrypted; the next start walks the store again
 * and skips what is encrypted already (the header's magic says which). When a walk finds nothing
 * left to do, the job is recorded as done and from then on a plain file is damage, never served.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import { documentRef } from './keys.js';
import type { LocalObjectStore } from './local.js';
import type { InPlaceResult } from './local-write.js';

const JOB = 'encrypt-stored-files';

/** What one run did, file by file. */
export type EncryptReport = Record<InPlaceResult | 'failed', number>;

const errorCode = (error: unknown): string =>
  error instanceof Error
    ? 'code' in error && typeof error.code === 'string'
      ? error.code
      : error.name
    : 'unknown';

/**
 * Encrypts every plain file of `store` (which must have a key), unless a run finished before. Stops
 * between two files when `signal` aborts (the next start resumes). Undefined when there was nothing
 * to do.
 */
export async function encryptStoredFiles(
  store: LocalObjectStore,
  deps: { db: Db; log: FastifyBaseLogger },
  options: { signal?: AbortSignal } = {},
): Promise<EncryptReport | undefined> {
  const { db, log } = deps;
  if (!store.encryption) return undefined;
  if (await db.selectFrom('server_jobs').select('name').where('name', '=', JOB).executeTakeFirst()) {
    store.refusePlaintext();
    return undefined;
  }
  const report: EncryptReport = { encrypted: 0, already: 0, gone: 0, unrecognised: 0, failed: 0 };
  for await (const { key } of store.walk()) {
    if (options.signal?.aborted) {
      log.info(
        { encrypted: report.encrypted },
        'encrypting stored files: stopped; the next start carries on',
      );
      return report;
    }
    try {
      const result = await store.encryptInPlace(key);
      report[result] += 1;
      if (result === 'encrypted' && report.encrypted === 1)
        log.info('encrypting the stored files written before encryption, in the background');
      if (result === 'unrecognised')
        log.warn(
          { document: documentRef(key) },
          'a stored file is neither encrypted nor a document; left as it is (it will not be served)',
        );
    } catch (error) {
      report.failed += 1;
      log.warn(
        { document: documentRef(key), code: errorCode(error) },
        'could not encrypt a stored file; the next start tries again',
      );
    }
  }
  if (report.failed === 0) {
    await db
      .insertInto('server_jobs')
      .values({ name: JOB })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    store.refusePlaintext();
  }
  if (report.encrypted > 0 || report.failed > 0) log.info(report, 'encrypting stored files: done');
  return report;
}
