/**
 * For each call of core's `endpoints` table, valid-looking params, query and body: the starting point
 * every mutation works from. Values are drawn from what the setup made, so requests get past
 * validation into the handlers.
 */
import fc from 'fast-check';
import { ADMIN, MB } from '../../harness.js';
import { CATEGORY_TEMPLATES, endpoints, type EndpointName } from '@vita-docs/core';
import type { World } from './spec.js';
import type { Parts, Val } from './values.js';

export const ENDPOINT_NAMES = Object.keys(endpoints) as EndpointName[];

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

type Pools = ReturnType<typeof pools>;
type Fields = fc.Arbitrary<Record<string, Val>>;
type Query = fc.Arbitrary<Array<readonly [string, Val]>>;

const none = fc.constant<Parts>({ params: {}, query: [], body: undefined });
const body = (b: Fields) => b.map((value): Parts => ({ params: {}, query: [], body: value }));
const opt = <T extends Record<string, fc.Arbitrary<Val>>>(fields: T, required: Array<keyof T & string>) =>
  fc.record(fields, { requiredKeys: required }) as unknown as Fields;
const withId = (p: Pools, b?: Fields, query?: Query) =>
  fc
    .record({
      id: p.clientId,
      body: b ?? fc.constant(undefined),
      query: query ?? fc.constant<Array<readonly [string, Val]>>([]),
    })
    .map(({ id, body: value, query: q }): Parts => ({ params: { id }, query: q, body: value }));
const withEmail = (p: Pools, b?: Fields) =>
  fc
    .record({ email: p.email, body: b ?? fc.constant(undefined) })
    .map(({ email, body: value }): Parts => ({ params: { email }, query: [], body: value }));
const query = (q: Query) => q.map((value): Parts => ({ params: {}, query: value, body: undefined }));
const docTypeQuery = (p: Pools) => p.docType.map((docType) => [['docType', docType] as const]);

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

const authParts = (p: Pools) => ({
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
  myReading: none,
  setMyReading: body(opt({ on: fc.boolean() }, ['on'])),
  logout: none,
  forgotInit: body(opt({ email: p.email }, ['email'])),
  forgotVerify: body(opt({ email: p.email, code: sixDigits }, ['email', 'code'])),
  forgotResend: body(opt({ email: p.email }, [])),
  forgotReset: body(opt({ newPin1: fuzzPin, newPin2: fuzzPin }, ['newPin1', 'newPin2'])),
});

const clientParts = (p: Pools) => ({
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
  docStatus: withId(p),
  docTypes: withId(p),
  addDocType: withId(
    p,
    opt({ template: fc.constantFrom(...CATEGORY_TEMPLATES), note: fc.string({ maxLength: 20 }) }, [
      'template',
    ]),
  ),
  deleteDocType: withId(p, undefined, docTypeQuery(p)),
  submitClient: withId(p),
  unsubmitClient: withId(p),
  submission: withId(p),
  seasonDownload: none,
  downloadAll: withId(
    p,
    undefined,
    fc.option(
      p.docType.map((t) => [['include', `${t},Banking Info`] as const]),
      { nil: [] },
    ),
  ),
});

