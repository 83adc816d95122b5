/**
 * The wire contract: a zod schema for every request and response (docs/behaviour.md#api). The server parses
 * requests with these and the client parses responses with them; types are `z.infer` of them.
 */
import { z } from 'zod/mini';
import { AUDIT_ACTIONS } from '../domain/audit.js';
import { RETENTION_MAX_DAYS, RETENTION_MIN_DAYS } from '../domain/constants.js';
import { CATEGORY_TEMPLATES, MAX_CATEGORY_NOTE_LENGTH } from '../domain/categories.js';
import {
  ClientId,
  Code,
  DocKey,
  DocTypeName,
  Email,
  NewPin,
  Phone,
  Pin,
  Timestamp,
  cleanString,
  hasNoBidiControls,
  optionalText,
  requiredText,
} from './fields.js';
import { ROLES } from '../domain/roles.js';
import { User } from './session-contract.js';

// ── Shared shapes ────────────────────────────────────────────────────────────────────────────

export const Ok = z.object({ ok: z.literal(true) });
export type Ok = z.infer<typeof Ok>;

// The error body and the session check's shapes live with the call the first screen makes.
export { ErrorBody, MeResponse, User } from './session-contract.js';

export const Client = z.object({
  clientId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  /** Whether a client PIN was set; the PIN itself never leaves the server. */
  hasPin: z.boolean(),
  /** The owning volunteer's email; null while the client is orphaned. */
  createdBy: z.nullable(z.string()),
  createdAt: Timestamp,
  /** Present on orphaned clients: who owned it before their account was deleted. */
  previousCreatedBy: z.optional(z.nullable(z.string())),
  submittedAt: z.nullable(Timestamp),
});
export type Client = z.infer<typeof Client>;

/** SHA-256 of a file's bytes, as 64 lowercase hex digits. */
export const Sha256Hex = z
  .string()
  .check(z.regex(/^[0-9a-f]{64}$/, { error: 'sha256 must be 64 lowercase hex digits.' }));

/** Another file of the same client with exactly the same bytes. */
export const DuplicateOf = z.object({ key: z.string(), filename: z.string(), docType: z.string() });
export type DuplicateOf = z.infer<typeof DuplicateOf>;

export const DocItem = z.object({
  key: z.string(),
  filename: z.string(),
  size: z.number().check(z.int(), z.nonnegative()),
  docType: z.string(),
  contentType: z.string(),
  lastModified: Timestamp,
  /** Additive: the SHA-256 the server verified when the file was stored. */
  sha256: z.optional(Sha256Hex),
  /** Additive: the earliest other file of this client with the same bytes, if any. */
  duplicateOf: z.optional(DuplicateOf),
});
export type DocItem = z.infer<typeof DocItem>;

export const Volunteer = z.object({
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(ROLES),
  isAdmin: z.boolean(),
});
export type Volunteer = z.infer<typeof Volunteer>;

export const AuditEntry = z.object({
  id: z.number().check(z.int()),
  at: Timestamp,
  actor: z.nullable(z.string()),
  action: z.string(),
  clientId: z.nullable(z.string()),
  /** The client's name while the client exists (shown beside the id). */
  clientName: z._default(z.nullable(z.string()), null),
  keys: z.array(z.string()),
  ip: z.nullable(z.string()),
  detail: z.nullable(z.string()),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const OutboxMail = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  sentAt: Timestamp,
});
export type OutboxMail = z.infer<typeof OutboxMail>;

const items = <T extends z.ZodMiniType>(item: T) => z.object({ items: z.array(item) });

// ── Auth ─────────────────────────────────────────────────────────────────────────────────────

export const RegisterRequest = z.object({
  firstName: requiredText('First name'),
  lastName: requiredText('Last name'),
  email: Email,
  pin: NewPin,
});
export type RegisterRequest = z.input<typeof RegisterRequest>;
/** `pending` normally; `approved` for the very first account of a fresh installation (it becomes admin). */
export const RegisterResponse = z.object({ ok: z.literal(true), status: z.enum(['pending', 'approved']) });
export type RegisterResponse = z.infer<typeof RegisterResponse>;

