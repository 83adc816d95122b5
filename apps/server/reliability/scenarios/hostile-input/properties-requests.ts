/**
 * Properties about the request around the body: hostile queries, path parameters, headers, HTTP
 * itself (request line, framing, header syntax) and paths outside the contract.
 */
import fc from 'fast-check';
import { ANSWER_CHECKS } from './checks.js';
import type { Property } from './gen.js';
import { edgeString, hostileString, hostileValue, POLLUTION_KEYS, rawBytes } from './generators.js';
import { HEADER_NAMES, headerValue } from './samples.js';
import { PROTOCOL_CASES, type Spec } from './spec.js';
import { Bytes, type Val } from './values.js';

const QUERIES = [
  'docType=a&docType=b',
  'limit=0',
  'limit=-1',
  'limit=1e3',
  'limit=1.5',
  'limit=0x10',
  'limit=Infinity',
  'limit=99999999999999999999',
  'status=PENDING',
  'status[]=all',
  '&&&',
  '=',
  '%',
  '%zz',
  '%E0%A4%A',
  '%ED%A0%80',
  'a=%00',
  '+',
  ';',
  'docType=Banking%20Info;x',
  '?'.repeat(500),
];

const query = fc.oneof(
  fc.array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom('docType', 'include', 'status', 'limit', 'clientId', ...POLLUTION_KEYS),
        edgeString,
      ),
      hostileString(20_000) as fc.Arbitrary<Val>,
    ),
    { minLength: 1, maxLength: 4 },
  ),
  fc.constantFrom(...QUERIES),
  fc.string({ unit: 'binary', maxLength: 100 }).map((s) => s.replace(/[\s#]/g, '')),
  rawBytes,
);

const paramValue = fc.oneof(
  hostileValue,
  fc.constantFrom<Val>(
    '',
    '.',
    '..',
    '%2F',
    '%2e%2e',
    'a/b',
    'x'.repeat(100),
    'x'.repeat(101),
    '*',
    ':id',
    '%',
  ),
);

const headerEdits = fc.array(
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.tuple(
        fc.constantFrom('set' as const, 'add' as const),
        fc.constantFrom(...HEADER_NAMES),
        headerValue,
      ),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.constant('drop' as const),
        fc.constantFrom('x-forwarded-for', 'user-agent', 'cookie', 'accept'),
      ),
    },
  ),
  { minLength: 1, maxLength: 3 },
);

const OTHER_METHODS = [
  'PATCH',
  'PUT',
  'PROPFIND',
  'SEARCH',
  'QUERY',
  'TRACE',
  'OPTIONS',
  'HEAD',
  'FOO',
  'G\u00e9T',
];

const PATHS = [
  '/api',
  '/api/',
  '/api/..',
  '/api/../../etc/passwd',
  '/api/%2e%2e/%2e%2e/etc/passwd',
  '/api/clients/../admin/users',
  '//api/me',
  '/api//me',
  '/api/me/',
  '/api/ME',
  '/api/me;x',
  '/api/me%00',
  '/api/me%',
  '/api/%ZZ',
  '/api/storage/../me',
  '/api/storage/',
  '/api/storage/put/x',
  '/api/dev',
  '/api/clients/x/docs/status/extra',
  '/API/me',
  '/api/\u00ff',
  '/api/' + 'a/'.repeat(3000),
  '/' + '%41'.repeat(2000),
  '/.env',
  '/index.html',
  '/assets/../../../etc/passwd',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/api/me?a=1#frag',
  '/api/clients/new?__proto__[x]=1',
];

const rawPath = fc.oneof(
  fc.constantFrom(...PATHS),
  fc.string({ unit: 'binary', maxLength: 60 }).map((s) => `/api/${s.replace(/[\s#?]/g, '')}`),
  rawBytes.map(
    (b) => new Bytes([...Buffer.from('/api/clients/'), ...b.bytes, ...Buffer.from('/docs/status')]),
  ),
);

export const REQUEST_PROPERTIES: readonly Property[] = [
  {
    kind: 'query',
    weight: 6,
    sends: 'hostile query entries, repeated or malformed queries, raw bytes after the `?`',
    generate: (g) =>
      g.onEndpoint(
        g.endpoint,
        (parts) => query.map((q) => ({ query: Array.isArray(q) ? [...parts.query, ...q] : q })),
        'query',
      ),
    holds: ANSWER_CHECKS,
  },
  {
    kind: 'params',
    weight: 6,
    sends: 'a hostile path parameter, percent-encoded or raw',
    generate: (g) =>
      g.onEndpoint(
        g.withParams,
        (parts) =>
          fc.record({ value: paramValue, raw: fc.boolean() }).map(({ value, raw }) => ({
            params: Object.fromEntries(Object.keys(parts.params).map((k) => [k, value])),
            rawParams: raw,
          })),
        'params',
      ),
    holds: ANSWER_CHECKS,
  },
  {
    kind: 'headers',
    weight: 8,
    sends: 'one to three headers set, doubled or dropped (addresses, cookies, CSRF, ranges…)',
    generate: (g) => g.onEndpoint(g.endpoint, () => headerEdits.map((headers) => ({ headers })), 'headers'),
    holds: ANSWER_CHECKS,
  },
  {
    kind: 'protocol',
    weight: 4,
    sends: 'HTTP twisted: no Host, odd targets and methods, lying lengths, bad header syntax, 3 000 headers…',
    generate: (g) =>
      g.onEndpoint(
        g.endpoint,
        () =>
          fc
            .record({
              protocol: fc.constantFrom(...PROTOCOL_CASES),
              other: fc.constantFrom(...OTHER_METHODS),
            })
            // Only "other method" changes the method: every other case is made on the endpoint's own.
            .map(({ protocol, other }) => ({
              protocol,
              ...(protocol === 'other method' && { method: other }),
            })),
        'protocol',
      ),
    holds: ANSWER_CHECKS,
  },
  {
    kind: 'path',
    weight: 3,
    sends: 'paths outside the contract: traversal, doubled slashes, case, encodings, 6 000 characters',
    generate: (g) =>
      fc
        .record({ ...g.common, method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT'), rawPath })
        .map((rest): Spec => ({
          kind: 'path',
          route: 'path',
          params: {},
          query: [],
          body: { type: 'none' },
          headers: [],
          ...rest,
        })),
    holds: ANSWER_CHECKS,
  },
];