const docParts = (p: Pools) => ({
  presignUpload: withId(
    p,
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
  listDocs: withId(p, undefined, docTypeQuery(p)),
  presignGet: body(opt({ key: p.key, downloadAs: fc.constantFrom('copy.pdf', '') }, ['key'])),
  presignView: body(opt({ key: p.key }, ['key'])),
  deleteDocs: body(fc.record({ keys: fc.array(p.key, { minLength: 1, maxLength: 3 }) })),
  renameDoc: body(
    opt({ key: p.key, filename: fc.constantFrom('renamed.pdf', 'b', '   ') }, ['key', 'filename']),
  ),
  moveDoc: body(
    opt({ key: p.key, docType: fc.constantFrom('1099-INT', 'W-2', 'Banking Info', 'Groceries', '') }, [
      'key',
      'docType',
    ]),
  ),
});

const userParts = (p: Pools) => ({
  listUsers: query(
    fc.option(
      fc.constantFrom('pending', 'all').map((s) => [['status', s] as const]),
      { nil: [] },
    ),
  ),
  getUser: withEmail(p),
  approveUser: withEmail(p, opt({ approved: fc.boolean() }, ['approved'])),
  setUserRole: withEmail(p, opt({ role: fc.constantFrom('volunteer', 'officer') }, ['role'])),
  deleteUser: withEmail(p),
  deleteClient: body(
    opt({ createdBy: fc.option(p.email, { nil: null }), clientEmail: p.clientEmail, clientId: p.clientId }, [
      'createdBy',
      'clientEmail',
    ]),
  ),
  clientMeta: withId(p),
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
});

const programmeParts = (p: Pools) => ({
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
  setRetention: body(opt({ days: fc.oneof(fc.constant(null), fc.integer({ min: 7, max: 365 })) }, ['days'])),
  getConsentText: none,
  setConsentText: body(
    opt({ en: fc.string({ maxLength: 80 }), es: fc.string({ maxLength: 80 }) }, ['en', 'es']),
  ),
  getProgrammeName: none,
  setProgrammeName: body(opt({ name: fc.string({ maxLength: 100 }) }, ['name'])),
  setProgrammeReading: body(opt({ on: fc.boolean() }, ['on'])),
  orphanedClients: none,
  volunteers: none,
  reassignOrphan: body(
    opt({ clientId: p.clientId, newVolunteerEmail: p.email }, ['clientId', 'newVolunteerEmail']),
  ),
  config: none,
  devOutbox: none,
});

const passkeyParts = (p: Pools) => ({
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
  passkeyConfirmationRequest: none,
  passkeyConfirm: body(opt({ code: sixDigits }, ['code'])),
  removeOwnPasskeys: none,
  userPasskeys: withEmail(p),
  removeUserPasskeys: withEmail(p),
  getPasskeyPolicy: none,
  setPasskeyPolicy: body(opt({ requireForStaff: fc.boolean() }, ['requireForStaff'])),
});

const linkToken = fc.stringMatching(/^[A-Za-z0-9_-]{20,70}$/);

const clientLinkParts = (p: Pools) => ({
  createClientLink: withId(
    p,
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
  clientLinkStatus: withId(p),
  revokeClientLink: withId(p),
  newFromClients: none,
  linkOpen: body(opt({ token: linkToken, resend: fc.boolean() }, ['token'])),
  linkVerify: body(opt({ token: linkToken, code: sixDigits, pin: fuzzPin }, ['token'])),
  linkChecklist: none,
  linkConsent: body(
    opt(
      {
        version: fc.constantFrom('1', ''),
        language: fc.constantFrom('en', 'es', 'fr'),
        name: fc.string({ maxLength: 250 }),
        timeZone: fc.constantFrom('America/Chicago', 'Nowhere/Else', ''),
      },
      ['version', 'name'],
    ),
  ),
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
  linkMove: body(
    opt({ key: p.key, docType: fc.constantFrom('1099-INT', 'W-2', 'Other', 'Groceries', '') }, [
      'key',
      'docType',
    ]),
  ),
  linkAnswer: body(
    opt({ docType: p.docType, missing: fc.boolean(), note: fc.string({ maxLength: 40 }) }, [
      'docType',
      'missing',
    ]),
  ),
  linkDone: none,
  linkJournalKey: none,
});

/** For each call, valid-looking params, query and body: the starting point every mutation works from. */
export function baseParts(world: World): Record<EndpointName, fc.Arbitrary<Parts>> {
  const p = pools(world);
  return {
    ...authParts(p),
    ...clientParts(p),
    ...docParts(p),
    ...userParts(p),
    ...programmeParts(p),
    ...passkeyParts(p),
    ...clientLinkParts(p),
  } satisfies Record<EndpointName, fc.Arbitrary<Parts>>;
}
