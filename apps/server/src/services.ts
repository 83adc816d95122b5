import type { JournalKeys } from './auth/journal-keys.js';
import type { SessionCache } from './auth/session-cache.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db/database.js';
import type { Config } from './env.js';
import type { Mailer } from './mail/mailer.js';
import type { ObjectStore } from './storage/types.js';

/** What route modules are given: the composition root builds this once. */
export interface Services {
  config: Config;
  db: Db;
  /** Server-wide HMAC key (CSRF tokens, code hashes, signed URLs). */
  secret: Buffer;
  mailer: Mailer;
  /** Document files: local disk or S3-compatible. The source of truth for what a client has. */
  store: ObjectStore;
  /** Session lookups kept in memory while the database's change notifications are heard. */
  sessions: SessionCache;
  /** The keys that seal each person's kept uploads on their devices. */
  journalKeys: JournalKeys;
  log: FastifyBaseLogger;
}
