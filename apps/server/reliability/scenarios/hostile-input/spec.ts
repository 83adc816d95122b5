/** What a hostile request is before it becomes bytes: its kind, route, identity, parts and edits. */
import fc from 'fast-check';
import type { EndpointName } from '@vita-docs/core';
import { MB } from '../../harness.js';
import type { Bytes, Val } from './values.js';

/** The kinds of hostile request, one per property of the table (see properties.ts). */
export type Kind =
  | 'valid-ish'
  | 'field'
  | 'pollution'
  | 'wrong type'
  | 'deep nesting'
  | 'malformed JSON'
  | 'invalid UTF-8'
  | 'content type'
  | '10 MB body'
  | 'query'
  | 'params'
  | 'headers'
  | 'protocol'
  | 'path'
  | 'storage put'
  | 'storage get'
  | 'upload flow';

export type Who = 'admin' | 'volunteer0' | 'volunteer1' | 'anonymous';
export type Csrf = 'valid' | 'missing' | 'wrong' | 'foreign' | 'huge' | 'twice';

export type Body =
  | { type: 'none' }
  | { type: 'json'; value: Val }
  | { type: 'text'; text: string; latin1?: boolean }
  | { type: 'huge'; bytes: number; chunked: boolean; keepAlive: boolean };
export const json = (value: Val): Body => ({ type: 'json', value });
export const text = (t: string, latin1 = false): Body => ({ type: 'text', text: t, latin1 });
const huge = ({ chunked, keepAlive }: { chunked: boolean; keepAlive: boolean }): Body => ({
  type: 'huge',
  bytes: 10 * MB,
  chunked,
  keepAlive,
});
/**
 * How a 10 MB body is sent. Mostly on a kept-alive connection, as browsers send: the server then reads
 * and drops the rest of a body it refused, and its answer can be checked. With `Connection: close` it
 * answers and closes at once, and the reset of the bytes still coming may cost the client the answer.
 */
export const hugeBody = fc
  .record({ chunked: fc.boolean(), keepAlive: fc.constantFrom(true, true, true, false) })
  .map(huge);

/** A header change: set (replace), add (a second copy), or drop. */
export type HeaderEdit = readonly ['set' | 'add', string, Val] | readonly ['drop', string];

export type Tamper =
  | { t: 'none' }
  | { t: 'flip'; param: string; at: number }
  | { t: 'drop'; param: string }
  | { t: 'twice'; param: string; value: Val }
  | { t: 'set'; param: string; value: Val }
  | { t: 'append'; name: string; value: Val }
  | { t: 'replace'; query: string | Bytes };

export const PROTOCOL_CASES = [
  'http/1.0 without host',
  'http/1.1 without host',
  'absolute-form target',
  'asterisk target',
  'lower-case method',
  'unknown method',
  'other method',
  'content-length and transfer-encoding',
  'two content-lengths',
  'content-length too small',
  'bare LF line ends',
  'header without colon',
  'space before colon',
  'folded header',
  'NUL in header',
  'non-ASCII header name',
  'many headers',
  'long request line',
  'garbage after request',
  'expect',
  'upgrade',
  'keep-alive',
] as const;
export type ProtocolCase = (typeof PROTOCOL_CASES)[number];

export interface Spec {
  kind: Kind;
  /** An endpoint of the contract, a signed storage URL, or some other path. */
  route: EndpointName | 'storagePut' | 'storageGet' | 'path';
  who: Who;
  csrf: Csrf;
  /** Index into the pool of forwarded addresses (each request comes from one of many places). */
  ip: number;
  /** Now and then, instead of an address, whatever a client can write into X-Forwarded-For. */
  from?: Val;
  method?: string;
  rawPath?: string | Bytes;
  params: Record<string, Val>;
  /** Parameters go into the path unencoded. */
  rawParams?: boolean;
  query: Array<readonly [string, Val]> | string | Bytes;
  body: Body;
  /** undefined: JSON when there is a body; null: no Content-Type header. */
  contentType?: string | null;
  headers: HeaderEdit[];
  protocol?: ProtocolCase;
  storage?: { template: number; tamper: Tamper };
  flow?: Flow;
}

/**
 * A whole upload with hostile but acceptable text wherever a person types it: a category note, the
 * file name, the download name, a new name. Every step's answer is judged; the file's bytes are a
 * real PDF or image, so the steps get all the way through storage, listing, download and ZIP.
 */
export interface Flow {
  /** Index into the identity's clients. */
  client: number;
  template: string;
  note: string;
  filename: string;
  contentType: 'application/pdf' | 'image/png' | 'image/jpeg';
  downloadAs: string;
  rename: string;
}

/** What the setup made that requests can point at. */
export interface World {
  ownClientIds: string[];
  otherClientIds: string[];
  orphanClientIds: string[];
  clientEmails: string[];
  victimEmails: string[];
  docTypes: string[];
  keys: string[];
}
