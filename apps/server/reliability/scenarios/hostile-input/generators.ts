/**
 * Small generators of hostile values: edge characters, known tokens, long and incompressible strings,
 * invalid UTF-8, prototype pollution, deep nesting, and tampering with a signed URL's query.
 */
import fc from 'fast-check';
import { ADMIN } from '../../harness.js';
import { Bytes, Deep, Huge, Noise, RawJson, type Val } from './values.js';
import type { Tamper } from './spec.js';

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
export const edgeString = fc.string({ unit: fc.constantFrom(...EDGE_CHARS), maxLength: 24 });
const hugeString = (maxTimes: number) =>
  fc
    .record({
      unit: fc.constantFrom('a', 'é', '\u0000', '\ud800', '\u{1f9fe}', ' ', '"', '%'),
      times: fc.constantFrom(101, 300, 1_025, 5_000, 40_000, 70_000, 1_100_000).filter((t) => t <= maxTimes),
    })
    .map(({ unit, times }) => new Huge(unit, times));

export const noise = (maxLength: number) =>
  fc
    .record({
      length: fc.constantFrom(300, 3_000, 9_000, 70_000).filter((l) => l <= maxLength),
      seed: fc.nat(),
    })
    .map(({ length, seed }) => new Noise(length, seed));

/** Strings meant to break something: edge characters, any code point, known tokens, long ones. */
export const hostileString = (maxTimes = 1_100_000): fc.Arbitrary<string | Huge | Noise> =>
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
export const rawBytes = fc
  .oneof(
    fc.constantFrom(...INVALID_UTF8),
    fc.array(fc.constantFrom(...INVALID_UTF8), { minLength: 1, maxLength: 4 }).map((parts) => parts.flat()),
    fc.uint8Array({ minLength: 1, maxLength: 32 }).map((bytes) => [...bytes]),
  )
  .map((bytes) => new Bytes(bytes));

export const POLLUTION_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  'hasOwnProperty',
  'toString',
  'valueOf',
];
export const MASS_ASSIGNMENT_KEYS = [
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
export const pollutionValue = fc.constantFrom(
  new RawJson('{"__proto__":{"isAdmin":true,"role":"officer","approved":true}}'),
  new RawJson('{"constructor":{"prototype":{"isAdmin":true}}}'),
  new RawJson('{"prototype":{"approved":true}}'),
  new RawJson('{"__proto__":null}'),
  new RawJson('{"__proto__":[]}'),
  new RawJson('{"__proto__":"x"}'),
  new RawJson('{"toString":1,"valueOf":"x","hasOwnProperty":null}'),
  new RawJson('{"length":1e9,"0":"a"}'),
);
export const deepValue = fc
  .record({
    depth: fc.constantFrom(100, 1_000, 5_000, 10_000, 12_000, 32_000, 100_000),
    shape: fc.constantFrom('array' as const, 'object' as const),
  })
  .map(({ depth, shape }) => new Deep(depth, shape));

/** Anything at all in place of a field: wrong types, hostile strings, nested and polluted objects. */
export const hostileValue: fc.Arbitrary<Val> = fc.oneof(
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

/** Text a person could type into a field (short enough to be accepted), hostile in every other way. */
export const typedText = fc.oneof(
  edgeString,
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.constantFrom(...TOKENS),
  noise(300).map((n) => n.text()),
);

const TAMPER_PARAMS = ['k', 'ct', 'max', 'exp', 'sig', 'd', 'n'];
export const tamper: fc.Arbitrary<Tamper> = fc.oneof(
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
