/**
 * Hostile input: property-based fuzzing (fast-check) of every call in core's `endpoints` table and of
 * the signed storage URLs, against the production build. Requests are written byte for byte on raw
 * sockets, so nothing a well-behaved HTTP client would refuse to send (NUL in a header, invalid UTF-8
 * in a path, a Content-Length that lies, HTTP/1.0 without Host) is out of reach. Meanwhile a few
 * connections trickle their requests byte by byte.
 *
 * What must hold: no 5xx at all; every 4xx is JSON `{ "error": "…", "code": "…" }` and nothing else, its text one
 * for people (no bare "Bad Request", no library wording); the process stays up, logs no error and
 * answers `/api/me` afterwards; no volunteer became an admin; others are served while the slow
 * connections trickle; after a settle period its memory is back within 32 MB of where it started
 * (after a warm-up). A request refused and reset while still being sent (oversized ones only) is
 * counted, not failed: the reset can cost the client the answer the server did send.
 *
 * The seed is fixed (FUZZ_SEED overrides it) and printed, so a run can be replayed request for
 * request; each kind of failure is reported with the smallest request that showed it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import fc from 'fast-check';
import {
  CATEGORY_TEMPLATES,
  FIXED_CATEGORIES,
  createApiClient,
  endpoints,
  isErrorCode,
  readCsrfToken,
  type ApiClient,
  type EndpointName,
} from '@vita-docs/core';
import { createCookieJarFetch } from '@vita-docs/core/testing';
import {
  ADMIN,
  MB,
  VOLUNTEER_PIN,
  freshDataDir,
  latestCode,
  newClient,
  openBrowser,
  percentile,
  randomPdf,
  setUpProgramme,
  sleep,
  startServer,
  upload,
  type Row,
  type Scenario,
  type ScenarioOptions,
  type ServerProcess,
} from '../harness.js';

const NAME = 'Hostile input';
const DEFAULT_SEED = 20_260_206;
/** Memory the server may keep after the run and the settle period, over its baseline. */
const RSS_SLACK_MB = 32;
/** Requests in flight at once (the machine has two cores, shared with PostgreSQL and this process). */
const CONCURRENCY = 6;

// ── Values: what goes into a field, a parameter, a query or a header ───────────────────────────────

/** A string too long to keep in a generated sample: `unit` repeated, built when sent. */
class Huge {
  constructor(
    readonly unit: string,
    readonly times: number,
  ) {}
}
/**
 * `length` characters of text that does not compress (a repeated one would shrink to nothing in the
 * database and hide a value too long to index), the same for the same `seed`.
 */
class Noise {
  constructor(
    readonly length: number,
    readonly seed: number,
  ) {}

  text(): string {
    const chunks: string[] = [];
    for (let i = 0, size = 0; size < this.length; i += 1) {
      const chunk = createHash('sha256').update(`${this.seed}:${i}`).digest('base64url');
      chunks.push(chunk);
      size += chunk.length;
    }
    return chunks.join('').slice(0, this.length);
  }
}
/** JSON nested `depth` levels deep. */
class Deep {
  constructor(
    readonly depth: number,
    readonly shape: 'array' | 'object',
  ) {}
}
/** JSON text inserted as is (prototype keys and duplicate keys, which objects cannot carry). */
class RawJson {
  constructor(readonly text: string) {}
}
/** An object as a list of entries, so `__proto__` and friends are sent as plain keys. */
class Entries {
  constructor(readonly entries: ReadonlyArray<readonly [string, Val]>) {}
}
/** Raw bytes (invalid UTF-8 among them): inside a JSON string, or unencoded in a URL or header. */
class Bytes {
  constructor(readonly bytes: readonly number[]) {}
}

type Val =
  | string
  | number
  | boolean
  | null
  | Huge
  | Noise
  | Deep
  | RawJson
  | Entries
  | Bytes
  | Val[]
  | { [key: string]: Val };

/** What a call of the contract carries before it is made hostile. */
interface Parts {
  params: Record<string, Val>;
  query: Array<readonly [string, Val]>;
  body: Record<string, Val> | undefined;
}

const isPlainObject = (value: Val): value is { [key: string]: Val } =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.getPrototypeOf(value) === Object.prototype;

/** JSON for `value`, as bytes (raw bytes stay raw, everything else is UTF-8). */
function toJson(value: Val, out: Buffer[] = []): Buffer[] {
  const text = (s: string) => out.push(Buffer.from(s, 'utf8'));
  if (value instanceof Huge) text(JSON.stringify(value.unit.repeat(value.times)));
  else if (value instanceof Noise) text(JSON.stringify(value.text()));
  else if (value instanceof Deep) {
    text(
      value.shape === 'array'
        ? '['.repeat(value.depth) + ']'.repeat(value.depth)
        : '{"a":'.repeat(value.depth) + '1' + '}'.repeat(value.depth),
    );
  } else if (value instanceof RawJson) text(value.text);
  else if (value instanceof Bytes) {
    text('"');
    out.push(Buffer.from(value.bytes));
    text('"');
  } else if (value instanceof Entries) {
    text('{');
    value.entries.forEach(([key, item], i) => {
      text(`${i > 0 ? ',' : ''}${JSON.stringify(key)}:`);
      toJson(item, out);
    });
    text('}');
  } else if (Array.isArray(value)) {
    text('[');
    value.forEach((item, i) => {
      if (i > 0) text(',');
      toJson(item, out);
    });
    text(']');
  } else if (isPlainObject(value)) toJson(new Entries(Object.entries(value)), out);
  else text(JSON.stringify(value) ?? 'null');
  return out;
}

/** UTF-8 bytes of a string, lone surrogates included (encoded as their own three bytes, as a careless client would). */
function looseUtf8(s: string): Buffer {
  const bytes: number[] = [];
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 0x80) bytes.push(cp);
    else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else bytes.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return Buffer.from(bytes);
}

/** The bytes a value stands for in a URL or header. */
function valueBytes(value: Val): Buffer {
  if (typeof value === 'string') return looseUtf8(value);
  if (value instanceof Huge) return looseUtf8(value.unit.repeat(value.times));
  if (value instanceof Noise) return Buffer.from(value.text());
  if (value instanceof Bytes) return Buffer.from(value.bytes);
  return Buffer.concat(toJson(value));
}

const UNRESERVED = /[A-Za-z0-9\-_.~]/;
/** Percent-encodes every byte but the unreserved ones. */
const percent = (bytes: Buffer) =>
  [...bytes]
    .map((b) =>
      UNRESERVED.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
/** A value for a URL: percent-encoded, or (`raw`) its bytes as they are. */
const urlPiece = (value: Val, raw: boolean) =>
  raw ? valueBytes(value).toString('latin1') : percent(valueBytes(value));

// ── Generators ───────────────────────────────────────────────────────────────────────────────────

const EDGE_CHARS = [
  '\u0000',
  '\u0001',
  '\u0008',
  '\u001b',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u00ad',
  '\u200b',
  '\u200d',
  '\u200e',
  '\u202e',
  '\u2066',
  '\u061c',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ufffd',
  '\ufffe',
  '\uffff',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\u{1f9fe}',
  '\u{10ffff}',
  'e\u0301',
  '\u0130',
  '\u0131',
  'ß',
  'ﬃ',
  '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}',
  '\r',
  '\n',
  '\t',
  ' ',
  '"',
  "'",
  '\\',
  '/',
  '%',
  '%00',
  '%ZZ',
  '../',
  '..\\',
  '<',
  '>',
  '&',
  ';',
  '=',
  '?',
  '#',
  '*',
  ',',
  '$',
  '{',
  '}',
  '`',
  'A',
  'z',
  '0',
  '9',
  '@',
  '.',
  '-',
  '_',
];
const TOKENS = [
  '',
  ' ',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  'true',
  '[]',
  '{}',
  '../../../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%2e%2e%2f',
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '$(reboot)',
  '{{7*7}}',
  '${jndi:ldap://x/a}',
  '<script>alert(1)</script>',
  ADMIN.email,
  'a@b',
  '@',
  'a@b.c\u0000',
  'A'.repeat(8),
  'a'.repeat(255),
  '0'.repeat(6),
  '123456',
  'volunteer',
  'officer',
  'admin',
  'pending',
  'all',
  'inline',
  'attachment',
  'application/pdf',
  'text/html',
  'W-2',
  'Banking Info',
  '13614-C',
];
const edgeString = fc.string({ unit: fc.constantFrom(...EDGE_CHARS), maxLength: 24 });
const hugeString = (maxTimes: number) =>
  fc
    .record({
      unit: fc.constantFrom('a', 'é', '\u0000', '\ud800', '\u{1f9fe}', ' ', '"', '%'),
      times: fc.constantFrom(101, 300, 1_025, 5_000, 40_000, 70_000, 1_100_000).filter((t) => t <= maxTimes),
    })
    .map(({ unit, times }) => new Huge(unit, times));

const noise = (maxLength: number) =>
  fc
    .record({
      length: fc.constantFrom(300, 3_000, 9_000, 70_000).filter((l) => l <= maxLength),
      seed: fc.nat(),
    })
    .map(({ length, seed }) => new Noise(length, seed));

/** Strings meant to break something: edge characters, any code point, known tokens, long ones. */
const hostileString = (maxTimes = 1_100_000): fc.Arbitrary<string | Huge | Noise> =>
  fc.oneof(
    { weight: 4, arbitrary: edgeString },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 3, arbitrary: fc.constantFrom(...TOKENS) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
    { weight: 1, arbitrary: hugeString(maxTimes) },
    { weight: 1, arbitrary: noise(maxTimes) },
  );

const INVALID_UTF8 = [
  [0xff],
  [0xfe, 0xff],
  [0xc0, 0x80],
  [0xc1, 0xbf],
  [0xed, 0xa0, 0x80],
  [0xed, 0xbf, 0xbf],
  [0xed, 0xa0, 0xbd, 0xed, 0xb2, 0xa9],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe2, 0x82],
  [0x80],
  [0xbf, 0xbf],
  [0xf0, 0x9f, 0x98],
  [0x00],
];
const rawBytes = fc
  .oneof(
    fc.constantFrom(...INVALID_UTF8),
    fc.array(fc.constantFrom(...INVALID_UTF8), { minLength: 1, maxLength: 4 }).map((parts) => parts.flat()),
    fc.uint8Array({ minLength: 1, maxLength: 32 }).map((bytes) => [...bytes]),
  )
  .map((bytes) => new Bytes(bytes));