export const LoginInitRequest = z.object({ email: Email, pin: Pin });
export type LoginInitRequest = z.input<typeof LoginInitRequest>;
/** `emailSent: false` means the code could not be sent. */
export const EmailSentResponse = z.object({ ok: z.literal(true), emailSent: z.boolean() });
export type EmailSentResponse = z.infer<typeof EmailSentResponse>;

export const VerifyRequest = z.object({ code: Code, email: Email });
export type VerifyRequest = z.input<typeof VerifyRequest>;
export const LoginVerifyResponse = z.object({ ok: z.literal(true), user: User });
export type LoginVerifyResponse = z.infer<typeof LoginVerifyResponse>;

export const ResendRequest = z.object({ email: z.optional(Email) });
export type ResendRequest = z.input<typeof ResendRequest>;

/**
 * The key that seals the signed-in person's kept uploads on a device (docs/behaviour.md#kept-uploads):
 * 32 random bytes in base64, its id, when the server destroys it, and whose it is. Held in memory only.
 */
export const JournalKeyResponse = z.object({
  keyId: z.string().check(z.regex(/^[0-9a-f]{32}$/)),
  key: z.string().check(z.regex(/^[A-Za-z0-9+/]{43}=$/)),
  /** The public half of the key's sealing pair (P-256, uncompressed point): a device may keep it. */
  sealKey: z.string().check(z.regex(/^[A-Za-z0-9+/]{87}=$/)),
  /** The private half (the scalar): held in memory only, like `key`. */
  openKey: z.string().check(z.regex(/^[A-Za-z0-9+/]{43}=$/)),
  expiresAt: Timestamp,
  email: z.string(),
});
export type JournalKeyResponse = z.infer<typeof JournalKeyResponse>;

export const ForgotInitRequest = z.object({ email: Email });
export type ForgotInitRequest = z.input<typeof ForgotInitRequest>;

export const ForgotResetRequest = z.object({
  newPin1: NewPin,
  newPin2: z.string({ error: 'Confirm the new Password PIN.' }),
  /** `Remove all passkeys` ticked on the reset screen: a passkey a thief added goes with the old PIN. */
  removePasskeys: z.optional(z.boolean()),
});
export type ForgotResetRequest = z.input<typeof ForgotResetRequest>;

// ── Clients and documents ────────────────────────────────────────────────────────────────────

export const ClientIdParams = z.object({ id: ClientId });
export type ClientIdParams = z.input<typeof ClientIdParams>;

export const ClientList = items(Client);
export type ClientList = z.infer<typeof ClientList>;

export const NewClientRequest = z.object({
  firstName: requiredText('First name'),
  lastName: requiredText('Last name'),
  email: Email,
  phone: Phone,
  /** Optional client PIN; empty means none. */
  pin: z.pipe(
    z.optional(z.string().check(z.maxLength(128, { error: 'Client PIN must be at most 128 characters.' }))),
    z.transform((s: string | undefined) => (s ? s : undefined)),
  ),
});
export type NewClientRequest = z.input<typeof NewClientRequest>;
export const NewClientResponse = z.object({ ok: z.literal(true), client: Client });
export type NewClientResponse = z.infer<typeof NewClientResponse>;

/** Map from category name to true when it has files (Ready) — false is Missing. */
export const DocStatusResponse = z.record(z.string(), z.boolean());
export type DocStatusResponse = z.infer<typeof DocStatusResponse>;

export const DocTypesResponse = z.object({ types: z.array(z.string()) });
export type DocTypesResponse = z.infer<typeof DocTypesResponse>;

export const AddDocTypeRequest = z.object({
  template: z.enum(CATEGORY_TEMPLATES, { error: 'Choose one of the document templates.' }),
  note: z.optional(
    cleanString('The note', MAX_CATEGORY_NOTE_LENGTH).check(
      z.refine(hasNoBidiControls, { error: 'The note contains characters that are not allowed.' }),
    ),
  ),
});
export type AddDocTypeRequest = z.input<typeof AddDocTypeRequest>;
export const AddDocTypeResponse = z.object({ ok: z.literal(true), docType: z.string() });
export type AddDocTypeResponse = z.infer<typeof AddDocTypeResponse>;

