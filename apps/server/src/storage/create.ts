/** Builds the configured object store: S3-compatible when `S3_*` is set, else the local disk under DATA_DIR. */
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import { findDocument, markStored } from '../documents/documents.js';
import type { Config } from '../env.js';
import { documentRef } from './keys.js';
import { createLocalStore, type LocalObjectStore } from './local.js';
import type { StorageKey } from './encryption.js';
import { loadStorageKey } from './storage-key.js';
import { StorageError, uploadLinkUsed, type ObjectStore } from './types.js';

export interface ConfiguredStore {
  store: ObjectStore;
  /** The local store when that is the one configured: its signed URLs need routes. */
  local: LocalObjectStore | undefined;
  /** The local store's master key (null on S3, or with `encrypt: false`): other keys are derived from it. */
  storageKey: StorageKey | null;
  close: () => void;
}

const gone = () => new StorageError('not_found', 'This client or document type no longer exists.');

/**
 * The store the configuration names. The local store encrypts with the master key (see
 * `storage-key.ts`: a missing or wrong key throws); `encrypt: false` leaves its files plain, for the
 * benchmark that measures what encryption costs.
 */
export async function createObjectStore(
  config: Config,
  deps: { db: Db; secret: Buffer; log: FastifyBaseLogger; encrypt?: boolean },
): Promise<ConfiguredStore> {
  const { db, log } = deps;
  if (config.s3) {
    // The AWS SDK takes most of a second to load: only servers that use S3 pay for it.
    const { createS3Store } = await import('./s3.js');
    const s3 = createS3Store(config.s3);
    return { store: s3, local: undefined, storageKey: null, close: () => s3.client.destroy() };
  }
  const encryption =
    deps.encrypt === false ? null : await loadStorageKey(config.storageKey, { db, dataDir: config.dataDir, log });
  const local: LocalObjectStore = createLocalStore({
    root: path.join(config.dataDir, 'files'),
    encryption,
    onDamaged: (key, reason) =>
      log.error({ document: documentRef(key), reason }, 'a stored file failed its integrity check; it is not served'),
    secret: deps.secret,
    baseUrl: `${config.publicUrl ?? ''}/api/storage`,
    // PDF previews are framed by the web app (same origin) and by the desktop kiosk's page.
    frameAncestors: "'self' app://vita",
    uploads: {
      // An upload URL must not outlive its document row (client or category deleted while the link
      // was still valid), nor be used twice.
      async before(key) {
        const row = await findDocument(db, key);
        if (!row) throw gone();
        if (row.state === 'stored') {
          throw uploadLinkUsed();
        }
        return { size: row.declared_size === null ? null : Number(row.declared_size), sha256: row.declared_sha256 };
      },
      async after(key, digest) {
        if (await markStored(db, key, digest)) return;
        // Another request (a completion, the sweeper) may have recorded these very bytes already.
        const row = await findDocument(db, key);
        if (row?.state === 'stored' && row.sha256 === digest.sha256) return;
        if (row) throw uploadLinkUsed();
        // The row went while the bytes streamed in (the client or category was deleted): so do they.
        await local.delete([key]);
        throw gone();
      },
    },
  });
  // Temp files of uploads a crash interrupted; they were never visible, now they are gone.
  await local.removeStaleTemp();
  return { store: local, local, storageKey: encryption, close: () => undefined };
}