const POLLUTION_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  'hasOwnProperty',
  'toString',
  'valueOf',
];
const MASS_ASSIGNMENT_KEYS = [
  'isAdmin',
  'is_admin',
  'role',
  'approved',
  'createdBy',
  'created_by',
  'pin_hash',
  'email',
  'id',
];
const pollutionValue = fc.constantFrom(
  new RawJson('{"__proto__":{"isAdmin":true,"role":"officer","approved":true}}'),
  new RawJson('{"constructor":{"prototype":{"isAdmin":true}}}'),
  new RawJson('{"prototype":{"approved":true}}'),
  new RawJson('{"__proto__":null}'),
  new RawJson('{"__proto__":[]}'),
  new RawJson('{"__proto__":"x"}'),
  new RawJson('{"toString":1,"valueOf":"x","hasOwnProperty":null}'),
  new RawJson('{"length":1e9,"0":"a"}'),
);
const deepValue = fc
  .record({
    depth: fc.constantFrom(100, 1_000, 5_000, 10_000, 12_000, 32_000, 100_000),
    shape: fc.constantFrom('array' as const, 'object' as const),
  })
  .map(({ depth, shape }) => new Deep(depth, shape));

/** Anything at all in place of a field: wrong types, hostile strings, nested and polluted objects. */
const hostileValue: fc.Arbitrary<Val> = fc.oneof(
  { weight: 6, arbitrary: hostileString() },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Val>(
      null,
      true,
      false,
      0,
      -0,
      -1,
      1.5,
      1e308,
      -1e308,
      9_007_199_254_740_992,
      5e-324,
      2_147_483_648,
      [],
    ),
  },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.array(hostileString(5_000), { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Val> },
  { weight: 1, arbitrary: pollutionValue },
  { weight: 1, arbitrary: deepValue },
);

// ── What a request is ────────────────────────────────────────────────────────────────────────────

const KINDS = [
  'valid-ish',
  'field',
  'pollution',
  'wrong type',
  'deep nesting',
  'malformed JSON',
  'invalid UTF-8',
  'content type',
  '10 MB body',
  'query',
  'params',
  'headers',
  'protocol',
  'path',
  'storage put',
  'storage get',
  'upload flow',
] as const;
type Kind = (typeof KINDS)[number];

type Who = 'admin' | 'volunteer0' | 'volunteer1' | 'anonymous';
type Csrf = 'valid' | 'missing' | 'wrong' | 'foreign' | 'huge' | 'twice';

type Body =
  | { type: 'none' }
  | { type: 'json'; value: Val }
  | { type: 'text'; text: string; latin1?: boolean }
  | { type: 'huge'; bytes: number; chunked: boolean; keepAlive: boolean };
const json = (value: Val): Body => ({ type: 'json', value });
const text = (t: string, latin1 = false): Body => ({ type: 'text', text: t, latin1 });
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
const hugeBody = fc
  .record({ chunked: fc.boolean(), keepAlive: fc.constantFrom(true, true, true, false) })
  .map(huge);

/** A header change: set (replace), add (a second copy), or drop. */
type HeaderEdit = readonly ['set' | 'add', string, Val] | readonly ['drop', string];

type Tamper =
  | { t: 'none' }
  | { t: 'flip'; param: string; at: number }
  | { t: 'drop'; param: string }
  | { t: 'twice'; param: string; value: Val }
  | { t: 'set'; param: string; value: Val }
  | { t: 'append'; name: string; value: Val }
  | { t: 'replace'; query: string | Bytes };

const PROTOCOL_CASES = [
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
type ProtocolCase = (typeof PROTOCOL_CASES)[number];

interface Spec {
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
interface Flow {
  /** Index into the identity's clients. */
  client: number;
  template: string;
  note: string;
  filename: string;
  contentType: 'application/pdf' | 'image/png' | 'image/jpeg';
  downloadAs: string;
  rename: string;
}

/** Bytes the store recognises as a PNG and a JPEG (their signatures, then filler): enough for a flow. */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(1_000, 7),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(1_000, 9)]);

/** What the setup made that requests can point at. */
interface World {
  ownClientIds: string[];
  otherClientIds: string[];
  orphanClientIds: string[];
  clientEmails: string[];
  victimEmails: string[];
  docTypes: string[];
  keys: string[];
}

const ENDPOINT_NAMES = Object.keys(endpoints) as EndpointName[];

const freshEmail = fc.stringMatching(/^[a-z][a-z0-9]{2,12}$/).map((s) => `${s}@fuzz.test`);
const personName = fc.oneof(
  fc.constantFrom('Ada', 'Li', "O'Brien", 'José', '李', 'Nguyễn', 'Zoë-Ann'),
  fc.stringMatching(/^[A-Z][a-z]{1,12}$/),
);
const fuzzPin = fc.constantFrom('fuzzing pin 123456', 'another pin 98765', 'x'.repeat(8), 'short');
const sixDigits = fc.stringMatching(/^\d{6}$/);
const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/);

/** Valid-looking values, drawn from what exists (so requests get past validation into the handlers). */
function pools(world: World) {
  const pick = <T>(values: readonly T[], fallback: T) =>
    fc.constantFrom(...(values.length > 0 ? values : [fallback]));
  const clientId = fc.oneof(
    { weight: 4, arbitrary: pick(world.ownClientIds, 'AAAAAAAAAAAAAAAA') },
    { weight: 2, arbitrary: pick(world.otherClientIds, 'BBBBBBBBBBBBBBBB') },
    { weight: 1, arbitrary: pick(world.orphanClientIds, 'CCCCCCCCCCCCCCCC') },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{8,64}$/) },
  );
  const email = fc.oneof(
    { weight: 2, arbitrary: pick(world.victimEmails, 'nobody@fuzz.test') },
    { weight: 1, arbitrary: fc.constant(ADMIN.email) },
    { weight: 2, arbitrary: freshEmail },
  );
  const clientEmail = fc.oneof(pick(world.clientEmails, 'client@client.test'), freshEmail);
  const docType = fc.oneof(
    { weight: 3, arbitrary: pick(world.docTypes, 'Banking Info') },
    { weight: 1, arbitrary: fc.constantFrom(...CATEGORY_TEMPLATES) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  );
  const key = fc.oneof(
    { weight: 3, arbitrary: pick(world.keys, 'AAAAAAAAAAAAAAAA/Banking%20Info/1_a.pdf') },
    {
      weight: 1,
      arbitrary: fc
        .tuple(clientId, docType, fc.nat(), fc.string({ maxLength: 20 }))
        .map(([c, t, o, f]) => `${c}/${encodeURIComponent(t)}/${o}_${f}.pdf`),
    },
  );
  return { clientId, email, clientEmail, docType, key };
}

/** For each call, valid-looking params, query and body: the starting point every mutation works from. */
function baseParts(world: World): Record<EndpointName, fc.Arbitrary<Parts>> {
  const p = pools(world);
  const none = fc.constant<Parts>({ params: {}, query: [], body: undefined });
  const body = (b: fc.Arbitrary<Record<string, Val>>) =>
    b.map((value): Parts => ({ params: {}, query: [], body: value }));
  const opt = <T extends Record<string, fc.Arbitrary<Val>>>(fields: T, required: Array<keyof T & string>) =>
    fc.record(fields, { requiredKeys: required }) as unknown as fc.Arbitrary<Record<string, Val>>;
  const withId = (
    b?: fc.Arbitrary<Record<string, Val>>,
    query?: fc.Arbitrary<Array<readonly [string, Val]>>,
  ) =>
    fc
      .record({
        id: p.clientId,
        body: b ?? fc.constant(undefined),
        query: query ?? fc.constant<Array<readonly [string, Val]>>([]),
      })
      .map(({ id, body: value, query: q }): Parts => ({ params: { id }, query: q, body: value }));
  const withEmail = (b?: fc.Arbitrary<Record<string, Val>>) =>
    fc
      .record({ email: p.email, body: b ?? fc.constant(undefined) })
      .map(({ email, body: value }): Parts => ({ params: { email }, query: [], body: value }));
  const query = (q: fc.Arbitrary<Array<readonly [string, Val]>>) =>
    q.map((value): Parts => ({ params: {}, query: value, body: undefined }));
  const docTypeQuery = p.docType.map((docType) => [['docType', docType] as const]);
  return {
    register: body(
      opt({ firstName: personName, lastName: personName, email: freshEmail, pin: fuzzPin }, [
        'firstName',
        'lastName',
        'email',
        'pin',
      ]),
    ),
    loginInit: body(opt({ email: p.email, pin: fuzzPin }, ['email', 'pin'])),
    loginVerify: body(opt({ email: p.email, code: sixDigits }, ['email', 'code'])),
    loginResend: body(opt({ email: p.email }, [])),
    me: none,
    journalKey: none,
    logout: none,
    forgotInit: body(opt({ email: p.email }, ['email'])),
    forgotVerify: body(opt({ email: p.email, code: sixDigits }, ['email', 'code'])),
    forgotResend: body(opt({ email: p.email }, [])),
    forgotReset: body(opt({ newPin1: fuzzPin, newPin2: fuzzPin }, ['newPin1', 'newPin2'])),
    listClients: none,
    listAllClients: none,
    createClient: body(
      opt(
        {
          firstName: personName,
          lastName: personName,
          email: freshEmail,
          phone: fc.constantFrom('555 010 0199', '+1 (734) 555-0100'),
          pin: fc.constantFrom('', '1234'),
        },
        ['firstName', 'lastName', 'email', 'phone'],
      ),
    ),
    docStatus: withId(),
    docTypes: withId(),
    addDocType: withId(
      opt({ template: fc.constantFrom(...CATEGORY_TEMPLATES), note: fc.string({ maxLength: 20 }) }, [
        'template',
      ]),
    ),
    deleteDocType: withId(undefined, docTypeQuery),
    submitClient: withId(),
    unsubmitClient: withId(),
    submission: withId(),
    seasonDownload: none,
    downloadAll: withId(
      undefined,
      fc.option(
        p.docType.map((t) => [['include', `${t},Banking Info`] as const]),
        { nil: [] },
      ),
    ),
    presignUpload: withId(
      opt(
        {
          docType: p.docType,
          filename: fc.constantFrom('w2.pdf', 'scan.jpg', 'a'.repeat(300), 'x'),
          contentType: fc.constantFrom(
            'application/pdf',
            'image/jpeg',
            'image/png',
            'text/html',
            'image/svg+xml',
          ),
          size: fc.nat({ max: 30 * MB }),
          sha256: hex64,
        },
        ['docType', 'filename', 'contentType'],
      ),
    ),
    completeUpload: body(opt({ key: p.key }, ['key'])),
    listDocs: withId(undefined, docTypeQuery),
    presignGet: body(opt({ key: p.key, downloadAs: fc.constantFrom('copy.pdf', '') }, ['key'])),
    presignView: body(opt({ key: p.key }, ['key'])),
    deleteDocs: body(fc.record({ keys: fc.array(p.key, { minLength: 1, maxLength: 3 }) })),
    renameDoc: body(
      opt({ key: p.key, filename: fc.constantFrom('renamed.pdf', 'b', '   ') }, ['key', 'filename']),
    ),
    createClientLink: withId(
      opt(
        {
          categories: fc.array(p.docType, { minLength: 0, maxLength: 3 }),
          message: fc.string({ maxLength: 40 }),
          days: fc.integer({ min: -1, max: 20 }),
          language: fc.constantFrom('en', 'es', 'fr'),
        },
        ['categories'],
      ),
    ),
    clientLinkStatus: withId(),
    revokeClientLink: withId(),
    newFromClients: none,
    linkOpen: body(
      opt({ token: fc.stringMatching(/^[A-Za-z0-9_-]{20,70}$/), resend: fc.boolean() }, ['token']),
    ),
    linkVerify: body(
      opt({ token: fc.stringMatching(/^[A-Za-z0-9_-]{20,70}$/), code: sixDigits, pin: fuzzPin }, ['token']),
    ),
    linkChecklist: none,
    linkConsent: body(opt({ version: fc.constantFrom('2026-1', '') }, ['version'])),
    linkPresign: body(
      opt(
        {
          docType: p.docType,
          filename: fc.constantFrom('w2.pdf', 'x'),
          contentType: fc.constantFrom('application/pdf', 'text/html'),
          size: fc.nat({ max: 30 * MB }),
          sha256: hex64,
        },
        ['docType', 'filename', 'contentType'],
      ),
    ),
    linkComplete: body(opt({ key: p.key }, ['key'])),
    linkRemove: body(opt({ key: p.key }, ['key'])),
    linkAnswer: body(
      opt({ docType: p.docType, missing: fc.boolean(), note: fc.string({ maxLength: 40 }) }, [
        'docType',
        'missing',
      ]),
    ),
    linkDone: none,
    listUsers: query(
      fc.option(
        fc.constantFrom('pending', 'all').map((s) => [['status', s] as const]),
        { nil: [] },
      ),
    ),
    getUser: withEmail(),
    approveUser: withEmail(opt({ approved: fc.boolean() }, ['approved'])),
    setUserRole: withEmail(opt({ role: fc.constantFrom('volunteer', 'officer') }, ['role'])),
    deleteUser: withEmail(),
    deleteClient: body(
      opt(
        { createdBy: fc.option(p.email, { nil: null }), clientEmail: p.clientEmail, clientId: p.clientId },
        ['createdBy', 'clientEmail'],
      ),
    ),
    clientMeta: withId(),
    reassignClient: body(
      opt(
        {
          from: fc.option(p.email, { nil: null }),
          clientEmail: p.clientEmail,
          newVolunteerEmail: p.email,
          clientId: p.clientId,
        },
        ['from', 'clientEmail', 'newVolunteerEmail'],
      ),
    ),
    audit: query(
      fc
        .record({ clientId: fc.option(p.clientId), limit: fc.option(fc.constantFrom('1', '50', '1000')) })
        .map(({ clientId, limit }) => [
          ...(clientId === null ? [] : [['clientId', clientId] as const]),
          ...(limit === null ? [] : [['limit', limit] as const]),
        ]),
    ),
    seasonSummary: none,
    overview: none,
    // Never the real phrase: the fuzzer must not close the season it runs in.
    closeSeason: body(
      opt({ confirm: fc.string({ maxLength: 40 }).filter((s) => !s.startsWith('CLOSE SEASON')) }, []),
    ),
    getRetention: none,
    setRetention: body(
      opt({ days: fc.oneof(fc.constant(null), fc.integer({ min: 7, max: 365 })) }, ['days']),
    ),
    orphanedClients: none,
    volunteers: none,
    reassignOrphan: body(
      opt({ clientId: p.clientId, newVolunteerEmail: p.email }, ['clientId', 'newVolunteerEmail']),
    ),
    config: none,
    devOutbox: none,
    passkeyStatus: none,
    passkeyLoginOptions: none,
    passkeyLoginVerify: body(opt({ response: webauthnAnswer }, ['response'])),
    passkeyRegisterOptions: none,
    passkeyRegisterVerify: body(
      opt({ response: webauthnAnswer, name: fc.string({ maxLength: 80 }) }, ['response']),
    ),
    listPasskeys: none,
    deletePasskey: fc
      .string({ minLength: 1, maxLength: 40 })
      .map((id): Parts => ({ params: { id }, query: [], body: undefined })),
    passkeyNotNow: none,
    userPasskeys: withEmail(),
    removeUserPasskeys: withEmail(),
    getPasskeyPolicy: none,
    setPasskeyPolicy: body(opt({ requireForStaff: fc.boolean() }, ['requireForStaff'])),
  };
}

