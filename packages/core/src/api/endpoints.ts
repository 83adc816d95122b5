/**
 * Every call of the API (docs/behaviour.md#api), with its method, path under the API base, and
 * schemas. The server registers exactly these routes and the client has exactly these
 * methods, so the two cannot drift apart.
 */
import { def } from './endpoint-def.js';
import { sessionCheck } from './session-contract.js';
import * as l from './link-schemas.js';
import * as s from './schemas.js';

export const endpoints = {
  // Auth
  register: def({
    method: 'POST',
    path: '/auth/register',
    body: s.RegisterRequest,
    response: s.RegisterResponse,
  }),
  loginInit: def({
    method: 'POST',
    path: '/auth/login-init',
    body: s.LoginInitRequest,
    response: s.EmailSentResponse,
  }),
  loginVerify: def({
    method: 'POST',
    path: '/auth/login-verify',
    body: s.VerifyRequest,
    response: s.LoginVerifyResponse,
  }),
  loginResend: def({
    method: 'POST',
    path: '/auth/login-resend',
    body: s.ResendRequest,
    response: s.EmailSentResponse,
  }),
  me: sessionCheck,
  journalKey: def({ method: 'GET', path: '/me/journal-key', response: s.JournalKeyResponse }),
  /**
   * Whether documents are read on this person's devices (docs/behaviour.md#reading-documents): their
   * own switch and the programme's (which Settings shows too; only an admin sets it).
   */
  myReading: def({ method: 'GET', path: '/me/reading', response: s.ReadingSwitches }),
  setMyReading: def({
    method: 'POST',
    path: '/me/reading',
    body: s.ReadingSwitch,
    response: s.ReadingSwitches,
  }),
  logout: def({ method: 'POST', path: '/auth/logout', response: s.Ok }),
  forgotInit: def({
    method: 'POST',
    path: '/auth/forgot-init',
    body: s.ForgotInitRequest,
    response: s.EmailSentResponse,
  }),
  forgotVerify: def({ method: 'POST', path: '/auth/forgot-verify', body: s.VerifyRequest, response: s.Ok }),
  forgotResend: def({
    method: 'POST',
    path: '/auth/forgot-resend',
    body: s.ResendRequest,
    response: s.EmailSentResponse,
  }),
  forgotReset: def({
    method: 'POST',
    path: '/auth/forgot-reset',
    body: s.ForgotResetRequest,
    response: s.Ok,
  }),

  // Passkeys (docs/behaviour.md#passkeys)
  passkeyStatus: def({ method: 'GET', path: '/auth/passkey/status', response: s.PasskeyStatus }),
  passkeyLoginOptions: def({
    method: 'POST',
    path: '/auth/passkey/login-options',
    response: s.PasskeyOptionsResponse,
  }),
  passkeyLoginVerify: def({
    method: 'POST',
    path: '/auth/passkey/login-verify',
    body: s.PasskeyLoginRequest,
    response: s.LoginVerifyResponse,
  }),
  passkeyRegisterOptions: def({
    method: 'POST',
    path: '/me/passkeys/register-options',
    response: s.PasskeyOptionsResponse,
  }),
  passkeyRegisterVerify: def({
    method: 'POST',
    path: '/me/passkeys/register-verify',
    body: s.PasskeyRegisterRequest,
    response: s.Passkey,
  }),
  listPasskeys: def({ method: 'GET', path: '/me/passkeys', response: s.PasskeyList }),
  deletePasskey: def({
    method: 'DELETE',
    path: '/me/passkeys/:id',
    params: s.PasskeyIdParams,
    response: s.Ok,
  }),
  passkeyNotNow: def({ method: 'POST', path: '/me/passkeys/not-now', response: s.Ok }),
  /** Under the passkey rule, a session without a passkey asks for a mailed code before enrolling. */
  passkeyConfirmationRequest: def({
    method: 'POST',
    path: '/me/passkeys/confirmation',
    response: s.EmailSentResponse,
  }),
  passkeyConfirm: def({
    method: 'POST',
    path: '/me/passkeys/confirm',
    body: s.PasskeyConfirmRequest,
    response: s.Ok,
  }),
  removeOwnPasskeys: def({ method: 'DELETE', path: '/me/passkeys', response: s.Ok }),
  userPasskeys: def({
    method: 'GET',
    path: '/admin/users/:email/passkeys',
    params: s.UserEmailParams,
    response: s.PasskeyCount,
  }),
  removeUserPasskeys: def({
    method: 'DELETE',
    path: '/admin/users/:email/passkeys',
    params: s.UserEmailParams,
    response: s.Ok,
  }),
  getPasskeyPolicy: def({ method: 'GET', path: '/admin/passkey-policy', response: s.PasskeyPolicy }),
  setPasskeyPolicy: def({
    method: 'POST',
    path: '/admin/passkey-policy',
    body: s.PasskeyPolicy,
    response: s.PasskeyPolicy,
  }),

  // Clients and documents
  listClients: def({ method: 'GET', path: '/clients', response: s.ClientList }),
  listAllClients: def({ method: 'GET', path: '/admin/clients', response: s.ClientList }),
  createClient: def({
    method: 'POST',
    path: '/clients/new',
    body: s.NewClientRequest,
    response: s.NewClientResponse,
  }),
  docStatus: def({
    method: 'GET',
    path: '/clients/:id/docs/status',
    params: s.ClientIdParams,
    response: s.DocStatusResponse,
  }),
  docTypes: def({
    method: 'GET',
    path: '/clients/:id/docs/types',
    params: s.ClientIdParams,
    response: s.DocTypesResponse,
  }),
  addDocType: def({
    method: 'POST',
    path: '/clients/:id/docs/types',
    params: s.ClientIdParams,
    body: s.AddDocTypeRequest,
    response: s.AddDocTypeResponse,
  }),
  deleteDocType: def({
    method: 'DELETE',
    path: '/clients/:id/docs/types',
    params: s.ClientIdParams,
    query: s.DocTypeQuery,
    response: s.Ok,
  }),
  submitClient: def({
    method: 'POST',
    path: '/clients/:id/submit',
    params: s.ClientIdParams,
    response: s.SubmitResponse,
  }),
  /** Undo submitted: allowed until the rule deleted the documents (409 after). */
  unsubmitClient: def({
    method: 'DELETE',
    path: '/clients/:id/submit',
    params: s.ClientIdParams,
    response: s.SubmissionStatus,
  }),
  submission: def({
    method: 'GET',
    path: '/clients/:id/submission',
    params: s.ClientIdParams,
    response: s.SubmissionStatus,
  }),
  downloadAll: def({
    method: 'GET',
    path: '/clients/:id/docs/download-all',
    params: s.ClientIdParams,
    query: s.DownloadAllQuery,
    response: null,
  }),
  presignUpload: def({
    method: 'POST',
    path: '/docs/presign/:id',
    params: s.ClientIdParams,
    body: s.PresignRequest,
    response: s.PresignResponse,
  }),
  completeUpload: def({
    method: 'POST',
    path: '/docs/complete',
    body: s.CompleteUploadRequest,
    response: s.CompleteUploadResponse,
  }),
  listDocs: def({
    method: 'GET',
    path: '/docs/list/:id',
    params: s.ClientIdParams,
    query: s.DocTypeQuery,
    response: s.DocListResponse,
  }),
  presignGet: def({
    method: 'POST',
    path: '/docs/presign-get',
    body: s.PresignGetRequest,
    response: s.UrlResponse,
  }),
  presignView: def({
    method: 'POST',
    path: '/docs/presign-view',
    body: s.PresignViewRequest,
    response: s.UrlResponse,
  }),
  deleteDocs: def({
    method: 'POST',
    path: '/docs/delete',
    body: s.DeleteDocsRequest,
    response: s.DeleteDocsResponse,
  }),
  renameDoc: def({
    method: 'POST',
    path: '/docs/rename',
    body: s.RenameDocRequest,
    response: s.RenameDocResponse,
  }),
  moveDoc: def({
    method: 'POST',
    path: '/docs/move',
    body: s.MoveDocRequest,
    response: s.MoveDocResponse,
  }),

  // Admin
  listUsers: def({ method: 'GET', path: '/admin/users', query: s.UserListQuery, response: s.UserList }),
  getUser: def({
    method: 'GET',
    path: '/admin/users/:email',
    params: s.UserEmailParams,
    response: s.UserResponse,
  }),
  approveUser: def({
    method: 'POST',
    path: '/admin/users/:email/approve',
    params: s.UserEmailParams,
    body: s.ApproveRequest,
    response: s.UserChangeResponse,
  }),
  setUserRole: def({
    method: 'POST',
    path: '/admin/users/:email/role',
    params: s.UserEmailParams,
    body: s.RoleRequest,
    response: s.UserChangeResponse,
  }),
  deleteUser: def({
    method: 'DELETE',
    path: '/admin/users/:email',
    params: s.UserEmailParams,
    response: s.Ok,
  }),
  deleteClient: def({
    method: 'POST',
    path: '/admin/clients/delete',
    body: s.AdminDeleteClientRequest,
    response: s.Ok,
  }),
  clientMeta: def({
    method: 'GET',
    path: '/admin/client-meta/:id',
    params: s.ClientIdParams,
    response: s.ClientMetaResponse,
  }),
  reassignClient: def({
    method: 'POST',
    path: '/admin/clients/reassign',
    body: s.AdminReassignRequest,
    response: s.ReassignResponse,
  }),
  audit: def({ method: 'GET', path: '/admin/audit', query: s.AuditQuery, response: s.AuditList }),
  overview: def({ method: 'GET', path: '/admin/overview', response: s.ProgrammeOverview }),
  seasonSummary: def({ method: 'GET', path: '/admin/season', response: s.SeasonSummary }),
  /** Every client's documents as one streamed ZIP, a folder per client (binary). */
  seasonDownload: def({ method: 'GET', path: '/admin/season/download', response: null }),
  closeSeason: def({
    method: 'POST',
    path: '/admin/season/close',
    body: s.SeasonCloseRequest,
    response: s.SeasonSummary,
  }),
  getRetention: def({ method: 'GET', path: '/admin/retention', response: s.RetentionStatus }),
  setRetention: def({
    method: 'POST',
    path: '/admin/retention',
    body: s.RetentionSettings,
    response: s.RetentionStatus,
  }),

  getConsentText: def({ method: 'GET', path: '/admin/consent-text', response: l.ConsentTextStatus }),
  setConsentText: def({
    method: 'POST',
    path: '/admin/consent-text',
    body: l.ConsentTextSettings,
    response: l.ConsentTextStatus,
  }),

  getProgrammeName: def({
    method: 'GET',
    path: '/admin/programme-name',
    response: l.ProgrammeNameSettings,
  }),
  setProgrammeName: def({
    method: 'POST',
    path: '/admin/programme-name',
    body: l.ProgrammeNameSettings,
    response: l.ProgrammeNameSettings,
  }),
  setProgrammeReading: def({
    method: 'POST',
    path: '/admin/reading',
    body: s.ReadingSwitch,
    response: s.ReadingSwitch,
  }),

  // Officer
  orphanedClients: def({ method: 'GET', path: '/officer/orphaned-clients', response: s.ClientList }),
  volunteers: def({ method: 'GET', path: '/officer/volunteers', response: s.VolunteerList }),
  reassignOrphan: def({
    method: 'POST',
    path: '/officer/orphaned-clients/reassign',
    body: s.OrphanReassignRequest,
    response: s.ReassignResponse,
  }),

  // Requesting documents from a client (docs/behaviour.md#requesting-documents-from-a-client)
  createClientLink: def({
    method: 'POST',
    path: '/clients/:id/link',
    params: s.ClientIdParams,
    body: l.CreateLinkRequest,
    response: l.CreateLinkResponse,
  }),
  clientLinkStatus: def({
    method: 'GET',
    path: '/clients/:id/link',
    params: s.ClientIdParams,
    response: l.LinkStatusResponse,
  }),
  revokeClientLink: def({
    method: 'DELETE',
    path: '/clients/:id/link',
    params: s.ClientIdParams,
    response: s.Ok,
  }),
  newFromClients: def({ method: 'GET', path: '/client-links/new', response: l.NewFromClientsResponse }),
  /** The client's side: the link's token proves nothing alone; a code (and PIN) opens a link session. */
  linkOpen: def({
    method: 'POST',
    path: '/link/open',
    body: l.LinkOpenRequest,
    response: l.LinkOpenResponse,
  }),
  linkVerify: def({ method: 'POST', path: '/link/verify', body: l.LinkVerifyRequest, response: s.Ok }),
  linkChecklist: def({ method: 'GET', path: '/link/session/checklist', response: l.LinkChecklist }),
  linkConsent: def({
    method: 'POST',
    path: '/link/session/consent',
    body: l.LinkConsentRequest,
    response: s.Ok,
  }),
  linkPresign: def({
    method: 'POST',
    path: '/link/session/presign',
    body: l.LinkPresignRequest,
    response: s.PresignResponse,
  }),
  linkComplete: def({
    method: 'POST',
    path: '/link/session/complete',
    body: l.LinkKeyRequest,
    response: l.LinkCompleteResponse,
  }),
  linkRemove: def({ method: 'POST', path: '/link/session/remove', body: l.LinkKeyRequest, response: s.Ok }),
  linkMove: def({
    method: 'POST',
    path: '/link/session/move',
    body: s.MoveDocRequest,
    response: s.MoveDocResponse,
  }),
  linkAnswer: def({
    method: 'POST',
    path: '/link/session/answer',
    body: l.LinkAnswerRequest,
    response: s.Ok,
  }),
  linkDone: def({ method: 'POST', path: '/link/session/done', response: s.Ok }),
  /** The key the client's phone seals queued files with (kept across a reload): only to a live link session. */
  linkJournalKey: def({
    method: 'GET',
    path: '/link/session/journal-key',
    response: l.LinkJournalKeyResponse,
  }),

  // Server settings (signed-in callers)
  config: def({ method: 'GET', path: '/config', response: s.ConfigResponse }),

  // Development outbox (exists only while no SMTP server is configured)
  devOutbox: def({ method: 'GET', path: '/dev/outbox', response: s.OutboxResponse }),
} as const;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
