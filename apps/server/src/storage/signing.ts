/**
 * HMAC-SHA256 signed URLs for the local store. A URL is a capability: whoever holds it may do exactly
 * the one thing it names (method, key, content type, size limit or disposition and download name)
 * until it expires, without cookies. Every field that changes behaviour is inside the signature.
 * The key comes from the storage key (see `create.ts`), never from the database: a copy of the data
 * directory cannot mint links. A link that claims to live longer than the server ever signs is
 * refused, whoever signed it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { LINK_SECONDS, StorageError } from './types.js';

/** What an upload URL allows. */
export interface PutGrant {
  method: 'PUT';
  key: string;
  contentType: string;
  maxBytes: number;
  /** Unix seconds. */
  expires: number;
}

/** What a download URL allows. */
export interface GetGrant {
  method: 'GET';
  key: string;
  disposition: 'attachment' | 'inline';
  downloadName: string;
  /** Served type chosen at signing time ('' = the stored one). */
  contentType: string;
  /** The audit entry that records whom the link was issued to (0: none); each fetch is audited under it. */
  issuedUnder: number;
  /** Unix seconds. */
  expires: number;
}

export type Grant = PutGrant | GetGrant;

/** Signs and verifies grants with a key derived from the server secret. */
export interface UrlSigner {
  /** The query string (without `?`) carrying the grant and its signature. */
  sign(grant: Grant): string;
  /** The grant in a query, or a `forbidden` {@link StorageError} when tampered with or expired. */
  verify(method: Grant['method'], query: unknown, nowMs: number): Grant;
}

/** Other servers' clocks may run this far ahead of ours. */
const CLOCK_SLACK_SECONDS = 30;

/** One unambiguous string per grant: JSON arrays cannot be shifted across field boundaries. */
function canonical(grant: Grant): string {
  return grant.method === 'PUT'
    ? JSON.stringify(['v2', 'PUT', grant.key, grant.contentType, grant.maxBytes, grant.expires])
    : JSON.stringify([
        'v2',
        'GET',
        grant.key,
        grant.disposition,
        grant.downloadName,
        grant.contentType,
        grant.issuedUnder,
        grant.expires,
      ]);
}

function fields(grant: Grant): Record<string, string> {
  return grant.method === 'PUT'
    ? { k: grant.key, ct: grant.contentType, max: String(grant.maxBytes), exp: String(grant.expires) }
    : {
        k: grant.key,
        d: grant.disposition,
        n: grant.downloadName,
        ct: grant.contentType,
        a: String(grant.issuedUnder),
        exp: String(grant.expires),
      };
}

const TAMPERED = 'This link is not valid. Go back to the app and try again.';
const EXPIRED = 'This link has expired. Go back to the app and try again.';

/** Reads one string parameter; repeated or missing parameters make the link invalid. */
function param(query: Record<string, unknown>, name: string): string {
  const value = query[name];
  if (typeof value !== 'string') throw new StorageError('forbidden', TAMPERED);
  return value;
}

const INTEGER = /^\d{1,15}$/;

/** A signer with `key`: 32 random or derived bytes used for nothing else. */
export function createUrlSigner(key: Buffer): UrlSigner {
  const mac = (grant: Grant) => createHmac('sha256', key).update(canonical(grant)).digest();

  return {
    sign(grant) {
      const params = new URLSearchParams({ ...fields(grant), sig: mac(grant).toString('base64url') });
      return params.toString();
    },

    verify(method, query, nowMs) {
      if (typeof query !== 'object' || query === null) throw new StorageError('forbidden', TAMPERED);
      const q = query as Record<string, unknown>;
      const exp = param(q, 'exp');
      if (!INTEGER.test(exp)) throw new StorageError('forbidden', TAMPERED);
      let grant: Grant;
      if (method === 'PUT') {
        const max = param(q, 'max');
        if (!INTEGER.test(max)) throw new StorageError('forbidden', TAMPERED);
        grant = {
          method,
          key: param(q, 'k'),
          contentType: param(q, 'ct'),
          maxBytes: Number(max),
          expires: Number(exp),
        };
      } else {
        const disposition = param(q, 'd');
        const issuedUnder = param(q, 'a');
        if ((disposition !== 'attachment' && disposition !== 'inline') || !INTEGER.test(issuedUnder))
          throw new StorageError('forbidden', TAMPERED);
        grant = {
          method,
          key: param(q, 'k'),
          disposition,
          downloadName: param(q, 'n'),
          contentType: param(q, 'ct'),
          issuedUnder: Number(issuedUnder),
          expires: Number(exp),
        };
      }
      // Compared as text: a lenient base64 decoder would accept several spellings of one signature.
      const given = Buffer.from(param(q, 'sig'));
      const expected = Buffer.from(mac(grant).toString('base64url'));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new StorageError('forbidden', TAMPERED);
      }
      // Checked after the signature so an attacker learns nothing from the message.
      if (grant.expires * 1000 <= nowMs)
        throw new StorageError('forbidden', EXPIRED, { code: 'link_expired' });
      // Only a stolen signing key makes such a link: this server never signs one.
      if (grant.expires * 1000 > nowMs + (LINK_SECONDS[method] + CLOCK_SLACK_SECONDS) * 1000) {
        throw new StorageError('forbidden', TAMPERED);
      }
      return grant;
    },
  };
}
