/**
 * Every endpoint of the contract × every kind of caller, each cell's expected status in one table.
 * A new endpoint without a row fails the first test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type EndpointName } from '@vita-docs/core';
import { createClient, pdfBytes, upload } from './docs-helpers.js';
import { register, seedPeople, startApp, type Agent, type TestApp } from './harness.js';

type Who = 'anon' | 'pending' | 'volA' | 'volB' | 'officer' | 'admin';
const WHO: Who[] = ['anon', 'pending', 'volA', 'volB', 'officer', 'admin'];

interface World {
  clientId: string;
  clientEmail: string;
  key: string;
}
type Call = (w: World, n: number) => [method: string, path: string, body?: unknown];
/** Expected status per caller: [anon, pending, volA, volB, officer, admin]. */
type Row = [Call, [number, number, number, number, number, number]];

const PUBLIC = (s: number): Row[1] => [s, s, s, s, s, s];
const SIGNED_IN = (s: number): Row[1] => [401, 401, s, s, s, s];
const OWNER_OR_ADMIN = (s: number): Row[1] => [401, 401, s, 403, 403, s];
const OFFICER_OR_ADMIN = (s: number): Row[1] => [401, 401, 403, 403, s, s];
const ADMIN_ONLY = (s: number): Row[1] => [401, 401, 403, 403, 403, s];
/** A WebAuthn answer in shape only. */
const ANSWER = { id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: 'e30' } };
const uniq = (n: number) => `m${n}x${Math.floor(Math.random() * 1e9)}`;

