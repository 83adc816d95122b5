/**
 * Journal keys (docs/security.md): one random AES-256 key per person, which seals what their devices
 * keep of their queued uploads (docs/behaviour.md#kept-uploads). The key never rests on a device: a
 * page asks for it with its live session (`GET /api/me/journal-key`) and holds it in memory only.
 *
 * The database holds each key only wrapped (AES-256-GCM, bound to the key's id and owner) under a key
 * derived from the storage key, or, on S3 where there is none, from the server's HMAC secret: a copy
 * of the database alone opens nothing.
 *
 * A key lives {@link JOURNAL_KEY_HOURS} hours from its making. Sign-out and a season close destroy it
 * sooner, as does anything that takes away the account's standing (a trigger, migration 0014: approval
 * withdrawn, suspended, a new PIN; the account's deletion cascades). The next request makes a new one,
 * and what a device sealed under the old can never be opened again.
 */
import { createCipheriv, createDecipheriv, createECDH, hkdfSync, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { deriveSubkey, type StorageKey } from '../storage/encryption.js';

/** How long a key lives from its making (the session's default absolute lifetime). */
const JOURNAL_KEY_HOURS = 12;

/** The wrapping key's own label: no other key derived from the same master is the same. */
const WRAP_LABEL = 'vita-docs/journal-key-wrap/v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** A person's live key, unwrapped, for their session's answer. */
export interface IssuedJournalKey {
  keyId: string;
  key: Buffer;
  expiresAt: Date;
}

export interface JournalKeys {
  /** The person's live key, made now if they have none (or theirs expired). */
  issue(email: string): Promise<IssuedJournalKey>;
  /** Destroys the person's key (sign-out). */
  destroy(email: string): Promise<void>;
  /** Destroys every key (season close). */
  destroyAll(): Promise<void>;
  /** Deletes the keys past their lifetime that nobody asked for since (housekeeping). */
  prune(): Promise<void>;
  /** The journal key of a client link (see {@link linkJournalRoot}): the same for the link's whole life. */
  forLink(linkId: string): IssuedLinkKey;
}

/** A client link's journal key with its id, as the link session's answer carries it. */
export interface IssuedLinkKey {
  keyId: string;
  key: Buffer;
}

/**
 * The key that wraps journal keys: derived from the storage key, which is never in the database or
 * the data directory; without one (S3), from the HMAC secret, which is kept out of them only when
 * `SESSION_SECRET` is set.
 */
export function journalWrapKey(storageKey: StorageKey | null, secret: Buffer): Buffer {
  return storageKey ? storageKey.derive(WRAP_LABEL) : deriveSubkey(secret, WRAP_LABEL);
}

/**
 * The root of client links' journal keys, with its own label. Like the wrapping key, from the storage
 * key (the HMAC secret only on S3, where there is none): the secret is in the database and so in every
 * backup, and a backup alone must not open what a client's phone kept. The version is in the label and
 * in each key's id, so a phone's files kept under a key of another version are known as such (an
 * unknown key id: deleted at open, like those of a destroyed key) rather than failing to open.
 */
const LINK_ROOT_LABEL = 'vita-docs/link-journal-root/v2';

export function linkJournalRoot(storageKey: StorageKey | null, secret: Buffer): Buffer {
  return storageKey ? storageKey.derive(LINK_ROOT_LABEL) : deriveSubkey(secret, LINK_ROOT_LABEL);
}

/** The sealing pair's own label, so the pair is independent of every other use of the key. */
const SEAL_LABEL = 'vita-docs/journal-seal-pair/v1';
/** The order of the P-256 group, less one: a private scalar is in [1, n-1]. */
const P256_ORDER_LESS_ONE = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n - 1n;

/** The two halves of a person's sealing pair, as the session's answer carries them (base64). */
export interface SealingPair {
  /** The public point, uncompressed (65 bytes): a device may keep it, and seal to it with no connection. */
  sealKey: string;
  /** The private scalar (32 bytes): like the journal key itself, for the live session only. */
  openKey: string;
}

/**
 * The ECDH P-256 pair that goes with a journal key, derived from it: a device that has lost its
 * connection (and its page's copy of the key, after a reload) can still seal files to the public half
 * it kept, and only a live session, which gets the private half, opens them. Derived rather than
 * stored, so it lives and dies with the key by construction. The scalar comes from 40 bytes reduced
 * modulo n-1 (FIPS 186-5 A.2.1: the extra 64 bits make the bias negligible).
 */
export function sealingPair(key: Buffer): SealingPair {
  const wide = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), SEAL_LABEL, 40));
  const scalar = (BigInt(`0x${wide.toString('hex')}`) % P256_ORDER_LESS_ONE) + 1n;
  const open = Buffer.from(scalar.toString(16).padStart(64, '0'), 'hex');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(open);
  return { sealKey: ecdh.getPublicKey('base64', 'uncompressed'), openKey: open.toString('base64') };
}

