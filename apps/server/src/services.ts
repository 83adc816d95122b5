import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db/database.js';
import type { Config } from './env.js';
import type { Mailer } from './mail/mailer.js';

/** What route modules are given: the composition root builds this once. */
export interface Services {
  config: Config;
  db: Db;
  /** Server-wide HMAC key (CSRF tokens, code hashes, signed URLs). */
  secret: Buffer;
  mailer: Mailer;
  log: FastifyBaseLogger;
}
