/**
 * Properties about files: tampered signed upload and download URLs, and whole uploads with hostile
 * names (category note, file name, download name, new name) carried through storage, listing,
 * download, ZIP and delete.
 */
import fc from 'fast-check';
import { CATEGORY_TEMPLATES } from '@vita-docs/core';
import { ANSWER_CHECKS } from './checks.js';
import type { Property } from './gen.js';
import { tamper, typedText } from './generators.js';
import { CONTENT_TYPES } from './samples.js';
import { text, type Body, type HeaderEdit, type Spec, type Who } from './spec.js';

const putContentType = fc.option(
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
);

const putBody = fc.oneof(
  fc
    .uint8Array({ maxLength: 5_000 })
    .map((bytes) => text(`%PDF-1.7\n${Buffer.from(bytes).toString('latin1')}`, true)),
  fc.constantFrom<Body>(
    { type: 'none' },
    { type: 'text', text: '' },
    { type: 'text', text: '<html><script>alert(1)</script>' },
    { type: 'text', text: 'GIF89a' },
  ),
);

const getHeaders = fc.option(
  fc.constantFrom<HeaderEdit[]>(
    [['set', 'range', 'bytes=0-0']],
    [['set', 'range', 'bytes=-1,0-999999999999']],
    [['set', 'if-modified-since', 'garbage']],
  ),
  { nil: [] },
);

const flow = fc.record({
  client: fc.nat(),
  template: fc.constantFrom(...CATEGORY_TEMPLATES),
  note: typedText,
  filename: typedText,
  contentType: fc.constantFrom('application/pdf' as const, 'image/png' as const, 'image/jpeg' as const),
  downloadAs: typedText,
  rename: typedText,
});

export const UPLOAD_PROPERTIES: readonly Property[] = [
  {
    kind: 'storage put',
    weight: 4,
    sends: 'a signed upload URL tampered with (signature, expiry, limits), other types, bodies and methods',
    generate: (g) =>
      fc
        .record({
          ...g.common,
          template: fc.nat(),
          tamper,
          contentType: putContentType,
          body: putBody,
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
    holds: ANSWER_CHECKS,
  },
  {
    kind: 'storage get',
    weight: 3,
    sends: 'a signed download URL tampered with, odd ranges and dates, other methods',
    generate: (g) =>
      fc
        .record({
          ...g.common,
          tamper,
          method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST'),
          headers: getHeaders,
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
    holds: ANSWER_CHECKS,
  },
  {
    kind: 'upload flow',
    weight: 2,
    sends:
      'a whole upload (category, presign, PUT, complete, list, download, view, rename, ZIP, delete) with hostile typed text',
    generate: (g) =>
      fc
        .record({ ...g.common, who: fc.constantFrom<Who>('admin', 'volunteer0'), flow })
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
    holds: ANSWER_CHECKS,
  },
];