export const DocTypeQuery = z.object({ docType: DocTypeName });
export type DocTypeQuery = z.input<typeof DocTypeQuery>;

export const SubmitResponse = z.object({ ok: z.literal(true), submittedAt: Timestamp });
export type SubmitResponse = z.infer<typeof SubmitResponse>;

/**
 * Where a client stands with submission and the retention rule (docs/behaviour.md#retention):
 * `deleteOn` is the day the rule deletes its documents (null: the rule is off, the client is not
 * submitted, or nothing is left to delete); `canUndo` while submitted and its documents not deleted
 * under that submission.
 */
export const SubmissionStatus = z.object({
  submittedAt: z.nullable(Timestamp),
  deleteOn: z.nullable(Timestamp),
  canUndo: z.boolean(),
  /** The rule in force, in days after submission; null when off. */
  retentionDays: z.nullable(z.number().check(z.int())),
});
export type SubmissionStatus = z.infer<typeof SubmissionStatus>;

/** `include` is a comma-separated list of category names; absent means all. */
export const DownloadAllQuery = z.object({ include: z.optional(z.string().check(z.maxLength(10_000))) });
export type DownloadAllQuery = z.input<typeof DownloadAllQuery>;

export const PresignRequest = z.object({
  docType: DocTypeName,
  filename: cleanString('File name', 1024).check(z.minLength(1, { error: 'File name is required.' })),
  contentType: z.string({ error: 'Content type is required.' }).check(z.minLength(1), z.maxLength(255)),
  /** Additive: the exact size of the file; signed into the upload URL where the store can enforce it. */
  size: z.optional(z.number().check(z.int(), z.nonnegative())),
  /** Additive: the SHA-256 the client computed; the store refuses other bytes where it can. */
  sha256: z.optional(Sha256Hex),
  /**
   * Additive: the key of the file this upload replaces (Retake) — the new file takes its place in the
   * category's order. Ignored unless it is a file of the same client and category.
   */
  replaces: z.optional(z.string().check(z.maxLength(2048))),
});
export type PresignRequest = z.input<typeof PresignRequest>;
/**
 * A URL for one direct `PUT` of the file, with the Content-Type header set to the signed type, and
 * (additive) any further headers the PUT must carry because they are signed into the URL.
 */
export const PresignResponse = z.object({
  url: z.string(),
  key: z.string(),
  expiresAt: Timestamp,
  headers: z.optional(z.record(z.string(), z.string())),
  /**
   * Additive: these bytes under this name are already stored in the category as `key` (a retry whose
   * first answer was lost): nothing is to be sent, and `url` is empty.
   */
  alreadyStored: z.optional(z.literal(true)),
});
export type PresignResponse = z.infer<typeof PresignResponse>;

/** After the PUT: the server checks what arrived and lists it (`POST /docs/complete`). */
export const CompleteUploadRequest = z.object({ key: DocKey });
export type CompleteUploadRequest = z.input<typeof CompleteUploadRequest>;
export const CompleteUploadResponse = z.object({ ok: z.literal(true), item: DocItem });
export type CompleteUploadResponse = z.infer<typeof CompleteUploadResponse>;

export const DocListResponse = items(DocItem);
export type DocListResponse = z.infer<typeof DocListResponse>;

export const PresignGetRequest = z.object({
  key: DocKey,
  downloadAs: z.optional(cleanString('Download name', 255)),
});
export type PresignGetRequest = z.input<typeof PresignGetRequest>;
export const PresignViewRequest = z.object({ key: DocKey });
export type PresignViewRequest = z.input<typeof PresignViewRequest>;
export const UrlResponse = z.object({ url: z.string(), expiresAt: Timestamp });
export type UrlResponse = z.infer<typeof UrlResponse>;

