/**
 * Properties about what a request carries in its body: valid-looking calls, one field made hostile,
 * prototype pollution, wrong types, deep nesting, malformed JSON, invalid UTF-8, other content types
 * and a 10 MB body. Each answer must be a refusal in `{ error, code }` or a success, never a 5xx.
 */
import fc from 'fast-check';
import { ANSWER_CHECKS } from './checks.js';
import { asBody, type Property } from './gen.js';
import {
  deepValue,
  hostileValue,
  MASS_ASSIGNMENT_KEYS,
  pollutionValue,
  POLLUTION_KEYS,
  rawBytes,
} from './generators.js';
import { CONTENT_TYPES, MALFORMED } from './samples.js';
import { hugeBody, json, text, type Spec } from './spec.js';
import { Entries, toJson, type Parts, type Val } from './values.js';

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

const pollution = (parts: Parts) =>
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
  );

const malformed = (parts: Parts) =>
  fc
    .oneof(
      fc.constantFrom(...MALFORMED),
      fc.nat().map((cut) => {
        const t = Buffer.concat(toJson(parts.body ?? { email: 'a@b.c' })).toString('utf8');
        return t.slice(0, cut % Math.max(1, t.length));
      }),
      fc.string({ unit: 'binary', maxLength: 200 }),
    )
    .map((t) => ({ body: text(t), ...(parts.body === undefined ? { method: 'POST' } : {}) }));

const invalidUtf8 = (parts: Parts) =>
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
    });

const contentType = (parts: Parts) =>
  fc
    .record({ type: fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: null }), form: fc.boolean() })
    .map(({ type, form }) => ({
      contentType: type,
      ...(parts.body === undefined ? { method: 'POST' } : {}),
      body: form
        ? text('email=a%40b.c&pin=x&__proto__[isAdmin]=1')
        : asBody(parts.body === undefined ? { ...parts, body: {} } : parts),
    }));

export const BODY_PROPERTIES: readonly Property[] = [
  {
    kind: 'valid-ish',
    weight: 6,
    sends: 'a valid-looking call of any endpoint, as anyone',
    generate: (g) => g.onEndpoint(g.endpoint, () => fc.constant({}), 'valid-ish'),
    holds: ANSWER_CHECKS,
  },
  {
    kind: 'field',
    weight: 26,
    sends: 'one parameter, query value or body field replaced by a hostile value, dropped or added',
    generate: (g) =>
      g.onEndpoint(
        g.endpoint,
        (parts) =>
          mutateField(parts).map((next) => ({ params: next.params, query: next.query, body: asBody(next) })),
        'field',
      ),
    holds: ANSWER_CHECKS,
  },
  {
    kind: 'pollution',
    weight: 7,
    sends: 'prototype keys and mass-assignment fields (isAdmin, role…) in the body or query',
    generate: (g) => g.onEndpoint(g.endpoint, pollution, 'pollution'),
    holds: ANSWER_CHECKS,
  },
  {
    kind: 'wrong type',
    weight: 5,
    sends: 'a body that is not an object: a hostile string, number, array, null…',
    generate: (g) =>
      g.onEndpoint(g.endpoint, () => hostileValue.map((value) => ({ body: json(value) })), 'wrong type'),
    holds: ANSWER_CHECKS,
  },
  {
    kind: 'deep nesting',
    weight: 3,
    sends: 'JSON nested up to 100 000 levels, as the body or in one field',
    generate: (g) =>
      g.onEndpoint(
        g.endpoint,
        (parts) =>
          fc.oneof(
            deepValue.map((value) => ({ body: json(value) })),
            fc
              .record({ value: deepValue, key: fc.constantFrom(...bodyKeys(parts)) })
              .map(({ value, key }) => ({ body: json({ ...parts.body, [key]: value }) })),
          ),
        'deep nesting',
      ),
    holds: ANSWER_CHECKS,
  },
  {
    kind: 'malformed JSON',
    weight: 7,
    sends: 'JSON that is not: cut short, trailing commas, comments, duplicate keys, binary',
    generate: (g) => g.onEndpoint(g.endpoint, malformed, 'malformed JSON'),
    holds: ANSWER_CHECKS,
  },
  {
    kind: 'invalid UTF-8',
    weight: 5,
    sends: 'invalid UTF-8 bytes in a body field, a query value, a path parameter or a header',
    generate: (g) => g.onEndpoint(g.endpoint, invalidUtf8, 'invalid UTF-8'),
    holds: ANSWER_CHECKS,
  },
  {
    kind: 'content type',
    weight: 6,
    sends: 'another Content-Type (or none), or a form-encoded body',
    generate: (g) => g.onEndpoint(g.endpoint, contentType, 'content type'),
    holds: ANSWER_CHECKS,
  },
  {
    kind: '10 MB body',
    weight: 1,
    sends: 'a 10 MB body (chunked or not) to an endpoint or to a signed upload URL',
    generate: (g) =>
      fc.oneof(
        g.onEndpoint(g.endpoint, () => hugeBody.map((body) => ({ body })), '10 MB body'),
        fc.record({ ...g.common, template: fc.nat(), body: hugeBody }).map(({ template, ...rest }): Spec => ({
          kind: '10 MB body',
          route: 'storagePut',
          params: {},
          query: [],
          headers: [],
          storage: { template, tamper: { t: 'none' } },
          ...rest,
        })),
      ),
    holds: ANSWER_CHECKS,
  },
];