/** A browser's WebAuthn answer in shape (its bytes made up): the server's library must refuse it. */
const webauthnAnswer: fc.Arbitrary<Val> = fc.record({
  id: fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
  rawId: fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
  type: fc.constant('public-key'),
  response: fc.record({
    clientDataJSON: fc.stringMatching(/^[A-Za-z0-9_-]{0,80}$/),
    authenticatorData: fc.stringMatching(/^[A-Za-z0-9_-]{0,80}$/),
    signature: fc.stringMatching(/^[A-Za-z0-9_-]{0,80}$/),
    attestationObject: fc.stringMatching(/^[A-Za-z0-9_-]{0,80}$/),
  }),
  clientExtensionResults: fc.constant({}),
});

/** The body's field names (a made-up one when it has none), for mutations aimed at one field. */
const bodyKeys = (parts: Parts) => {
  const keys = Object.keys(parts.body ?? {});
  return keys.length > 0 ? keys : ['email'];
};

/** One slot of a call's parts, replaced by a hostile value (or removed, or added). */
function mutateField(parts: Parts): fc.Arbitrary<Parts> {
  const slots: string[] = [
    ...Object.keys(parts.params).map((k) => `params.${k}`),
    ...parts.query.map(([k]) => `query.${k}`),
    ...Object.keys(parts.body ?? {}).flatMap((k) => [`body.${k}`, `body.${k}`, `drop.${k}`]),
    'body.',
  ];
  return fc
    .record({
      slot: fc.constantFrom(...slots),
      value: hostileValue,
      name: fc.constantFrom('extra', 'EMAIL', 'email ', 'id', ''),
    })
    .map(({ slot, value, name }) => {
      const [where, key = ''] = slot.split(/\.(.*)/s) as [string, string?];
      const next: Parts = {
        params: { ...parts.params },
        query: [...parts.query],
        body: parts.body && { ...parts.body },
      };
      if (where === 'params') next.params[key] = value;
      else if (where === 'query')
        next.query = next.query.map(([k, v]) => [k, k === key ? value : v] as const);
      else if (where === 'drop') delete next.body?.[key];
      else next.body = { ...next.body, [key || name]: value };
      return next;
    });
}

const CONTENT_TYPES = [
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----x',
  'application/json; charset=utf-16',
  'application/json;charset=iso-8859-1',
  'APPLICATION/JSON',
  'application/json-patch+json',
  'application/jsonx',
  'application/json, text/plain',
  'application/ json',
  'application',
  '',
  ' ',
  ';',
  '*/*',
  'application/octet-stream',
  'application/xml',
  'text/html',
  'image/png',
  'application/json; boundary="',
  'application/json; charset=utf-8; charset=utf-8',
  `application/json; x=${'a'.repeat(4000)}`,
];

const MALFORMED = [
  '{',
  '}',
  '[',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{a:1}',
  'NaN',
  'undefined',
  '\ufeff{}',
  '{"a":"\u0000"}',
  '{"a":"\n"}',
  '{"a":1}{"b":2}',
  '{"a":1} x',
  '""',
  'null',
  'true',
  '1e999999',
  '-',
  '{"\\ud800":1}',
  '{"a":"\\u12"}',
  '{"a":"\\x41"}',
  '[1,2',
  '{"a":01}',
  '{"a":.5}',
  '\u0000',
  ' ',
  '\t\n',
  '{"__proto__":}',
  '"\\ud800"',
  '{"email":"a@b.c","email":"d@e.f"}',
  '{"email":"a@b.c","email":{"$gt":""}}',
  '/* c */{}',
  '{"a":1}\u0000',
  '\u2028{}',
  `${'['.repeat(40_000)}`,
  `{"a":"${'\\'.repeat(9)}"}`,
];

const HEADER_NAMES = [
  // Headers whose values the server keeps (the address behind a proxy, the browser's name) come up more often.
  'x-forwarded-for',
  'x-forwarded-for',
  'x-forwarded-for',
  'user-agent',
  'user-agent',
  'cookie',
  'x-csrf-token',
  'x-forwarded-for',
  'user-agent',
  'host',
  'accept',
  'accept-encoding',
  'accept-language',
  'content-encoding',
  'origin',
  'referer',
  'x-real-ip',
  'forwarded',
  'range',
  'if-modified-since',
  'if-none-match',
  'authorization',
  'x-http-method-override',
  'x-forwarded-proto',
  'x-forwarded-host',
  'content-language',
  'te',
  'x-request-id',
];
const HEADER_VALUES: Val[] = [
  `vita_session=${'A'.repeat(100)}`,
  `vita_session=${'A'.repeat(101)}`,
  'vita_session=x; vita_session=y',
  `__Host-vita_session=${'B'.repeat(43)}`,
  'vita_pre=short; csrf_token=%ZZ',
  `vita_pre=${'a'.repeat(64)}; vita_pre=${'b'.repeat(20)}`,
  ';;;;',
  '=',
  'a=b; '.repeat(1000),
  'unknown',
  '1.2.3.4, 5.6.7.8, 127.0.0.1',
  '999.999.999.999',
  '::1',
  'fe80::1%eth0',
  '[::1]:80',
  ' , , ',
  'for="_gazonk"',
  'evil.example',
  '',
  'bytes=0-0',
  'bytes=-1,0-999999999999',
  'gzip, deflate, br, zstd, *;q=0',
  'Basic Og==',
  'DELETE',
  'https',
  'null',
];
/** Keeps values a header can carry on one line (a stray CR or LF would be a different request). */
const headerValue: fc.Arbitrary<Val> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HEADER_VALUES) },
  { weight: 3, arbitrary: hostileString(20_000).filter((v) => typeof v !== 'string' || !/[\r\n]/.test(v)) },
  { weight: 1, arbitrary: rawBytes.filter((b) => !b.bytes.includes(10) && !b.bytes.includes(13)) },
);

/** Text a person could type into a field (short enough to be accepted), hostile in every other way. */
const typedText = fc.oneof(
  edgeString,
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.constantFrom(...TOKENS),
  noise(300).map((n) => n.text()),
);

const TAMPER_PARAMS = ['k', 'ct', 'max', 'exp', 'sig', 'd', 'n'];
const tamper: fc.Arbitrary<Tamper> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<Tamper>({ t: 'none' }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('flip' as const),
      param: fc.constantFrom(...TAMPER_PARAMS),
      at: fc.nat(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant('drop' as const), param: fc.constantFrom(...TAMPER_PARAMS) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('twice' as const),
      param: fc.constantFrom(...TAMPER_PARAMS),
      value: hostileString(5_000),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('set' as const),
      param: fc.constantFrom(...TAMPER_PARAMS),
      value: hostileValue,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('append' as const),
      name: fc.constantFrom(...POLLUTION_KEYS, 'x', ''),
      value: hostileString(5_000),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('replace' as const),
      query: fc.oneof(
        fc.constantFrom('', '&', '=', '%', '%zz', 'k', 'sig=', '&&&&=&=', 'a[b]=c', '__proto__[x]=1'),
        fc.string({ unit: 'binary', maxLength: 60 }),
        rawBytes,
      ),
    }),
  },
);