const boundTo = (id: string, email: string) => Buffer.from(`${id}\n${email}`, 'utf8');

/** The stored form: the nonce, the key encrypted, its tag. */
function wrap(wrapKey: Buffer, id: string, email: string, key: Buffer): Buffer {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', wrapKey, nonce);
  cipher.setAAD(boundTo(id, email));
  const encrypted = Buffer.concat([cipher.update(key), cipher.final()]);
  return Buffer.concat([nonce, encrypted, cipher.getAuthTag()]);
}

/** The key a stored form holds; null when it does not open under `wrapKey` for this id and owner. */
function unwrap(wrapKey: Buffer, id: string, email: string, wrapped: Buffer): Buffer | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', wrapKey, wrapped.subarray(0, NONCE_BYTES));
    decipher.setAAD(boundTo(id, email));
    decipher.setAuthTag(wrapped.subarray(-TAG_BYTES));
    return Buffer.concat([decipher.update(wrapped.subarray(NONCE_BYTES, -TAG_BYTES)), decipher.final()]);
  } catch {
    return null;
  }
}

export function createJournalKeys(db: Db, wrapKey: Buffer, linkRoot: Buffer): JournalKeys {
  const cutoff = () => sql<Date>`now() - make_interval(hours => ${JOURNAL_KEY_HOURS})`;
  const live = (email: string) =>
    db
      .selectFrom('journal_keys')
      .select(['id', 'wrapped', 'created_at'])
      .where('user_email', '=', email)
      .where('created_at', '>', cutoff())
      .executeTakeFirst();

  /** Replaces an expired key with a new one; another request making one at the same time wins. */
  async function make(email: string): Promise<void> {
    const id = randomBytes(16).toString('hex');
    const key = randomBytes(32);
    await db
      .deleteFrom('journal_keys')
      .where('user_email', '=', email)
      .where('created_at', '<=', cutoff())
      .execute();
    await db
      .insertInto('journal_keys')
      .values({ id, user_email: email, wrapped: wrap(wrapKey, id, email, key) })
      .onConflict((oc) => oc.column('user_email').doNothing())
      .execute();
  }

  return {
    async issue(email) {
      // Twice at most: a key wrapped under another wrapping key (the server's secret changed on S3)
      // opens nothing, so it is destroyed and made again.
      for (let attempt = 0; attempt < 2; attempt++) {
        let row = await live(email);
        if (!row) {
          await make(email);
          row = await live(email);
        }
        if (!row) continue; // destroyed (a sign-out) between its making and this read
        const key = unwrap(wrapKey, row.id, email, row.wrapped);
        if (key)
          return {
            keyId: row.id,
            key,
            expiresAt: new Date(row.created_at.getTime() + JOURNAL_KEY_HOURS * 3_600_000),
          };
        await db.deleteFrom('journal_keys').where('id', '=', row.id).execute();
      }
      throw new Error('no journal key could be made');
    },
    async destroy(email) {
      await db.deleteFrom('journal_keys').where('user_email', '=', email).execute();
    },
    async destroyAll() {
      await db.deleteFrom('journal_keys').execute();
    },
    async prune() {
      await db.deleteFrom('journal_keys').where('created_at', '<=', cutoff()).execute();
    },
    forLink(linkId) {
      // Derived, not stored: it lives as long as the link (at most 14 days), and only a live session
      // of the link is handed it.
      return {
        keyId: `link-v2-${linkId}`,
        key: deriveSubkey(linkRoot, `vita-docs/link-journal/v2/${linkId}`),
      };
    },
  };
}
