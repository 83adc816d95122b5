/**
 * What every property's generator starts from: who sends the request (identity, CSRF token, address)
 * and, for requests to an endpoint of the contract, its valid-looking parts to make hostile.
 */
import fc from 'fast-check';
import { endpoints, type EndpointName } from '@vita-docs/core';
import type { AnswerCheck } from './checks.js';
import { ENDPOINT_NAMES, baseParts } from './contract.js';
import { noise } from './generators.js';
import { headerValue } from './samples.js';
import type { Body, Csrf, Kind, Spec, Who, World } from './spec.js';
import type { Parts, Val } from './values.js';

/** One row of the table: what a kind of hostile request sends, and what must hold of its answers. */
export interface Property {
  kind: Kind;
  /** Its share of the run's requests, against the other rows' weights. */
  weight: number;
  /** What it sends, in words. */
  sends: string;
  generate: (g: Gen) => fc.Arbitrary<Spec>;
  /** What must hold of every answer (checks.ts); every request must also be answered (`isCutOff` says when not). */
  holds: readonly AnswerCheck[];
}

/** Who sends a request: fields every spec has. */
export interface Common {
  who: fc.Arbitrary<Who>;
  csrf: fc.Arbitrary<Csrf>;
  ip: fc.Arbitrary<number>;
  from: fc.Arbitrary<Val | undefined>;
}

export interface Gen {
  common: Common;
  /** Any endpoint of the contract. */
  endpoint: fc.Arbitrary<EndpointName>;
  /** The endpoints with a parameter in their path. */
  withParams: fc.Arbitrary<EndpointName>;
  /** A request to one of `name`'s endpoints: its valid-looking parts, then what `make` changes. */
  onEndpoint: (
    name: fc.Arbitrary<EndpointName>,
    make: (parts: Parts, name: EndpointName) => fc.Arbitrary<Partial<Spec>>,
    kind: Kind,
  ) => fc.Arbitrary<Spec>;
}

export const asBody = (parts: Parts): Body =>
  parts.body === undefined ? { type: 'none' } : { type: 'json', value: parts.body };

/** Now and then, instead of an address, whatever a client can write into X-Forwarded-For. */
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

const common: Common = {
  who: fc.constantFrom<Who>(
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
  ),
  csrf: fc.oneof(
    { weight: 85, arbitrary: fc.constant<Csrf>('valid') },
    { weight: 15, arbitrary: fc.constantFrom<Csrf>('missing', 'wrong', 'foreign', 'huge', 'twice') },
  ),
  ip: fc.nat({ max: 4095 }),
  from,
};

export function makeGen(world: World): Gen {
  const bases = baseParts(world);
  const onEndpoint: Gen['onEndpoint'] = (name, make, kind) =>
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
  return {
    common,
    endpoint: fc.constantFrom(...ENDPOINT_NAMES),
    withParams: fc.constantFrom(...ENDPOINT_NAMES.filter((n) => endpoints[n].path.includes(':'))),
    onEndpoint,
  };
}