export const DeleteDocsRequest = z.object({
  keys: z
    .array(DocKey, { error: 'keys must be a list of file keys.' })
    .check(
      z.minLength(1, { error: 'Select at least one file.' }),
      z.maxLength(1000, { error: 'At most 1000 files at once.' }),
    ),
});
export type DeleteDocsRequest = z.input<typeof DeleteDocsRequest>;
export const DeleteDocsResponse = z.object({ ok: z.literal(true), deleted: z.number().check(z.int()) });
export type DeleteDocsResponse = z.infer<typeof DeleteDocsResponse>;

export const RenameDocRequest = z.object({
  key: DocKey,
  filename: cleanString('File name', 1024),
});
export type RenameDocRequest = z.input<typeof RenameDocRequest>;
export const RenameDocResponse = z.object({ ok: z.literal(true), newKey: z.string(), filename: z.string() });
export type RenameDocResponse = z.infer<typeof RenameDocResponse>;

export const MoveDocRequest = z.object({ key: DocKey, docType: DocTypeName });
export type MoveDocRequest = z.input<typeof MoveDocRequest>;
export const MoveDocResponse = z.object({ ok: z.literal(true), newKey: z.string(), docType: z.string() });
export type MoveDocResponse = z.infer<typeof MoveDocResponse>;

// ── Admin ────────────────────────────────────────────────────────────────────────────────────

export const UserListQuery = z.object({
  status: z._default(z.enum(['pending', 'all'], { error: 'status must be pending or all.' }), 'all'),
});
export type UserListQuery = z.input<typeof UserListQuery>;
export const UserList = items(User);
export type UserList = z.infer<typeof UserList>;

export const UserEmailParams = z.object({ email: Email });
export type UserEmailParams = z.input<typeof UserEmailParams>;
export const UserResponse = z.object({ user: User });
export type UserResponse = z.infer<typeof UserResponse>;

export const ApproveRequest = z.object({ approved: z.boolean({ error: 'approved must be true or false.' }) });
export type ApproveRequest = z.input<typeof ApproveRequest>;
export const RoleRequest = z.object({ role: z.enum(ROLES, { error: 'role must be volunteer or officer.' }) });
export type RoleRequest = z.input<typeof RoleRequest>;
export const UserChangeResponse = z.object({ ok: z.literal(true), user: User });
export type UserChangeResponse = z.infer<typeof UserChangeResponse>;

/**
 * Identifies a client by its owner and email; `clientId`, when sent, pins the exact client
 * (needed for orphans, whose owner is gone).
 */
export const AdminDeleteClientRequest = z.object({
  createdBy: z.nullable(cleanString('createdBy', 254)),
  clientEmail: Email,
  clientId: z.optional(ClientId),
});
export type AdminDeleteClientRequest = z.input<typeof AdminDeleteClientRequest>;

/**
 * `clientEmail` lets a page that only knows the client id (the Client Documents page) call
 * `POST /admin/clients/reassign`, whose body needs the client's email.
 */
export const ClientMetaResponse = z.object({
  createdBy: z.nullable(z.string()),
  clientEmail: z.optional(z.string()),
});
export type ClientMetaResponse = z.infer<typeof ClientMetaResponse>;

export const AdminReassignRequest = z.object({
  from: z.nullable(cleanString('from', 254)),
  clientEmail: Email,
  newVolunteerEmail: Email,
  clientId: z.optional(ClientId),
});
export type AdminReassignRequest = z.input<typeof AdminReassignRequest>;
export const ReassignResponse = z.object({ ok: z.literal(true), client: Client });
export type ReassignResponse = z.infer<typeof ReassignResponse>;

/** A moment as ISO 8601 with its offset (`2026-11-25T00:00:00.000Z`): the audit filter's bounds. */
const Instant = (label: string) =>
  z.iso.datetime({ offset: true, error: `${label} must be a date and time (ISO 8601).` });

/**
 * The audit log, newest first, filtered: by who (`actor`, an email), the client, the action, and a
 * time range (`from` inclusive, `to` exclusive); a page ends at `limit` and `next` is the `before` of
 * the following page (a cursor: entries added meanwhile never shift a page).
 */