const STATE_CHANGING = new Set(['POST', 'DELETE', 'PUT', 'PATCH']);

/** The whole request generator: a weighted mix of kinds over every endpoint. */
function requestArbitrary(world: World): fc.Arbitrary<Spec> {
  const bases = baseParts(world);
  const who = fc.constantFrom<Who>(
    'admin',
    'admin',
    'admin',
    'volunteer0',
    'volunteer0',
    'volunteer1',
    'volunteer1',
    'anonymous',
    'anonymous',
    'anonymous',
  );
  const csrf = fc.oneof(
    { weight: 85, arbitrary: fc.constant<Csrf>('valid') },
    { weight: 15, arbitrary: fc.constantFrom<Csrf>('missing', 'wrong', 'foreign', 'huge', 'twice') },
  );
  const endpoint = fc.constantFrom(...ENDPOINT_NAMES);
  const withParams = ENDPOINT_NAMES.filter((n) => endpoints[n].path.includes(':'));
  const from = fc.oneof(
    { weight: 19, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.constantFrom<Val>(
          'unknown',
          '203.0.113.7:4711',
          '[2001:db8::1]:4711',
          '1.2.3.4, 5.6.7.8',
          '999.999.999.999',
          ' , , ',
          'fe80::1%eth0',
          '',
          '127.0.0.1',
        ),
        noise(9_000).map((n): Val => n),
        fc
          .tuple(noise(9_000), fc.constantFrom(', 203.0.113.9', ',,', ''))
          .map(([n, tail]): Val => `${n.text()}${tail}`),
        headerValue,
      ),
    },
  );
  const common = { who, csrf, ip: fc.nat({ max: 4095 }), from };
  const asBody = (parts: Parts): Body =>
    parts.body === undefined ? { type: 'none' } : { type: 'json', value: parts.body };
  const onEndpoint = (
    name: fc.Arbitrary<EndpointName>,
    make: (parts: Parts, name: EndpointName) => fc.Arbitrary<Partial<Spec>>,
    kind: Kind,
  ) =>
    name.chain((route) =>
      bases[route].chain((parts) =>
        fc.record({ ...common, extra: make(parts, route) }).map(({ extra, ...rest }): Spec => ({
          kind,
          route,
          params: parts.params,
          query: parts.query,
          body: asBody(parts),
          headers: [],
          ...rest,
          // A signed-in identity's logout only ever gets as far as the CSRF check: a real one would
          // end the session every later request of that identity relies on (anonymous ones log out for real).
          ...(route === 'logout' && rest.who !== 'anonymous' && { csrf: 'wrong' as const }),
          ...extra,
        })),
      ),
    );

  const kinds: Record<Kind, [number, fc.Arbitrary<Spec>]> = {
    'valid-ish': [6, onEndpoint(endpoint, () => fc.constant({}), 'valid-ish')],
    field: [
      26,
      onEndpoint(
        endpoint,
        (parts) =>
          mutateField(parts).map((next) => ({ params: next.params, query: next.query, body: asBody(next) })),
        'field',
      ),
    ],
    pollution: [
      7,
      onEndpoint(
        endpoint,
        (parts) =>
          fc.oneof(
            fc
              .record({
                key: fc.constantFrom(...POLLUTION_KEYS, ...MASS_ASSIGNMENT_KEYS),
                value: fc.oneof(pollutionValue, fc.constantFrom<Val>(true, 'officer', 1, null)),
              })
              .map(({ key, value }) => ({
                body: json(new Entries([...Object.entries(parts.body ?? {}), [key, value]])),
              })),
            fc
              .constantFrom<Array<readonly [string, Val]>>(
                [['__proto__[isAdmin]', 'true']],
                [['constructor[prototype][isAdmin]', '1']],
                [
                  ['__proto__', 'x'],
                  ['__proto__', 'y'],
                ],
                [['constructor', 'x']],
                [['prototype', '{}']],
              )
              .map((extra) => ({ query: [...parts.query, ...extra] })),
            pollutionValue.map((value) => ({ body: json(value) })),
          ),
        'pollution',
      ),
    ],
    'wrong type': [
      5,
      onEndpoint(endpoint, () => hostileValue.map((value) => ({ body: json(value) })), 'wrong type'),
    ],
    'deep nesting': [
      3,
      onEndpoint(
        endpoint,
        (parts) =>
          fc.oneof(
            deepValue.map((value) => ({ body: json(value) })),
            fc
              .record({ value: deepValue, key: fc.constantFrom(...bodyKeys(parts)) })
              .map(({ value, key }) => ({
                body: json({ ...parts.body, [key]: value }),
              })),
          ),
        'deep nesting',
      ),
    ],
    'malformed JSON': [
      7,
      onEndpoint(
        endpoint,
        (parts) =>
          fc
            .oneof(
              fc.constantFrom(...MALFORMED),
              fc.nat().map((cut) => {
                const text = Buffer.concat(toJson(parts.body ?? { email: 'a@b.c' })).toString('utf8');
                return text.slice(0, cut % Math.max(1, text.length));
              }),
              fc.string({ unit: 'binary', maxLength: 200 }),
            )
            .map((t) => ({ body: text(t), ...(parts.body === undefined ? { method: 'POST' } : {}) })),
        'malformed JSON',
      ),
    ],
    'invalid UTF-8': [
      5,
      onEndpoint(
        endpoint,
        (parts) =>
          fc
            .record({
              where: fc.constantFrom('body', 'body', 'query', 'param', 'header'),
              bytes: rawBytes,
              key: fc.constantFrom(...bodyKeys(parts)),
            })
            .map(({ where, bytes, key }): Partial<Spec> => {
              if (where === 'body') return { body: json({ ...parts.body, [key]: bytes }) };
              if (where === 'query')
                return { query: [...parts.query.slice(1), [parts.query[0]?.[0] ?? 'docType', bytes]] };
              if (where === 'param' && Object.keys(parts.params).length > 0) {
                return {
                  params: Object.fromEntries(Object.keys(parts.params).map((k) => [k, bytes])),
                  rawParams: bytes.bytes.length % 2 === 0,
                };
              }
              return { headers: [['set', 'user-agent', bytes]] };
            }),
        'invalid UTF-8',
      ),
    ],
    'content type': [
      6,
      onEndpoint(
        endpoint,
        (parts) =>
          fc
            .record({ type: fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: null }), form: fc.boolean() })
            .map(({ type, form }) => ({
              contentType: type,
              ...(parts.body === undefined ? { method: 'POST' } : {}),
              body: form
                ? text('email=a%40b.c&pin=x&__proto__[isAdmin]=1')
                : asBody(parts.body === undefined ? { ...parts, body: {} } : parts),
            })),
        'content type',
      ),
    ],
    '10 MB body': [
      1,
      fc.oneof(
        onEndpoint(endpoint, () => hugeBody.map((body) => ({ body })), '10 MB body'),
        fc.record({ ...common, template: fc.nat(), body: hugeBody }).map(({ template, ...rest }): Spec => ({
          kind: '10 MB body',
          route: 'storagePut',
          params: {},
          query: [],
          headers: [],
          storage: { template, tamper: { t: 'none' } },
          ...rest,
        })),
      ),
    ],
    query: [
      6,
      onEndpoint(
        endpoint,
        (parts) =>
          fc
            .oneof(
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
              fc.constantFrom(
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
              ),
              fc.string({ unit: 'binary', maxLength: 100 }).map((s) => s.replace(/[\s#]/g, '')),
              rawBytes,
            )
            .map((query) => ({ query: Array.isArray(query) ? [...parts.query, ...query] : query })),
        'query',
      ),
    ],
    params: [
      6,
      onEndpoint(
        fc.constantFrom(...withParams),
        (parts) =>
          fc
            .record({
              value: fc.oneof(
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
              ),
              raw: fc.boolean(),
            })
            .map(({ value, raw }) => ({
              params: Object.fromEntries(Object.keys(parts.params).map((k) => [k, value])),
              rawParams: raw,
            })),
        'params',
      ),
    ],
    headers: [
      8,
      onEndpoint(
        endpoint,
        () =>
          fc
            .array(
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
            )
            .map((headers) => ({ headers: headers })),
        'headers',
      ),
    ],
    protocol: [
      4,
      onEndpoint(
        endpoint,
        () =>
          fc
            .record({
              protocol: fc.constantFrom(...PROTOCOL_CASES),
              other: fc.constantFrom(
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
              ),
            })
            // Only "other method" changes the method: every other case is made on the endpoint's own.
            .map(({ protocol, other }) => ({
              protocol,
              ...(protocol === 'other method' && { method: other }),
            })),
        'protocol',
      ),
    ],
    path: [
      3,
      fc
        .record({
          ...common,
          method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT'),
          rawPath: fc.oneof(
            fc.constantFrom(
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
            ),
            fc.string({ unit: 'binary', maxLength: 60 }).map((s) => `/api/${s.replace(/[\s#?]/g, '')}`),
            rawBytes.map(
              (b) => new Bytes([...Buffer.from('/api/clients/'), ...b.bytes, ...Buffer.from('/docs/status')]),
            ),
          ),
        })
        .map((rest): Spec => ({
          kind: 'path',
          route: 'path',
          params: {},
          query: [],
          body: { type: 'none' },
          headers: [],
          ...rest,
        })),
    ],
    'storage put': [
      4,
      fc
        .record({
          ...common,
          template: fc.nat(),
          tamper,
          contentType: fc.option(
            fc.constantFrom(
              'application/pdf',
              'APPLICATION/PDF',
              'application/pdf; x=1',
              'image/png',
              'text/html',
              '',
              ...CONTENT_TYPES.slice(0, 4),
            ),
            { nil: undefined },
          ),
          body: fc.oneof(
            fc
              .uint8Array({ maxLength: 5_000 })
              .map((bytes) => text(`%PDF-1.7\n${Buffer.from(bytes).toString('latin1')}`, true)),
            fc.constantFrom<Body>(
              { type: 'none' },
              { type: 'text', text: '' },
              { type: 'text', text: '<html><script>alert(1)</script>' },
              { type: 'text', text: 'GIF89a' },
            ),
          ),
          method: fc.constantFrom('PUT', 'PUT', 'PUT', 'PUT', 'POST', 'GET', 'OPTIONS', 'DELETE'),
        })
        .map(({ template, tamper: t, ...rest }): Spec => ({
          kind: 'storage put',
          route: 'storagePut',
          params: {},
          query: [],
          headers: [],
          storage: { template, tamper: t },
          ...rest,
        })),
    ],
    'upload flow': [
      2,
      fc
        .record({
          ...common,
          who: fc.constantFrom<Who>('admin', 'volunteer0'),
          flow: fc.record({
            client: fc.nat(),
            template: fc.constantFrom(...CATEGORY_TEMPLATES),
            note: typedText,
            filename: typedText,
            contentType: fc.constantFrom(
              'application/pdf' as const,
              'image/png' as const,
              'image/jpeg' as const,
            ),
            downloadAs: typedText,
            rename: typedText,
          }),
        })
        .map((rest): Spec => ({
          kind: 'upload flow',
          route: 'presignUpload',
          params: {},
          query: [],
          body: { type: 'none' },
          headers: [],
          ...rest,
          csrf: 'valid',
        })),
    ],
    'storage get': [
      3,
      fc
        .record({
          ...common,
          tamper,
          method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST'),
          headers: fc.option(
            fc.constantFrom<HeaderEdit[]>(
              [['set', 'range', 'bytes=0-0']],
              [['set', 'range', 'bytes=-1,0-999999999999']],
              [['set', 'if-modified-since', 'garbage']],
            ),
            {
              nil: [],
            },
          ),
        })
        .map(({ tamper: t, ...rest }): Spec => ({
          kind: 'storage get',
          route: 'storageGet',
          params: {},
          query: [],
          body: { type: 'none' },
          storage: { template: 0, tamper: t },
          ...rest,
        })),
    ],
  };
  return fc.oneof(...KINDS.map((kind) => ({ weight: kinds[kind][0], arbitrary: kinds[kind][1] })));
}

// ── Turning a spec into bytes on the wire ─────────────────────────────────────────────────────────

interface Identity {
  cookie: string;
  csrf: string;
}

/** What `materialize` needs besides the spec. */
interface Wiring {
  port: number;
  identities: Record<Who, Identity>;
  putTemplates: string[];
  getTemplate: () => string;
}

interface Wire {
  /** The whole request, or its head with a streamed body of `streamBytes`. */
  head: Buffer;
  body: Buffer;
  stream?: { bytes: number; chunked: boolean; keepAlive: boolean };
  method: string;
  /** For the report: `METHOD /path` of the contract (or the storage route). */
  label: string;
  /** For the report: the request line's target. */
  target: string;
}

const CRLF = '\r\n';

function tamperQuery(template: string, t: Tamper): string {
  const entries = [...new URLSearchParams(template)];
  const enc = (v: Val) => urlPiece(v, false);
  switch (t.t) {
    case 'none':
      return template;
    case 'flip':
      return entries
        .map(([k, v]) => {
          if (k !== t.param || v.length === 0) return `${k}=${encodeURIComponent(v)}`;
          const at = t.at % v.length;
          const swapped = v[at] === 'A' ? 'B' : 'A';
          return `${k}=${encodeURIComponent(v.slice(0, at) + swapped + v.slice(at + 1))}`;
        })
        .join('&');
    case 'drop':
      return entries
        .filter(([k]) => k !== t.param)
        .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
        .join('&');
    case 'twice':
      return `${template}&${t.param}=${enc(t.value)}`;
    case 'set':
      return entries
        .map(([k, v]) => `${k}=${k === t.param ? enc(t.value) : encodeURIComponent(v)}`)
        .join('&');
    case 'append':
      return `${template}&${enc(t.name)}=${enc(t.value)}`;
    case 'replace':
      return typeof t.query === 'string' ? t.query : t.query && Buffer.from(t.query.bytes).toString('latin1');
  }
}

function materialize(spec: Spec, wiring: Wiring): Wire {
  const identity = wiring.identities[spec.who];
  let method: string;
  let path: string;
  let query = '';
  let label: string;
  if (spec.route === 'storagePut' || spec.route === 'storageGet') {
    const put = spec.route === 'storagePut';
    method = spec.method ?? (put ? 'PUT' : 'GET');
    path = put ? '/api/storage/put' : '/api/storage/get';
    const template = put
      ? (wiring.putTemplates[(spec.storage?.template ?? 0) % wiring.putTemplates.length] ?? '')
      : wiring.getTemplate();
    query = tamperQuery(template, spec.storage?.tamper ?? { t: 'none' });
    label = `${method} ${path}`;
  } else if (spec.route === 'path') {
    method = spec.method ?? 'GET';
    path =
      spec.rawPath instanceof Bytes
        ? Buffer.from(spec.rawPath.bytes).toString('latin1')
        : (spec.rawPath ?? '/api');
    label = `${method} (other paths)`;
  } else {
    const def = endpoints[spec.route];
    method = spec.method ?? def.method;
    path = `/api${def.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
      const value = spec.params[name];
      return value === undefined ? '' : urlPiece(value, spec.rawParams === true);
    })}`;
    label = `${def.method} /api${def.path}`;
  }
  if (typeof spec.query === 'string') query ||= spec.query;
  else if (spec.query instanceof Bytes) query ||= Buffer.from(spec.query.bytes).toString('latin1');
  else if (spec.query.length > 0)
    query ||= spec.query.map(([k, v]) => `${urlPiece(k, false)}=${urlPiece(v, false)}`).join('&');
  const target = query ? `${path}?${query}` : path;

  let body = Buffer.alloc(0);
  let stream: Wire['stream'];
  if (spec.body.type === 'json') body = Buffer.concat(toJson(spec.body.value));
  else if (spec.body.type === 'text')
    body = Buffer.from(spec.body.text, spec.body.latin1 ? 'latin1' : 'utf8');
  else if (spec.body.type === 'huge')
    stream = { bytes: spec.body.bytes, chunked: spec.body.chunked, keepAlive: spec.body.keepAlive };

  const headers: Array<[string, string]> = [
    ['Host', `127.0.0.1:${wiring.port}`],
    ['Connection', stream?.keepAlive ? 'keep-alive' : 'close'],
    [
      'X-Forwarded-For',
      spec.from === undefined
        ? `10.66.${spec.ip >> 8}.${spec.ip & 255}`
        : valueBytes(spec.from).toString('latin1'),
    ],
    ['User-Agent', 'vita-fuzz'],
    ['Accept', 'application/json'],
  ];
  if (identity.cookie) headers.push(['Cookie', identity.cookie]);
  const others = Object.values(wiring.identities).filter((i) => i !== identity);
  const token = {
    valid: identity.csrf,
    wrong: `${identity.csrf.slice(0, -2)}AA`,
    foreign: others[0]?.csrf ?? 'x',
    huge: 'A'.repeat(12_000),
    twice: identity.csrf,
    missing: '',
  }[spec.csrf];
  if (spec.csrf !== 'missing') headers.push(['x-csrf-token', token]);
  if (spec.csrf === 'twice') headers.push(['x-csrf-token', identity.csrf]);
  const put = spec.route === 'storagePut';
  const contentType =
    spec.contentType === undefined
      ? put
        ? 'application/pdf'
        : spec.body.type === 'none'
          ? null
          : 'application/json'
      : spec.contentType;
  if (contentType !== null) headers.push(['Content-Type', contentType]);
  if (stream?.chunked) headers.push(['Transfer-Encoding', 'chunked']);
  else if (stream) headers.push(['Content-Length', String(stream.bytes)]);
  else if (spec.body.type !== 'none' || STATE_CHANGING.has(method))
    headers.push(['Content-Length', String(body.length)]);

  for (const edit of spec.headers) {
    const name = edit[1];
    if (edit[0] !== 'add')
      headers.splice(0, headers.length, ...headers.filter(([n]) => n.toLowerCase() !== name));
    if (edit[0] !== 'drop') headers.push([name, valueBytes(edit[2]).toString('latin1')]);
  }

  let version = '1.1';
  let line = (m: string, t: string) => `${m} ${t} HTTP/${version}`;
  let separator = CRLF;
  let trailer = Buffer.alloc(0);
  const drop = (name: string) =>
    headers.splice(0, headers.length, ...headers.filter(([n]) => n.toLowerCase() !== name));
  switch (spec.protocol) {
    case undefined:
      break;
    case 'http/1.0 without host':
      version = '1.0';
      drop('host');
      break;
    case 'http/1.1 without host':
      drop('host');
      break;
    case 'absolute-form target':
      line = (m, t) => `${m} http://evil.example${t} HTTP/${version}`;
      break;
    case 'asterisk target':
      line = () => `OPTIONS * HTTP/${version}`;
      break;
    case 'lower-case method':
      method = method.toLowerCase();
      break;
    case 'unknown method':
      method = 'FOO';
      break;
    case 'other method':
      method = spec.method ?? 'PATCH';
      break;
    case 'content-length and transfer-encoding':
      headers.push(['Transfer-Encoding', 'chunked']);
      break;
    case 'two content-lengths':
      headers.push(['Content-Length', String(body.length + 1)]);
      break;
    case 'content-length too small':
      drop('content-length');
      headers.push(['Content-Length', String(Math.floor(body.length / 2))]);
      break;
    case 'bare LF line ends':
      separator = '\n';
      break;
    case 'header without colon':
      headers.push(['X-No-Colon', '\u0000']);
      break;
    case 'space before colon':
      headers.push(['X-Space ', 'x']);
      break;
    case 'folded header':
      headers.push(['X-Folded', 'a\r\n b']);
      break;
    case 'NUL in header':
      headers.push(['X-Nul', 'a\u0000b']);
      break;
    case 'non-ASCII header name':
      headers.push(['X-N\u00e4me', 'x']);
      break;
    case 'many headers':
      for (let i = 0; i < 3000; i += 1) headers.push([`X-H${i}`, 'x']);
      break;
    case 'long request line':
      line = (m, t) => `${m} ${t}${t.includes('?') ? '&' : '?'}pad=${'a'.repeat(70_000)} HTTP/${version}`;
      break;
    case 'garbage after request':
      trailer = Buffer.from('\u0000\u00ff GARBAGE / HTTP/9.9\r\n\r\n', 'latin1');
      break;
    case 'expect':
      headers.push(['Expect', spec.who === 'anonymous' ? '100-continue' : 'something-else']);
      break;
    case 'upgrade':
      drop('connection');
      headers.push(['Connection', 'Upgrade'], ['Upgrade', 'websocket']);
      break;
    case 'keep-alive':
      drop('connection');
      headers.push(['Connection', 'keep-alive']);
      break;
  }
  const headerText =
    spec.protocol === 'header without colon'
      ? headers.map(([n, v]) => (n === 'X-No-Colon' ? 'X-No-Colon' : `${n}: ${v}`))
      : headers.map(([n, v]) => `${n}: ${v}`);
  const head = Buffer.from(
    `${line(method, target)}${separator}${headerText.join(separator)}${separator}${separator}`,
    'latin1',
  );
  return { head, body: Buffer.concat([body, trailer]), ...(stream && { stream }), method, label, target };
}

// ── A raw HTTP/1.1 client ────────────────────────────────────────────────────────────────────────

interface Answer {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
}
interface Outcome {
  answers: Answer[];
  /** Set when the connection ended without any answer (reset, timeout). */
  error?: string;
  /** The request was still being written when the connection failed. */
  unsent: boolean;
  ms: number;
}

/** Every complete HTTP response in `data` (pipelined answers included); a cut-off last one is kept when the socket closed. */
function parseAnswers(
  data: Buffer,
  method: string,
  closed: boolean,
): { answers: Answer[]; complete: boolean } {
  const answers: Answer[] = [];
  let at = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', at);
    if (end < 0) return { answers, complete: at >= data.length };
    const lines = data.subarray(at, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
    const headers = new Map<string, string>();
    for (const l of lines.slice(1)) {
      const colon = l.indexOf(':');
      if (colon > 0) headers.set(l.slice(0, colon).trim().toLowerCase(), l.slice(colon + 1).trim());
    }
    let next = end + 4;
    if (status >= 100 && status < 200) {
      at = next;
      continue;
    }
    let body: Buffer = Buffer.alloc(0);
    if (method !== 'HEAD' && status !== 204 && status !== 304) {
      if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) {
        const chunks: Buffer[] = [];
        for (;;) {
          const lineEnd = data.indexOf('\r\n', next);
          if (lineEnd < 0)
            return {
              answers: closed ? [...answers, { status, headers, body: Buffer.concat(chunks) }] : answers,
              complete: false,
            };
          const size = parseInt(data.subarray(next, lineEnd).toString('latin1'), 16);
          if (!Number.isFinite(size)) return { answers, complete: false };
          if (size === 0) {
            next = lineEnd + 4;
            break;
          }
          chunks.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
          next = lineEnd + 2 + size + 2;
          if (next > data.length)
            return {
              answers: closed ? [...answers, { status, headers, body: Buffer.concat(chunks) }] : answers,
              complete: false,
            };
        }
        body = Buffer.concat(chunks);
      } else if (headers.has('content-length')) {
        const length = Number(headers.get('content-length'));
        if (next + length > data.length)
          return {
            answers: closed ? [...answers, { status, headers, body: data.subarray(next) }] : answers,
            complete: false,
          };
        body = data.subarray(next, next + length);
        next += length;
      } else {
        body = data.subarray(next);
        if (!closed) return { answers, complete: false };
        next = data.length;
      }
    }
    answers.push({ status, headers, body });
    at = next;
  }
}

