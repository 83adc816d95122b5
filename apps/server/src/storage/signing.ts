/**
 * HMAC-SHA256 signed URLs for the local store. A URL is a capability: whoever holds it may do exactly
 * the one thing it names (method, key, content type, size limit or disposition and download name)
 * until it expires, without cookies. Every field that changes behaviour is inside the signature.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { StorageError } from './types.js';

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

/** Derives a key of its own so a storage signature can never be replayed as a CSRF token or the reverse. */
function deriveKey(secret: Buffer | string): Buffer {
  return createHmac('sha256', secret).update('vita-docs/local-storage-url/v1').digest();
}

/** One unambiguous string per grant: JSON arrays cannot be shifted across field boundaries. */
function canonical(grant: Grant): string {
  return grant.method === 'PUT'
    ? JSON.stringify(['v1', 'PUT', grant.key, grant.contentType, grant.maxBytes, grant.expires])
    : JSON.stringify([
        'v1',
        'GET',
        grant.key,
        grant.disposition,
        grant.downloadName,
        grant.contentType,
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

/** A signer for the given server secret (at least 32 bytes of entropy is expected). */
export function createUrlSigner(secret: Buffer | string): UrlSigner {
  const key = deriveKey(secret);
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
        if (disposition !== 'attachment' && disposition !== 'inline')
          throw new StorageError('forbidden', TAMPERED);
        grant = {
          method,
          key: param(q, 'k'),
          disposition,
          downloadName: param(q, 'n'),
          contentType: param(q, 'ct'),
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
      if (grant.expires * 1000 <= nowMs) throw new StorageError('forbidden', EXPIRED);
      return grant;
    },
  };
}
