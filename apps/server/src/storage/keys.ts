/**
 * Key and prefix validation shared by both stores. Routes validate too; the stores check again so a
 * forgotten check in a route can never reach a path outside the store.
 */
import { isClientId, parseDocKey, type DocKeyParts } from '@vita-docs/core/contract';
import { StorageError } from './types.js';

const isDotSegment = (segment: string): boolean => segment === '.' || segment === '..';

/** The parts of a valid document key; throws `invalid_key` otherwise. */
export function assertDocKey(key: string): DocKeyParts {
  const parts = parseDocKey(key);
  // `.`/`..` pass parseDocKey (encodeURIComponent keeps dots) but a URL parser would collapse them.
  if (!parts || isDotSegment(parts.docType))
    throw new StorageError('invalid_key', 'That file reference is not valid.');
  return parts;
}

/** A listing prefix: a whole client, or one of its categories (still URL-encoded, as in keys). */
export interface KeyPrefix {
  clientId: string;
  encodedDocType: string | null;
}

/** Parses `{clientId}/` or `{clientId}/{encodeURIComponent(docType)}/`; throws `invalid_key` otherwise. */
export function assertPrefix(prefix: string): KeyPrefix {
  const invalid = () => new StorageError('invalid_key', 'That folder reference is not valid.');
  if (!prefix.endsWith('/') || prefix.length > 1024) throw invalid();
  const parts = prefix.slice(0, -1).split('/');
  const [clientId, encodedDocType] = parts;
  if (parts.length > 2 || clientId === undefined || !isClientId(clientId)) throw invalid();
  if (encodedDocType === undefined) return { clientId, encodedDocType: null };
  let docType: string;
  try {
    docType = decodeURIComponent(encodedDocType);
  } catch {
    throw invalid();
  }
  // Same canonical form as parseDocKey: one spelling per category, no smuggled separators.
  if (!docType || encodeURIComponent(docType) !== encodedDocType || isDotSegment(docType)) throw invalid();
  return { clientId, encodedDocType };
}

/**
 * How logs name a document: its client id and upload number, never its file or category name (which
 * can name a person).
 */
export function documentRef(key: string): string {
  const parts = parseDocKey(key);
  return parts ? `${parts.clientId}#${parts.order}` : 'an unrecognised key';
}