const FILLER = Buffer.alloc(64 * 1024, 'x');

/** Sends the wire bytes on a fresh connection and collects what comes back until the server closes or goes quiet. */
function send(port: number, wire: Wire, timeoutMs: number): Promise<Outcome> {
  const began = performance.now();
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    /** Done writing (all of it, or as much as the server took before it answered). */
    let written = false;
    /** Every byte of the request went out. */
    let sentAll = false;
    let idle: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(idle);
      socket.destroy();
      const { answers } = parseAnswers(Buffer.concat(received), wire.method, true);
      resolve({
        answers,
        unsent: !sentAll,
        ms: performance.now() - began,
        ...(answers.length === 0 && { error: error ?? 'closed without an answer' }),
      });
    };
    const timer = setTimeout(() => finish(`no answer within ${timeoutMs / 1000} s`), timeoutMs);
    // A kept-alive connection: done once a whole answer arrived, the request was sent, and nothing more came for a moment.
    const maybeDone = () => {
      clearTimeout(idle);
      if (!written) return;
      const { answers, complete } = parseAnswers(Buffer.concat(received), wire.method, false);
      if (answers.length > 0 && complete) idle = setTimeout(() => finish(), 300);
    };
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      maybeDone();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => finish(err.code ?? err.message));
    socket.on('close', () => finish());
    socket.on('connect', () => {
      void (async () => {
        const write = async (bytes: Buffer) => {
          if (socket.destroyed || !socket.writable) return false;
          if (!socket.write(bytes))
            await new Promise<void>((r) => {
              socket.once('drain', r);
              socket.once('close', r);
            });
          return !socket.destroyed;
        };
        let ok = await write(wire.head);
        if (ok && wire.body.length > 0) ok = await write(wire.body);
        if (ok && wire.stream) {
          let left = wire.stream.bytes;
          // Like a browser: read while sending, and stop sending once the server has answered.
          while (left > 0 && received.length === 0) {
            await new Promise((r) => setImmediate(r));
            const chunk = FILLER.subarray(0, Math.min(left, FILLER.length));
            ok = wire.stream.chunked
              ? await write(
                  Buffer.concat([
                    Buffer.from(`${chunk.length.toString(16)}\r\n`),
                    chunk,
                    Buffer.from('\r\n'),
                  ]),
                )
              : await write(chunk);
            if (!ok) break;
            left -= chunk.length;
          }
          if (ok && wire.stream.chunked && left === 0) ok = await write(Buffer.from('0\r\n\r\n'));
          ok &&= left === 0;
        }
        sentAll = ok;
        written = true;
        maybeDone();
      })();
    });
  });
}