export const AuditQuery = z.object({
  clientId: z.optional(ClientId),
  /** A client's id, or (part of) its name, matched without regard to case or accents. */
  client: z.optional(cleanString('client', 200).check(z.trim())),
  actor: z.optional(cleanString('actor', 254).check(z.trim(), z.toLowerCase())),
  action: z.optional(z.enum(AUDIT_ACTIONS, { error: 'Unknown action.' })),
  from: z.optional(Instant('from')),
  to: z.optional(Instant('to')),
  // Entry ids are PostgreSQL `serial` (int4): a larger cursor is no entry, not a database error.
  before: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(2_147_483_647))),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(1000)), 100),
});
export type AuditQuery = z.input<typeof AuditQuery>;
export const AuditList = z.object({
  items: z.array(AuditEntry),
  /** The `before` of the next page; null on the last. */
  next: z._default(z.nullable(z.number().check(z.int())), null),
});
export type AuditList = z.infer<typeof AuditList>;

/**
 * The retention rule: a client's documents are deleted `days` after the client was submitted; null
 * when off (docs/behaviour.md#retention).
 */
export const RetentionSettings = z.object({
  days: z.nullable(
    z.number({ error: 'days must be a number of days, or null for off.' }).check(
      z.int({ error: 'days must be a whole number.' }),
      z.minimum(RETENTION_MIN_DAYS, {
        error: `Choose between ${RETENTION_MIN_DAYS} and ${RETENTION_MAX_DAYS} days.`,
      }),
      z.maximum(RETENTION_MAX_DAYS, {
        error: `Choose between ${RETENTION_MIN_DAYS} and ${RETENTION_MAX_DAYS} days.`,
      }),
    ),
  ),
});
export type RetentionSettings = z.infer<typeof RetentionSettings>;

/** The rule with what it will do: how many submitted clients still have documents it will delete, and the next day it deletes some. */
export const RetentionStatus = z.extend(RetentionSettings, {
  clients: z.number().check(z.int(), z.nonnegative()),
  nextDeletionOn: z.nullable(Timestamp),
});
export type RetentionStatus = z.infer<typeof RetentionStatus>;

/**
 * The season close (docs/behaviour.md#season-close): what it will do — or did, once `closedAt` is
 * set — for `year`: the non-admin accounts it suspends, the clients with documents, the documents.
 */
export const SeasonSummary = z.object({
  year: z.number().check(z.int()),
  users: z.number().check(z.int()),
  clients: z.number().check(z.int()),
  documents: z.number().check(z.int()),
  closedAt: z.nullable(Timestamp),
});
export type SeasonSummary = z.infer<typeof SeasonSummary>;
/** The typed confirmation: exactly {@link seasonClosePhrase} of the year. */
export const SeasonCloseRequest = z.object({
  confirm: z.string({ error: 'Type the confirmation phrase.' }).check(z.maxLength(100)),
});
export type SeasonCloseRequest = z.input<typeof SeasonCloseRequest>;

/**
 * The programme overview on the admin's dashboard (docs/behaviour.md#programme-overview): this
 * season's clients (created since `since`), how many have a file in every one of their categories,
 * documents stored per day (the last 30 days, UTC, days without any left out), and per volunteer
 * (null: clients without one) their clients, complete clients and missing categories.
 */
export const ProgrammeOverview = z.object({
  since: Timestamp,
  clients: z.number().check(z.int()),
  complete: z.number().check(z.int()),
  uploadsPerDay: z.array(z.object({ day: z.string(), count: z.number().check(z.int()) })),
  volunteers: z.array(
    z.object({
      email: z.nullable(z.string()),
      name: z.nullable(z.string()),
      clients: z.number().check(z.int()),
      complete: z.number().check(z.int()),
      missing: z.number().check(z.int()),
    }),
  ),
});
export type ProgrammeOverview = z.infer<typeof ProgrammeOverview>;

// ── Officer ──────────────────────────────────────────────────────────────────────────────────

export const VolunteerList = items(Volunteer);
export type VolunteerList = z.infer<typeof VolunteerList>;

export const OrphanReassignRequest = z.object({ clientId: ClientId, newVolunteerEmail: Email });
export type OrphanReassignRequest = z.input<typeof OrphanReassignRequest>;