const MATRIX: Record<EndpointName, Row> = {
  register: [
    (_, n) => [
      'POST',
      '/api/auth/register',
      { firstName: 'A', lastName: 'B', email: `${uniq(n)}@example.org`, pin: 'a long pin' },
    ],
    PUBLIC(200),
  ],
  loginInit: [
    () => ['POST', '/api/auth/login-init', { email: 'vola@example.org', pin: 'not the pin' }],
    PUBLIC(401),
  ],
  loginVerify: [
    () => ['POST', '/api/auth/login-verify', { email: 'ghost@example.org', code: '123456' }],
    PUBLIC(400),
  ],
  loginResend: [
    (_, n) => ['POST', '/api/auth/login-resend', { email: `${uniq(n)}@example.org` }],
    PUBLIC(200),
  ],
  me: [() => ['GET', '/api/me?t=1'], SIGNED_IN(200)],
  journalKey: [() => ['GET', '/api/me/journal-key'], SIGNED_IN(200)],
  myReading: [() => ['GET', '/api/me/reading'], SIGNED_IN(200)],
  setMyReading: [() => ['POST', '/api/me/reading', { on: true }], SIGNED_IN(200)],
  forgotInit: [() => ['POST', '/api/auth/forgot-init', { email: 'ghost@example.org' }], PUBLIC(200)],
  forgotVerify: [
    () => ['POST', '/api/auth/forgot-verify', { email: 'ghost@example.org', code: '123456' }],
    PUBLIC(400),
  ],
  forgotResend: [
    (_, n) => ['POST', '/api/auth/forgot-resend', { email: `${uniq(n)}@example.org` }],
    PUBLIC(200),
  ],
  forgotReset: [
    () => ['POST', '/api/auth/forgot-reset', { newPin1: 'a long pin', newPin2: 'a long pin' }],
    PUBLIC(400),
  ],
  listClients: [() => ['GET', '/api/clients'], SIGNED_IN(200)],
  listAllClients: [() => ['GET', '/api/admin/clients'], ADMIN_ONLY(200)],
  createClient: [
    (_, n) => [
      'POST',
      '/api/clients/new',
      { firstName: 'C', lastName: 'D', email: `${uniq(n)}@example.org`, phone: '555 010 0100' },
    ],
    SIGNED_IN(200),
  ],
  docStatus: [(w) => ['GET', `/api/clients/${w.clientId}/docs/status`], OWNER_OR_ADMIN(200)],
  docTypes: [(w) => ['GET', `/api/clients/${w.clientId}/docs/types`], OWNER_OR_ADMIN(200)],
  addDocType: [
    (w, n) => ['POST', `/api/clients/${w.clientId}/docs/types`, { template: 'W-2', note: uniq(n) }],
    OWNER_OR_ADMIN(200),
  ],
  deleteDocType: [
    (w) => ['DELETE', `/api/clients/${w.clientId}/docs/types?docType=${encodeURIComponent('W-2 (none)')}`],
    OWNER_OR_ADMIN(404),
  ],
  submitClient: [(w) => ['POST', `/api/clients/${w.clientId}/submit`], OWNER_OR_ADMIN(200)],
  // The volunteer's undo succeeds; the admin's after it finds nothing left to undo.
  unsubmitClient: [(w) => ['DELETE', `/api/clients/${w.clientId}/submit`], [401, 401, 200, 403, 403, 409]],
  submission: [(w) => ['GET', `/api/clients/${w.clientId}/submission`], OWNER_OR_ADMIN(200)],
  seasonDownload: [() => ['GET', '/api/admin/season/download'], ADMIN_ONLY(200)],
  downloadAll: [(w) => ['GET', `/api/clients/${w.clientId}/docs/download-all`], OWNER_OR_ADMIN(200)],
  presignUpload: [
    (w) => [
      'POST',
      `/api/docs/presign/${w.clientId}`,
      { docType: 'Banking Info', filename: 'x.pdf', contentType: 'application/pdf' },
    ],
    OWNER_OR_ADMIN(200),
  ],
  completeUpload: [(w) => ['POST', '/api/docs/complete', { key: w.key }], OWNER_OR_ADMIN(200)],
  listDocs: [(w) => ['GET', `/api/docs/list/${w.clientId}?docType=13614-C`], OWNER_OR_ADMIN(200)],
  presignGet: [
    (w) => ['POST', '/api/docs/presign-get', { key: w.key, downloadAs: 'copy.pdf' }],
    OWNER_OR_ADMIN(200),
  ],
  presignView: [(w) => ['POST', '/api/docs/presign-view', { key: w.key }], OWNER_OR_ADMIN(200)],
  deleteDocs: [
    (w) => ['POST', '/api/docs/delete', { keys: [`${w.clientId}/13614-C/1_missing.pdf`] }],
    OWNER_OR_ADMIN(200),
  ],
  renameDoc: [
    (w) => ['POST', '/api/docs/rename', { key: w.key, filename: 'intake.pdf' }],
    OWNER_OR_ADMIN(200),
  ],
  // Into its own category: allowed callers get the no-op answer, the key stays for the next caller.
  moveDoc: [(w) => ['POST', '/api/docs/move', { key: w.key, docType: '13614-C' }], OWNER_OR_ADMIN(200)],
  listUsers: [() => ['GET', '/api/admin/users?status=pending'], OFFICER_OR_ADMIN(200)],
  getUser: [() => ['GET', '/api/admin/users/vola%40example.org'], ADMIN_ONLY(200)],
  approveUser: [
    () => ['POST', '/api/admin/users/pending2%40example.org/approve', { approved: true }],
    OFFICER_OR_ADMIN(200),
  ],
  setUserRole: [
    () => ['POST', '/api/admin/users/pending%40example.org/role', { role: 'volunteer' }],
    OFFICER_OR_ADMIN(200),
  ],
  deleteUser: [() => ['DELETE', '/api/admin/users/ghost%40example.org'], ADMIN_ONLY(404)],
  deleteClient: [
    () => [
      'POST',
      '/api/admin/clients/delete',
      { createdBy: 'vola@example.org', clientEmail: 'ghost@example.org' },
    ],
    ADMIN_ONLY(404),
  ],
  // Officers may look up and move orphans and their own clients only; this one belongs to volA.
  clientMeta: [(w) => ['GET', `/api/admin/client-meta/${w.clientId}`], ADMIN_ONLY(200)],
  reassignClient: [
    (w) => [
      'POST',
      '/api/admin/clients/reassign',
      { from: 'vola@example.org', clientEmail: w.clientEmail, newVolunteerEmail: 'vola@example.org' },
    ],
    ADMIN_ONLY(200),
  ],
  audit: [(w) => ['GET', `/api/admin/audit?clientId=${w.clientId}&limit=5`], ADMIN_ONLY(200)],
  getRetention: [() => ['GET', '/api/admin/retention'], ADMIN_ONLY(200)],
  seasonSummary: [() => ['GET', '/api/admin/season'], ADMIN_ONLY(200)],
  overview: [() => ['GET', '/api/admin/overview'], ADMIN_ONLY(200)],
  closeSeason: [() => ['POST', '/api/admin/season/close', { confirm: 'close season' }], ADMIN_ONLY(400)],
  setRetention: [() => ['POST', '/api/admin/retention', { days: null }], ADMIN_ONLY(200)],
  orphanedClients: [() => ['GET', '/api/officer/orphaned-clients'], OFFICER_OR_ADMIN(200)],
  volunteers: [() => ['GET', '/api/officer/volunteers'], OFFICER_OR_ADMIN(200)],
  reassignOrphan: [
    () => [
      'POST',
      '/api/officer/orphaned-clients/reassign',
      { clientId: 'NoSuchClient123', newVolunteerEmail: 'vola@example.org' },
    ],
    OFFICER_OR_ADMIN(404),
  ],
  config: [() => ['GET', '/api/config'], SIGNED_IN(200)],
  // This server has no PUBLIC_URL, so no passkeys: their ceremonies answer 404 (passkeys.test.ts has them on).
  passkeyStatus: [() => ['GET', '/api/auth/passkey/status'], PUBLIC(200)],
  passkeyLoginOptions: [() => ['POST', '/api/auth/passkey/login-options'], PUBLIC(404)],
  passkeyLoginVerify: [() => ['POST', '/api/auth/passkey/login-verify', { response: ANSWER }], PUBLIC(404)],
  passkeyRegisterOptions: [() => ['POST', '/api/me/passkeys/register-options'], SIGNED_IN(404)],
  passkeyRegisterVerify: [
    () => ['POST', '/api/me/passkeys/register-verify', { response: ANSWER }],
    SIGNED_IN(404),
  ],
  listPasskeys: [() => ['GET', '/api/me/passkeys'], SIGNED_IN(200)],
  deletePasskey: [() => ['DELETE', '/api/me/passkeys/none'], SIGNED_IN(404)],
  passkeyNotNow: [() => ['POST', '/api/me/passkeys/not-now'], SIGNED_IN(200)],
  // A confirmation is for a session held back by the passkey rule only: any other is told none is needed.
  passkeyConfirmationRequest: [() => ['POST', '/api/me/passkeys/confirmation'], SIGNED_IN(400)],
  passkeyConfirm: [() => ['POST', '/api/me/passkeys/confirm', { code: '123456' }], SIGNED_IN(400)],
  removeOwnPasskeys: [() => ['DELETE', '/api/me/passkeys'], SIGNED_IN(200)],
  userPasskeys: [() => ['GET', '/api/admin/users/vola%40example.org/passkeys'], ADMIN_ONLY(200)],
  removeUserPasskeys: [() => ['DELETE', '/api/admin/users/ghost%40example.org/passkeys'], ADMIN_ONLY(404)],
  getPasskeyPolicy: [() => ['GET', '/api/admin/passkey-policy'], ADMIN_ONLY(200)],
  setProgrammeReading: [() => ['POST', '/api/admin/reading', { on: true }], ADMIN_ONLY(200)],
  setPasskeyPolicy: [
    () => ['POST', '/api/admin/passkey-policy', { requireForStaff: false }],
    ADMIN_ONLY(200),
  ],
  getConsentText: [() => ['GET', '/api/admin/consent-text'], ADMIN_ONLY(200)],
  setConsentText: [() => ['POST', '/api/admin/consent-text', { en: '', es: '' }], ADMIN_ONLY(200)],
  getProgrammeName: [() => ['GET', '/api/admin/programme-name'], ADMIN_ONLY(200)],
  setProgrammeName: [
    () => ['POST', '/api/admin/programme-name', { name: 'VITA Documents' }],
    ADMIN_ONLY(200),
  ],
  // Like its documents: the client's volunteer and admins may ask a client for documents (client-links.test.ts).
  createClientLink: [
    (w) => ['POST', `/api/clients/${w.clientId}/link`, { categories: ['13614-C'] }],
    OWNER_OR_ADMIN(200),
  ],
  clientLinkStatus: [(w) => ['GET', `/api/clients/${w.clientId}/link`], OWNER_OR_ADMIN(200)],
  revokeClientLink: [(w) => ['DELETE', `/api/clients/${w.clientId}/link`], OWNER_OR_ADMIN(200)],
  newFromClients: [() => ['GET', '/api/client-links/new'], SIGNED_IN(200)],
  // No signed-in session opens a link: an unknown token is gone, and the link session's calls need its cookie.
  linkOpen: [() => ['POST', '/api/link/open', { token: 'A'.repeat(43) }], PUBLIC(410)],
  linkVerify: [() => ['POST', '/api/link/verify', { token: 'A'.repeat(43), code: '123456' }], PUBLIC(410)],
  linkChecklist: [() => ['GET', '/api/link/session/checklist'], PUBLIC(401)],
  linkConsent: [
    () => ['POST', '/api/link/session/consent', { version: '2026-1', name: 'Cli Ent' }],
    PUBLIC(401),
  ],
  linkPresign: [
    () => [
      'POST',
      '/api/link/session/presign',
      {
        docType: '13614-C',
        filename: 'x.pdf',
        contentType: 'application/pdf',
        size: 100,
        sha256: '0'.repeat(64),
      },
    ],
    PUBLIC(401),
  ],
  linkComplete: [(w) => ['POST', '/api/link/session/complete', { key: w.key }], PUBLIC(401)],
  linkRemove: [(w) => ['POST', '/api/link/session/remove', { key: w.key }], PUBLIC(401)],
  linkMove: [(w) => ['POST', '/api/link/session/move', { key: w.key, docType: 'W-2' }], PUBLIC(401)],
  linkAnswer: [
    () => ['POST', '/api/link/session/answer', { docType: '13614-C', missing: true }],
    PUBLIC(401),
  ],
  linkDone: [() => ['POST', '/api/link/session/done'], PUBLIC(401)],
  linkJournalKey: [() => ['GET', '/api/link/session/journal-key'], PUBLIC(401)],
  devOutbox: [() => ['GET', '/api/dev/outbox'], PUBLIC(200)],
  // Last: it ends the sessions of the other columns.
  logout: [() => ['POST', '/api/auth/logout'], PUBLIC(200)],
};