// ── Checking answers ─────────────────────────────────────────────────────────────────────────────

type Failure = '5xx' | 'error not JSON' | 'error shape' | 'error text not for people' | 'no answer';

/** HTTP reason phrases ("Bad Request"), library defaults ("Invalid input: expected string…") and internals: not something a person can act on. */
const REASON_PHRASES = new Set(Object.values(http.STATUS_CODES));
const DEVELOPER_TEXT =
  /^(Invalid input|Too big|Too small|Invalid (string|option|element|key|union|format))|expected \w+, received|FST_ERR|\[object Object\]|\bat .+:\d+:\d+\)?$|'Content-Type' header/;

/** The limits beyond which the server may refuse a request before reading all of it (headers, JSON bodies). */
const HEAD_LIMIT = 16 * 1024;
const JSON_BODY_LIMIT = 64 * 1024;

/** What is wrong with one answer, if anything. */
function judge(answer: Answer, method: string): Failure | null {
  if (answer.status >= 500 || answer.status === 0) return '5xx';
  if (answer.status < 400) return null;
  if (!/^application\/json\b/i.test(answer.headers.get('content-type') ?? '')) return 'error not JSON';
  // A HEAD answer has the headers of the GET and no body.
  if (method === 'HEAD') return null;
  try {
    const parsed: unknown = JSON.parse(answer.body.toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'error shape';
    const { error, code, ...others } = parsed as { error?: unknown; code?: unknown };
    if (
      typeof error !== 'string' ||
      error.trim() === '' ||
      !isErrorCode(code) ||
      Object.keys(others).length > 0
    )
      return 'error shape';
    return REASON_PHRASES.has(error) || DEVELOPER_TEXT.test(error) ? 'error text not for people' : null;
  } catch {
    return 'error shape';
  }
}

const excerpt = (bytes: Buffer, max: number) => {
  const text = JSON.stringify(bytes.subarray(0, max).toString('utf8'));
  return bytes.length > max ? `${text.slice(0, -1)}…" (${bytes.length} bytes)` : text;
};

function describe(spec: Spec, wire: Wire, outcome: Outcome): string {
  const body = wire.stream
    ? `<${wire.stream.bytes / MB} MB${wire.stream.chunked ? ', chunked' : ''}>`
    : excerpt(wire.body, 120);
  // The headers the spec changed (all of them for protocol cases), each value cut short.
  const changed = new Set([
    ...spec.headers.map((edit) => edit[1]),
    ...(spec.from === undefined ? [] : ['x-forwarded-for']),
  ]);
  const lines = wire.head
    .toString('latin1')
    .split(/\r?\n/)
    .slice(1)
    .filter(
      (line) =>
        line && (spec.protocol !== undefined || changed.has(line.slice(0, line.indexOf(':')).toLowerCase())),
    )
    .map((line) => (line.length > 100 ? `${line.slice(0, 100)}… (${line.length} chars)` : line));
  const headers = lines.length > 0 ? ` headers ${JSON.stringify(lines.slice(0, 12).join('\n'))}` : '';
  const answer =
    outcome.answers
      .map((a) => `${a.status} ${a.headers.get('content-type') ?? '(no type)'} ${excerpt(a.body, 160)}`)
      .join(' + ') ||
    outcome.error ||
    '';
  const target =
    wire.target.length > 160 ? `${wire.target.slice(0, 160)}… (${wire.target.length} chars)` : wire.target;
  return `[${spec.kind}${spec.protocol ? `: ${spec.protocol}` : ''}, as ${spec.who}, csrf ${spec.csrf}] ${wire.method} ${JSON.stringify(target)} body ${body}${headers} → ${answer}`;
}

// ── Slow connections ─────────────────────────────────────────────────────────────────────────────

interface Slow {
  mode: 'body' | 'headers' | 'upload';
  sent: number;
  openedAt: number;
  closedAt?: number;
  answer?: Answer;
}

/**
 * Connections that trickle a request one byte at a time until stopped: a JSON body, the headers
 * themselves, and an upload on a real upload link. Records when (and with what answer) the server ends each.
 */
function startSlowConnections(port: number, count: number, anonymous: Identity, putQuery: string) {
  const body = JSON.stringify({ email: 'slow@fuzz.test', pin: 'slow pin 12345' });
  const modes: ReadonlyArray<{ mode: Slow['mode']; head: string; rest: string }> = [
    {
      mode: 'body',
      head: `POST /api/auth/login-init HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${anonymous.cookie}\r\nx-csrf-token: ${anonymous.csrf}\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 60_000}\r\n\r\n`,
      rest: body + ' '.repeat(60_000),
    },
    {
      mode: 'headers',
      head: 'GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\n',
      rest: `X-Slow: ${'a'.repeat(60_000)}`,
    },
    {
      mode: 'upload',
      head: `PUT /api/storage/put?${putQuery} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/pdf\r\nContent-Length: 100000\r\n\r\n`,
      rest: `%PDF-1.7\n${'x'.repeat(99_990)}`,
    },
  ];
  const slows: Slow[] = [];
  const sockets: net.Socket[] = [];
  let stopped = false;
  for (let i = 0; i < count; i += 1) {
    const { mode, head, rest } = modes[i % modes.length] ?? { mode: 'body', head: '', rest: '' };
    const slow: Slow = { mode, sent: 0, openedAt: Date.now() };
    slows.push(slow);
    const socket = net.connect(port, '127.0.0.1');
    sockets.push(socket);
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      slow.answer = parseAnswers(received, 'POST', true).answers[0];
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (!stopped) slow.closedAt ??= Date.now();
    });
    socket.on('connect', () => {
      socket.write(head);
      slow.sent = head.length;
      void (async () => {
        for (let at = 0; at < rest.length && !socket.destroyed && !stopped; at += 1) {
          await sleep(400);
          if (socket.destroyed || stopped) break;
          socket.write(rest[at] ?? ' ');
          slow.sent += 1;
        }
      })();
    });
  }
  return {
    slows,
    stop() {
      stopped = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}

// ── Setting up the world ─────────────────────────────────────────────────────────────────────────

/** A browser of our own (its cookies readable), signed in through PIN and emailed code unless anonymous. */
async function session(
  url: string,
  email?: string,
  pin?: string,
): Promise<{ identity: Identity; api: ApiClient }> {
  const jar = createCookieJarFetch((input, init) => fetch(input, init), { pageUrl: url });
  const api = createApiClient({ baseUrl: `${url}/api`, fetch: jar.fetch, getCookie: jar.getCookie });
  await jar.fetch(`${url}/api/me`).then((res) => res.body?.cancel());
  if (email && pin) {
    const before = ((await (await fetch(`${url}/api/dev/outbox`)).json()) as unknown[]).length;
    await api.loginInit({ body: { email, pin } });
    await api.loginVerify({ body: { email, code: await latestCode(url, email, before) } });
  }
  return { identity: { cookie: jar.cookieHeader(), csrf: readCsrfToken(jar.getCookie) ?? '' }, api };
}

async function buildWorld(url: string) {
  const { admin, volunteers } = await setUpProgramme(url, 2);
  const [vol0, vol1] = volunteers;
  if (!vol0 || !vol1) throw new Error('two volunteers were set up');
  const victims = ['victim0@fuzz.test', 'victim1@fuzz.test', 'victim2@fuzz.test', 'victim3@fuzz.test'];
  for (const [i, email] of victims.entries()) {
    await openBrowser(url).api.register({
      body: { firstName: 'Victim', lastName: `Number ${i}`, email, pin: VOLUNTEER_PIN },
    });
    if (i < 3) await admin.api.approveUser({ params: { email }, body: { approved: true } });
  }
  // An orphaned client: its volunteer's account is deleted.
  const leaving = await session(url, 'victim2@fuzz.test', VOLUNTEER_PIN);
  const orphan = await leaving.api.createClient({
    body: { firstName: 'Orphan', lastName: 'Client', email: 'orphan@client.test', phone: '555 010 0177' },
  });
  await admin.api.deleteUser({ params: { email: 'victim2@fuzz.test' } });

  const world: World = {
    ownClientIds: [],
    otherClientIds: [],
    orphanClientIds: [orphan.client.clientId],
    clientEmails: ['orphan@client.test'],
    victimEmails: victims,
    docTypes: [...FIXED_CATEGORIES],
    keys: [],
  };
  let anchor = '';
  for (const [v, browser] of [vol0, vol1].entries()) {
    for (let c = 0; c < (v === 0 ? 3 : 2); c += 1) {
      const label = `Fuzz${v}x${c}`;
      const clientId = await newClient(browser, label);
      (v === 0 ? world.ownClientIds : world.otherClientIds).push(clientId);
      world.clientEmails.push(`${label.toLowerCase()}@client.test`);
      const key = await upload(
        browser,
        clientId,
        'Banking Info',
        `statement ${v}-${c}.pdf`,
        randomPdf(3_000),
      );
      if (!anchor) anchor = key;
      else world.keys.push(key);
      if (c === 0) {
        const added = await browser.api.addDocType({
          params: { id: clientId },
          body: { template: 'W-2', note: `Acme ${v}, Inc.` },
        });
        world.docTypes.push(added.docType);
      }
    }
  }
  // Upload URLs to tamper with: some with a declared size and digest, some without.
  const putTemplates: string[] = [];
  for (let i = 0; i < 6; i += 1) {
    const declared =
      i < 4 ? { size: 4_096, sha256: createHash('sha256').update(String(i)).digest('hex') } : {};
    const presigned = await vol0.api.presignUpload({
      params: { id: world.ownClientIds[0] ?? '' },
      body: {
        docType: 'Banking Info',
        filename: `fuzz ${i}.pdf`,
        contentType: 'application/pdf',
        ...declared,
      },
    });
    putTemplates.push(new URL(presigned.url).search.slice(1));
  }
  // The slow upload's own link: one the requests above can never use up.
  const slowUpload = await vol0.api.presignUpload({
    params: { id: world.ownClientIds[0] ?? '' },
    body: { docType: 'Banking Info', filename: 'slow.pdf', contentType: 'application/pdf' },
  });
  // Download URLs live a minute: the template is renewed while the run goes on.
  let getTemplate = '';
  const renewGet = async () => {
    const signed = await admin.api.presignGet({ body: { key: anchor } });
    getTemplate = new URL(signed.url).search.slice(1);
  };
  await renewGet();
  return {
    world,
    putTemplates,
    slowPut: new URL(slowUpload.url).search.slice(1),
    getTemplate: () => getTemplate,
    renewGet,
  };
}

// ── The scenario ─────────────────────────────────────────────────────────────────────────────────

const fmt = (n: number) => n.toLocaleString('en-US');
const mb = (n: number) => `${n.toFixed(0)} MB`;

async function run({ short, log }: ScenarioOptions): Promise<Row> {
  const seed = Number(process.env.FUZZ_SEED ?? DEFAULT_SEED);
  const total = short ? 1_000 : 10_000;
  log(`seed ${seed} (FUZZ_SEED=${seed} replays this run), ${fmt(total)} requests`);
  const dataDir = await freshDataDir('fuzz');
  const server = await startServer({ dataDir });
  const cleanups: Array<() => void> = [];
  try {
    return await fuzz(server, { seed, total, short, log, cleanups });
  } finally {
    for (const cleanup of cleanups) cleanup();
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

interface FuzzOptions {
  seed: number;
  total: number;
  short: boolean;
  log: (line: string) => void;
  /** Timers and sockets to end whatever happens. */
  cleanups: Array<() => void>;
}

/** Failures of one kind on one route: how many, and the smallest request that showed it. */
type Failures = Map<string, { count: number; size: number; repro: string }>;

function record(failures: Failures, group: string, size: number, repro: string): void {
  const known = failures.get(group);
  if (!known || size < known.size) failures.set(group, { count: (known?.count ?? 0) + 1, size, repro });
  else known.count += 1;
}

async function fuzz(server: ServerProcess, o: FuzzOptions): Promise<Row> {
  const { seed, total, short, log } = o;
  const url = server.url;
  const port = Number(new URL(url).port);
  const setup = await buildWorld(url);
  const identities: Record<Who, Identity> = {
    admin: (await session(url, ADMIN.email, ADMIN.pin)).identity,
    volunteer0: (await session(url, 'volunteer0@reliability.test', VOLUNTEER_PIN)).identity,
    volunteer1: (await session(url, 'volunteer1@reliability.test', VOLUNTEER_PIN)).identity,
    anonymous: (await session(url)).identity,
  };
  const wiring: Wiring = {
    port,
    identities,
    putTemplates: setup.putTemplates,
    getTemplate: setup.getTemplate,
  };
  const renewer = setInterval(() => void setup.renewGet().catch(() => undefined), 30_000);
  o.cleanups.push(() => clearInterval(renewer));

  const specs = fc.sample(requestArbitrary(setup.world), { seed, numRuns: total });
  log(`world ready; ${fmt(specs.length)} requests generated`);

  const kindCounts = new Map<Kind, number>();
  const whoCounts = new Map<string, number>();
  const statusCounts = new Map<number, number>();
  const endpointsHit = new Set<string>();
  const failures: Failures = new Map();
  const latencies: number[] = [];
  let answered4xx = 0;
  let cutOff = 0;
  /** Requests the upload flows made (each flow is one of the generated requests, and several on the wire). */
  let flowRequests = 0;
  let done = 0;
  let exited = false;
  const isUp = () => !server.exited();

  /** Counts an answer's status and judges it; the failures it shows are recorded under `label`. */
  const tally = (answers: readonly Answer[], method: string): Set<Failure> => {
    const found = new Set<Failure>();
    for (const answer of answers) {
      statusCounts.set(answer.status, (statusCounts.get(answer.status) ?? 0) + 1);
      if (answer.status >= 400 && answer.status < 500) answered4xx += 1;
      const verdict = judge(answer, method);
      if (verdict) found.add(verdict);
    }
    return found;
  };

  const runRaw = async (spec: Spec) => {
    const wire = materialize(spec, wiring);
    const outcome = await send(port, wire, wire.stream ? 90_000 : 30_000);
    if (!wire.stream) latencies.push(outcome.ms);
    const found = tally(outcome.answers, wire.method);
    // An oversized request may be refused before it is all sent, and the reset of the rest can cost the
    // answer: counted, not a failure. Anything else ending without an answer is one.
    const oversized =
      wire.head.length > HEAD_LIMIT || wire.body.length > JSON_BODY_LIMIT || wire.stream !== undefined;
    if (
      outcome.answers.length === 0 &&
      outcome.unsent &&
      oversized &&
      /EPIPE|ECONNRESET/.test(outcome.error ?? '')
    )
      cutOff += 1;
    else if (outcome.answers.length === 0) found.add('no answer');
    const size = wire.head.length + wire.body.length + (wire.stream?.bytes ?? 0);
    for (const failure of found)
      record(failures, `${failure} on ${wire.label}`, size, describe(spec, wire, outcome));
  };

  /** An upload flow: each step a well-formed request of its own (through fetch), judged like the others. */
  const runFlow = async (spec: Spec, flow: Flow) => {
    const identity = identities[spec.who];
    const clients =
      spec.who === 'admin'
        ? [...setup.world.ownClientIds, ...setup.world.otherClientIds]
        : setup.world.ownClientIds;
    const clientId = clients[flow.client % clients.length] ?? '';
    const step = async (
      label: string,
      method: string,
      target: string,
      body?: { json: unknown } | { bytes: Buffer; type: string; headers?: Record<string, string> },
    ) => {
      const signed = !target.startsWith('/');
      const headers: Record<string, string> = signed
        ? {}
        : {
            cookie: identity.cookie,
            'x-csrf-token': identity.csrf,
            'x-forwarded-for': `10.67.${spec.ip >> 8}.${spec.ip & 255}`,
          };
      let payload: Buffer | undefined;
      if (body && 'json' in body) {
        headers['content-type'] = 'application/json';
        payload = Buffer.from(JSON.stringify(body.json));
      } else if (body) {
        Object.assign(headers, body.headers, { 'content-type': body.type });
        payload = body.bytes;
      }
      flowRequests += 1;
      const began = performance.now();
      const answer = await fetch(signed ? target : `${url}/api${target}`, {
        method,
        headers,
        ...(payload && { body: new Uint8Array(payload) }),
      }).then(
        async (res): Promise<Answer> => ({
          status: res.status,
          headers: new Map(res.headers),
          body: Buffer.from(await res.arrayBuffer()),
        }),
        () => undefined,
      );
      latencies.push(performance.now() - began);
      const found = tally(answer ? [answer] : [], method);
      if (!answer) found.add('no answer');
      const repro = () =>
        `[upload flow, as ${spec.who}] ${method} ${JSON.stringify(target.slice(0, 200))} body ${payload ? excerpt(payload, 160) : '""'} → ${answer ? `${answer.status} ${answer.headers.get('content-type') ?? '(no type)'} ${excerpt(answer.body, 160)}` : 'no answer'}`;
      for (const failure of found) record(failures, `${failure} on ${label}`, payload?.length ?? 0, repro());
      const parsed = (() => {
        try {
          return answer && answer.status < 300 && /json/.test(answer.headers.get('content-type') ?? '')
            ? (JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>)
            : null;
        } catch {
          return null;
        }
      })();
      return parsed;
    };
    const id = encodeURIComponent(clientId);
    const added = await step('POST /api/clients/:id/docs/types', 'POST', `/clients/${id}/docs/types`, {
      json: { template: flow.template, note: flow.note },
    });
    const docType = typeof added?.docType === 'string' ? added.docType : 'Banking Info';
    const bytes =
      flow.contentType === 'application/pdf'
        ? randomPdf(2_000)
        : flow.contentType === 'image/png'
          ? PNG
          : JPEG;
    const presigned = await step('POST /api/docs/presign/:id', 'POST', `/docs/presign/${id}`, {
      json: {
        docType,
        filename: flow.filename,
        contentType: flow.contentType,
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      },
    });
    if (typeof presigned?.url === 'string' && typeof presigned.key === 'string') {
      const signedHeaders = (presigned.headers ?? {}) as Record<string, string>;
      await step('PUT /api/storage/put', 'PUT', presigned.url, {
        bytes,
        type: flow.contentType,
        headers: signedHeaders,
      });
      const completed = await step('POST /api/docs/complete', 'POST', '/docs/complete', {
        json: { key: presigned.key },
      });
      await step('GET /api/docs/list/:id', 'GET', `/docs/list/${id}?docType=${encodeURIComponent(docType)}`);
      const key = (completed?.item as { key?: string } | undefined)?.key ?? presigned.key;
      const download = await step('POST /api/docs/presign-get', 'POST', '/docs/presign-get', {
        json: { key, downloadAs: flow.downloadAs },
      });
      if (typeof download?.url === 'string') await step('GET /api/storage/get', 'GET', download.url);
      const view = await step('POST /api/docs/presign-view', 'POST', '/docs/presign-view', { json: { key } });
      if (typeof view?.url === 'string') await step('GET /api/storage/get', 'GET', view.url);
      await step('POST /api/docs/rename', 'POST', '/docs/rename', { json: { key, filename: flow.rename } });
      await step(
        'GET /api/clients/:id/docs/download-all',
        'GET',
        `/clients/${id}/docs/download-all?include=${encodeURIComponent(docType)}`,
      );
    }
    // The category goes again (with its file), so the flows do not pile up categories.
    if (docType !== 'Banking Info')
      await step(
        'DELETE /api/clients/:id/docs/types',
        'DELETE',
        `/clients/${id}/docs/types?docType=${encodeURIComponent(docType)}`,
      );
  };

  const runOne = async (spec: Spec) => {
    kindCounts.set(spec.kind, (kindCounts.get(spec.kind) ?? 0) + 1);
    const role = spec.who.startsWith('volunteer') ? 'volunteer' : spec.who;
    whoCounts.set(role, (whoCounts.get(role) ?? 0) + 1);
    if (spec.route !== 'path' && spec.route !== 'storagePut' && spec.route !== 'storageGet')
      endpointsHit.add(spec.route);
    if (spec.flow) await runFlow(spec, spec.flow);
    else await runRaw(spec);
    done += 1;
    if (done % (short ? 250 : 1_000) === 0)
      log(`${fmt(done)} sent, ${failures.size} failure group(s), RSS ${mb(await server.rssMb())}`);
  };
  const runAll = (batch: readonly Spec[]) => {
    let next = 0;
    return Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < batch.length && !exited) {
          const spec = batch[next];
          next += 1;
          if (spec) await runOne(spec);
          if (!isUp()) exited = true;
        }
      }),
    );
  };

  const began = Date.now();
  // The first requests are the warm-up: code paths compiled and caches filled once are not a leak.
  const warmUp = Math.max(100, Math.round(total * 0.03));
  await runAll(specs.slice(0, warmUp));
  await sleep(1_000);
  const samples: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    samples.push(await server.rssMb());
    await sleep(300);
  }
  const before = percentile(samples, 50);
  let peak = before;
  const sampler = setInterval(() => void server.rssMb().then((rss) => (peak = Math.max(peak, rss))), 200);
  o.cleanups.push(() => clearInterval(sampler));

  const slow = startSlowConnections(port, short ? 3 : 6, identities.anonymous, setup.slowPut);
  o.cleanups.push(() => slow.stop());
  await runAll(specs.slice(warmUp));
  const seconds = (Date.now() - began) / 1000;

  // Others must be served while the slow connections trickle. The report run also waits (up to
  // 100 s) for Node to time out the connections that never finish their headers.
  let slowestProbe = 0;
  let probeFailed = false;
  const slowStart = Math.min(...slow.slows.map((s) => s.openedAt));
  for (;;) {
    const probeStart = performance.now();
    const status = await fetch(`${url}/api/me`).then(
      (res) => res.status,
      () => 0,
    );
    slowestProbe = Math.max(slowestProbe, performance.now() - probeStart);
    probeFailed ||= status !== 401;
    const waiting = slow.slows.some((s) => s.mode === 'headers' && s.closedAt === undefined);
    if (short || !waiting || Date.now() - slowStart > 100_000 || !isUp()) break;
    await sleep(2_000);
  }
  const slowSeconds = (Date.now() - slowStart) / 1000;
  slow.stop();

  // Memory: give the collector a while to hand back what the run took. V8 shrinks an idle process's
  // heap after some 30-40 s, so the settle period waits up to a minute (and stops once within bounds).
  let after = await server.rssMb();
  const settleUntil = Date.now() + 60_000;
  while (after > before + RSS_SLACK_MB && Date.now() < settleUntil) {
    await sleep(500);
    after = await server.rssMb();
  }
  clearInterval(sampler);

  const alive = isUp();
  const broke: string[] = [];
  if (!alive)
    broke.push(
      `the server exited (code ${server.child.exitCode}, signal ${server.child.signalCode}): ${server.log().slice(-600)}`,
    );
  if (alive) {
    const me = await answerOf(url, identities.admin);
    if (me.status !== 200)
      broke.push(`/api/me as the admin answered ${me.status} after the run: ${me.text.slice(0, 200)}`);
    const anonymous = await answerOf(url, { cookie: '', csrf: '' });
    if (anonymous.status !== 401 || !/^application\/json/.test(anonymous.type))
      broke.push(`/api/me without a session answered ${anonymous.status} ${anonymous.type}`);
    // None of the pollution attempts may have made a volunteer an admin.
    const promoted = await answerOf(url, identities.volunteer0, '/api/admin/users');
    if (promoted.status !== 403)
      broke.push(
        `a volunteer's GET /api/admin/users answered ${promoted.status} after the run (403 expected)`,
      );
  }
  if (probeFailed || slowestProbe > 5_000) {
    broke.push(
      `while ${slow.slows.length} connections trickled, /api/me took up to ${slowestProbe.toFixed(0)} ms${probeFailed ? ' or did not answer 401' : ''}`,
    );
  }
  for (const s of slow.slows) {
    const verdict = s.answer && judge(s.answer, 'POST');
    if (s.answer && verdict)
      record(
        failures,
        `${verdict} on a slow ${s.mode} connection`,
        0,
        `${s.answer.status} ${s.answer.headers.get('content-type') ?? '(no type)'} ${excerpt(s.answer.body, 160)}`,
      );
  }
  const errorLines = server
    .log()
    .split('\n')
    .filter((line) => /"level":(50|60)/.test(line));
  if (errorLines.length > 0)
    broke.push(`the server logged ${errorLines.length} error(s), first: ${errorLines[0]?.slice(0, 400)}`);
  for (const [group, f] of [...failures.entries()].sort((a, b) => b[1].count - a[1].count))
    broke.push(`${group} ×${f.count}: ${f.repro}`);
  const memoryHeld = after <= before + RSS_SLACK_MB;
  if (!memoryHeld)
    broke.push(`RSS ${mb(before)} before, ${mb(after)} after settling (more than ${RSS_SLACK_MB} MB kept)`);

  const fives = [...statusCounts.entries()]
    .filter(([status]) => status >= 500)
    .reduce((sum, [, n]) => sum + n, 0);
  const statusList = [...statusCounts.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([status, n]) => `${status}×${fmt(n)}`)
    .join(' ');
  const kindList = KINDS.map((k) => `${k} ${fmt(kindCounts.get(k) ?? 0)}`).join(', ');
  const slowText = slow.slows
    .map((s) =>
      s.closedAt
        ? `${s.mode} closed by the server after ${((s.closedAt - s.openedAt) / 1000).toFixed(0)} s${s.answer ? ` with ${s.answer.status}` : ''}`
        : `${s.mode} still open after ${slowSeconds.toFixed(0)} s (${fmt(s.sent)} bytes sent)`,
    )
    .join('; ');
  log(`statuses: ${statusList}`);
  log(`slow connections: ${slowText}`);
  log(`RSS ${mb(before)} before, ${mb(peak)} peak, ${mb(after)} after`);

  return {
    scenario: NAME,
    done:
      `${fmt(done)} hostile requests in ${seconds.toFixed(0)} s (seed ${seed}, ${CONCURRENCY} at a time) on all ${endpointsHit.size} of ${ENDPOINT_NAMES.length} endpoints ` +
      `and the signed storage URLs, as admin ${fmt(whoCounts.get('admin') ?? 0)} / volunteer ${fmt(whoCounts.get('volunteer') ?? 0)} / anonymous ${fmt(whoCounts.get('anonymous') ?? 0)}: ` +
      `${kindList} (the upload flows made ${fmt(flowRequests)} requests on the wire); ` +
      `meanwhile ${slow.slows.length} connections trickled a body, headers or an upload byte by byte for ${slowSeconds.toFixed(0)} s`,
    held:
      `${fmt(fives)} × 5xx; ${fmt(answered4xx)} 4xx answers, ${failures.size === 0 ? 'all' : 'not all'} JSON { error } with a text for people (statuses ${statusList}); ` +
      `${fmt(cutOff)} oversized requests refused and reset before they were all sent; ` +
      `${alive ? 'the server stayed up and answered /api/me after the run' : 'the server EXITED'}; ` +
      `RSS ${mb(before)} before (after a ${fmt(warmUp)}-request warm-up), ${mb(peak)} peak, ${mb(after)} after settling (${memoryHeld ? 'held' : 'NOT held'}: ≤ before + ${RSS_SLACK_MB} MB); ` +
      `latency p50/p99 ${percentile(latencies, 50).toFixed(0)}/${percentile(latencies, 99).toFixed(0)} ms; ` +
      `slow connections: ${slowText}; others served meanwhile (/api/me within ${slowestProbe.toFixed(0)} ms)`,
    broke: broke.join('\n'),
  };
}

/** An answer to a GET with an identity's cookies. */
async function answerOf(
  url: string,
  identity: Identity,
  path = '/api/me',
): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve) => {
    const req = http.get(
      `${url}${path}`,
      { headers: identity.cookie ? { cookie: identity.cookie } : {} },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', text }),
        );
      },
    );
    req.on('error', (err) => resolve({ status: 0, type: '', text: err.message }));
  });
}

export const scenario: Scenario = { name: NAME, run };
