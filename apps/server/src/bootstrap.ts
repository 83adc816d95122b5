import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import { hashPin } from './auth/passwords.js';
import type { Db } from './db/database.js';
import type { Config } from './env.js';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The server's HMAC key: `SESSION_SECRET` when configured, else one generated on first start and
 * kept in the database so every process (and every restart) shares it.
 */
export async function loadSecret(db: Db, config: Config): Promise<Buffer> {
  if (config.sessionSecret) return Buffer.from(config.sessionSecret, 'utf8');
  await db
    .insertInto('server_secrets')
    .values({ name: 'hmac', value: randomBytes(32).toString('base64') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', 'hmac')
    .executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64');
}

/**
 * `ADMIN_EMAIL` + `ADMIN_PIN` make sure that approved admin exists. An existing account is promoted
 * but keeps its PIN, so a PIN changed through Forgot Password survives restarts.
 */
export async function ensureAdmin(db: Db, config: Config, log: FastifyBaseLogger): Promise<void> {
  if (!config.adminEmail || !config.adminPin) return;
  const pinHash = await hashPin(config.adminPin);
  const result = await db
    .insertInto('users')
    .values({
      email: config.adminEmail,
      first_name: 'Admin',
      last_name: 'User',
      pin_hash: pinHash,
      role: 'officer',
      is_admin: true,
      approved: true,
      approved_at: new Date(),
    })
    .onConflict((oc) =>
      oc.column('email').doUpdateSet({
        is_admin: true,
        approved: true,
        suspended: false,
        approved_at: sql`coalesce(users.approved_at, now())`,
      }),
    )
    .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
    .executeTakeFirstOrThrow();
  log.info(result.inserted ? 'bootstrap admin created' : 'bootstrap admin ensured');
}