describe('authorization matrix', () => {
  let app: TestApp;
  let agents: Record<Who, Agent>;
  let world: World;

  beforeAll(async () => {
    app = await startApp();
    const people = await seedPeople(app);
    await register(app, 'pending2@example.org');
    agents = {
      anon: people.anonymous,
      pending: people.pending,
      volA: people.volA,
      volB: people.volB,
      officer: people.officer,
      admin: people.admin,
    };
    const clientEmail = 'matrix-client@example.org';
    const clientId = await createClient(people.volA, clientEmail);
    const key = await upload(people.volA, clientId, '13614-C', 'intake.pdf', pdfBytes());
    world = { clientId, clientEmail, key };
  });
  afterAll(async () => {
    await app?.close();
  });

  it('has a row for every endpoint of the contract', () => {
    expect(Object.keys(MATRIX).sort()).toEqual(Object.keys(endpoints).sort());
  });

  it('answers every cell as the table says', async () => {
    const failures: string[] = [];
    let n = 0;
    for (const [name, [call, expected]] of Object.entries(MATRIX)) {
      for (const [i, who] of WHO.entries()) {
        const [method, path, body] = call(world, (n += 1));
        const res = await agents[who].call(method, path, body);
        if (res.status !== expected[i]) {
          failures.push(
            `${name} as ${who}: expected ${expected[i]}, got ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
