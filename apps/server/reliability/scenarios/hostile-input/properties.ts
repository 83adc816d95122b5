/**
 * The table of properties: each kind of hostile request with its share of the run, what it sends and
 * what must hold of its answers. The runner draws every request from this table (in this order, so a
 * seed replays the same requests).
 */
import fc from 'fast-check';
import { makeGen, type Property } from './gen.js';
import { BODY_PROPERTIES } from './properties-bodies.js';
import { REQUEST_PROPERTIES } from './properties-requests.js';
import { UPLOAD_PROPERTIES } from './properties-uploads.js';
import type { Kind, Spec, World } from './spec.js';

export const PROPERTIES: readonly Property[] = [
  ...BODY_PROPERTIES,
  ...REQUEST_PROPERTIES,
  ...UPLOAD_PROPERTIES,
];

export const propertyOf = (kind: Kind): Property => {
  const property = PROPERTIES.find((p) => p.kind === kind);
  if (!property) throw new Error(`no property for ${kind}`);
  return property;
};

/** The whole request generator: a weighted mix of the table's rows over every endpoint. */
export function requestArbitrary(world: World): fc.Arbitrary<Spec> {
  const g = makeGen(world);
  return fc.oneof(...PROPERTIES.map((p) => ({ weight: p.weight, arbitrary: p.generate(g) })));
}
