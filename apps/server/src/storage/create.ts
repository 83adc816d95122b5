/** Builds the configured object store: S3-compatible when `S3_*` is set, else the local disk under DATA_DIR. */
import { createHmac } from 'node:crypto';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import { auditFetch } from '../audit.js';
import { findDocument, markStored } from '../documents/documents.js';
import type { Config } from '../env.js';
import { assertDocKey, documentRef } from './keys.js';
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

/** The signed-URL key's label: a key of its own, so a link signature is never valid as anything else. */
const URL_SIGNING_LABEL = 'vita-docs/local-storage-url/v2';

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
    // The AWS SDK is slow to load: only servers that use S3 pay for it.
    const { createS3Store } = await import('./s3.js');
    const s3 = createS3Store({ ...config.s3, timeoutMs: config.dependencyTimeoutMs });
    return { store: s3, local: undefined, storageKey: null, close: () => s3.client.destroy() };
  }
  const encryption =
    deps.encrypt === false
      ? null
      : await loadStorageKey(config.storageKey, { db, dataDir: config.dataDir, log });
  const local: LocalObjectStore = createLocalStore({
    root: path.join(config.dataDir, 'files'),
    encryption,
    onDamaged: (key, reason) =>
      log.error(
        { document: documentRef(key), reason },
        'a stored file failed its integrity check; it is not served',
      ),
    // From the storage key, never the database: a copy of the data directory cannot sign a link.
    // Only the benchmark's plain store has no storage key.
    signingKey:
      encryption?.derive(URL_SIGNING_LABEL) ??
      createHmac('sha256', deps.secret).update(URL_SIGNING_LABEL).digest(),
    onFetch: (grant, ip) =>
      auditFetch(db, {
        issuedUnder: grant.issuedUnder,
        clientId: assertDocKey(grant.key).clientId,
        key: grant.key,
        ip,
      }),
    baseUrl: `${config.publicUrl ?? ''}/api/storage`,
    // PDF previews are framed by the web app (same origin) and by the desktop kiosk's page.
    frameAncestors: "'self' app://vita",
    uploads: {
      // An upload URL must not outlive its document row (client or category deleted while the link
      // was still valid), nor be used twice.
      async before(key) {
        const row = await findDocument(db, key);
        if (!row) throw gone();
        if (row.state !== 'pending') {
          throw uploadLinkUsed();
        }
        return {
          size: row.declared_size === null ? null : Number(row.declared_size),
          sha256: row.declared_sha256,
        };
      },
      async after(key, digest, ip) {
        if (await markStored(db, key, digest, ip)) return;
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