// ── Server settings ──────────────────────────────────────────────────────────────────────────

/** What clients need to know of the server's settings before they act: the largest upload, in bytes. */
export const ConfigResponse = z.object({ maxUploadBytes: z.number().check(z.int(), z.positive()) });
export type ConfigResponse = z.infer<typeof ConfigResponse>;

// ── Development ──────────────────────────────────────────────────────────────────────────────

export const OutboxResponse = z.array(OutboxMail);
export type OutboxResponse = z.infer<typeof OutboxResponse>;

/**
 * Passkeys (docs/behaviour.md#passkeys). The ceremony options and the browser's answers are
 * WebAuthn's JSON forms (`@simplewebauthn`'s types); the contract checks only that they are objects
 * and leaves their checking to the server's WebAuthn library.
 */
const WebAuthnJson = z.record(z.string(), z.unknown());
const b64url = z
  .string()
  .check(z.maxLength(16_384), z.regex(/^[A-Za-z0-9_-]*$/, { error: 'Not base64url.' }));
/** A browser's answer to a ceremony: the fields the server reads checked for shape, the rest kept as sent. */
const WebAuthnAnswer = z.looseObject({
  id: b64url.check(z.minLength(1), z.maxLength(1_024)),
  rawId: b64url,
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: b64url, userHandle: z.optional(b64url) }),
  clientExtensionResults: z._default(z.record(z.string(), z.unknown()), {}),
});

/** Whether this server offers passkeys at all (it needs `PUBLIC_URL`). */
export const PasskeyStatus = z.object({ enabled: z.boolean() });
export type PasskeyStatus = z.infer<typeof PasskeyStatus>;

export const PasskeyOptionsResponse = z.object({ options: WebAuthnJson });
export type PasskeyOptionsResponse = z.infer<typeof PasskeyOptionsResponse>;

export const PasskeyRegisterRequest = z.object({
  response: WebAuthnAnswer,
  /** The name the person gives the passkey; without one (or blank), the browser's name for the device. */
  name: z.optional(optionalText('Passkey name', 60)),
});
export type PasskeyRegisterRequest = z.infer<typeof PasskeyRegisterRequest>;

/** The code mailed to confirm a new passkey under the passkey rule. */
export const PasskeyConfirmRequest = z.object({ code: Code });
export type PasskeyConfirmRequest = z.input<typeof PasskeyConfirmRequest>;

export const PasskeyLoginRequest = z.object({ response: WebAuthnAnswer });
export type PasskeyLoginRequest = z.infer<typeof PasskeyLoginRequest>;

export const Passkey = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
});
export type Passkey = z.infer<typeof Passkey>;

export const PasskeyList = z.object({
  passkeys: z.array(Passkey),
  /** The dashboard offers a passkey: none yet, and no `Not now` in the last 30 days. */
  offer: z.boolean(),
  /** A passkey must be created before anything else (the admin setting, for admins and officers). */
  required: z.boolean(),
});
export type PasskeyList = z.infer<typeof PasskeyList>;

export const PasskeyIdParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(512)) });
export type PasskeyIdParams = z.infer<typeof PasskeyIdParams>;

export const PasskeyCount = z.object({ count: z.number().check(z.int(), z.nonnegative()) });
export type PasskeyCount = z.infer<typeof PasskeyCount>;

export const PasskeyPolicy = z.object({ requireForStaff: z.boolean() });
export type PasskeyPolicy = z.infer<typeof PasskeyPolicy>;

/**
 * One switch of reading documents on the device (docs/behaviour.md#reading-documents): the person's
 * own (Account) or the programme's (Settings).
 */
export const ReadingSwitch = z.object({ on: z.boolean() });
export type ReadingSwitch = z.infer<typeof ReadingSwitch>;

/** Both switches as they apply to the signed-in person: documents are read only while both are on. */
export const ReadingSwitches = z.object({ mine: z.boolean(), programme: z.boolean() });
export type ReadingSwitches = z.infer<typeof ReadingSwitches>;
