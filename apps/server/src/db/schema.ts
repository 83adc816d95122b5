import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | undefined, never>;
type Timestamp = ColumnType<Date, Date, Date>;
type NullableTimestamp = ColumnType<Date | null, Date | null | undefined, Date | null>;

export interface UsersTable {
  email: string;
  first_name: string;
  last_name: string;
  pin_hash: string;
  role: 'volunteer' | 'officer';
  is_admin: Generated<boolean>;
  approved: Generated<boolean>;
  created_at: CreatedAt;
  approved_at: NullableTimestamp;
  approved_by: string | null;
  /** Suspended by a season close until approved again (docs/behaviour.md#season-close). */
  suspended: Generated<boolean>;
  /** The WebAuthn user handle (random, base64url), made at the first passkey. */
  webauthn_user_id: string | null;
  passkey_offer_declined_at: NullableTimestamp;
  /** The person's own `Check documents on this device` (Account; apps/server/src/reading.ts). */
  read_documents: Generated<boolean>;
}

export interface SessionsTable {
  id_hash: string;
  user_email: string;
  created_at: CreatedAt;
  last_seen_at: Timestamp;
  ip: string | null;
  user_agent: string | null;
  /** Signed in with PIN + code under the passkey rule: only the passkey screens until one is made. */
  passkey_due: Generated<boolean>;
}

export interface EndedSessionsTable {
  id_hash: string;
  reason: SessionEndReason;
  ended_at: CreatedAt;
}

/** Why someone else ended a session (only role changes are told; other ends say "Please sign in."). */
export type SessionEndReason = 'role_changed';

export interface CodesTable {
  id: Generated<number>;
  email: string;
  purpose: 'login' | 'reset';
  kind: 'initial' | 'resend';
  code_hash: string;
  /** Hash of the pre-session that asked for the code: only that browser may try it, and a resend without an email finds it. */
  requester: string | null;
  /** The network it was asked from (`networkOf`): its requests and wrong codes count against that network's share. */
  network: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  attempts: Generated<number>;
  consumed_at: NullableTimestamp;
  used: Generated<boolean>;
}

export interface ResetGrantsTable {
  token_hash: string;
  email: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface RateLimitsTable {
  key: string;
  window_start: Timestamp;
  count: number;
}

export interface LoginThrottleTable {
  email: string;
  failures: number;
  last_failure_at: Timestamp;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
}

export interface DevOutboxTable {
  id: Generated<number>;
  recipient: string;
  subject: string;
  body: string;
  sent_at: CreatedAt;
}

export interface ClientsTable {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  pin_hash: string | null;
  created_by: string | null;
  previous_created_by: string | null;
  created_at: CreatedAt;
  submitted_at: NullableTimestamp;
  submitted_by: string | null;
  /** When the retention rule's notice went to the client's volunteer (docs/behaviour.md#retention). */
  retention_notice_at: NullableTimestamp;
  /** When that notice said the documents go (the end of the named day, with a margin for US time zones). */
  retention_due_at: NullableTimestamp;
  /** When the retention rule deleted the client's documents. */
  documents_deleted_at: NullableTimestamp;
}

export interface ClientDocTypesTable {
  client_id: string;
  name: string;
  position: Generated<number>;
  created_at: CreatedAt;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: CreatedAt;
  actor: string | null;
  action: string;
  client_id: string | null;
  keys: ColumnType<string[], string, string>;
  ip: string | null;
  detail: string | null;
}

type BigIntColumn = ColumnType<string, number, number>;
type NullableBigInt = ColumnType<string | null, number | null | undefined, number | null>;

export interface DocumentsTable {
  key: string;
  client_id: string;
  doc_type: string;
  /** The key's numeric prefix: files of a category are ordered by it. */
  ord: BigIntColumn;
  filename: string;
  /** `claimed`: a key held by a rename while it writes or removes its bytes (documents/rename.ts). */
  state: 'pending' | 'stored' | 'claimed';
  /** Declared at presign while pending; the type the magic bytes showed once stored. */
  content_type: string;
  max_bytes: BigIntColumn;
  declared_size: NullableBigInt;
  declared_sha256: string | null;
  size: NullableBigInt;
  sha256: string | null;
  crc32: NullableBigInt;
  uploaded_by: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  stored_at: NullableTimestamp;
  /** The store's version of the verified bytes (an S3 ETag); null on the local store, which never overwrites. */
  version: string | null;
}

/** An upload refused after its bytes arrived, kept so a later `complete` answers with the reason. */
export interface RefusedUploadsTable {
  key: string;
  client_id: string;
  uploaded_by: string | null;
  /** A refusing StorageErrorKind: `bad_digest`, `too_large`, `unsupported_type`. */
  kind: string;
  message: string;
  refused_at: CreatedAt;
}

export interface RecurringRunsTable {
  name: string;
  ran_at: Date;
}

export interface ServerJobsTable {
  name: string;
  done_at: CreatedAt;
}

/** A season close: started, then finished (a start without a finish is resumed at the next start). */
export interface SeasonCloseTable {
  year: number;
  started_at: CreatedAt;
  started_by: string | null;
  finished_at: NullableTimestamp;
  users: number | null;
  clients: number | null;
  documents: number | null;
}

/** The retention rule (one row once an admin set it). */
export interface RetentionTable {
  id: Generated<boolean>;
  days: number | null;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  updated_by: string | null;
}

export interface StorageKeyTable {
  /** Always true: the table holds one row. */
  id: Generated<boolean>;
  fingerprint: string;
  created_at: CreatedAt;
}

/** A person's journal key (auth/journal-keys.ts): only its wrapped form. */
export interface JournalKeysTable {
  id: string;
  user_email: string;
  /** The wrap's nonce, the key encrypted under the wrapping key, and its tag. */
  wrapped: Buffer;
  created_at: CreatedAt;
}

/** A person's passkey (auth/passkeys.ts): the public key and what the authenticator reported. */
export interface PasskeysTable {
  /** The credential id, base64url. */
  id: string;
  user_email: string;
  public_key: Buffer;
  counter: ColumnType<string, number, number>;
  transports: ColumnType<string[], string, string>;
  device_type: string;
  backed_up: boolean;
  name: string;
  created_at: CreatedAt;
  last_used_at: NullableTimestamp;
}

export interface PasskeyChallengesTable {
  /** Hash of the pre-session (browser) the ceremony was started in. */
  requester: string;
  purpose: 'register' | 'login';
  challenge: string;
  /** Registration only: whose session asked. */
  user_email: string | null;
  expires_at: Timestamp;
}

/** A mailed code that lets a held-back session enrol its first passkey (auth/passkey-confirmations.ts). */
export interface PasskeyConfirmationsTable {
  id: Generated<string>;
  user_email: string;
  /** SHA-256 of the session token that asked: only that session may use it. */
  session_hash: string;
  code_hash: string;
  attempts: Generated<number>;
  confirmed_at: NullableTimestamp;
  used_at: NullableTimestamp;
  expires_at: Timestamp;
  created_at: CreatedAt;
}

export interface PasskeyPolicyTable {
  id: Generated<boolean>;
  require_for_staff: boolean;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  updated_by: string | null;
}

/** The admin's consent statement per language, with its version (client-links/consent.ts). */
export interface ConsentTextTable {
  id: Generated<boolean>;
  text_en: string;
  text_es: string;
  version: number;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  updated_by: string | null;
}

/** The programme's name, one row (client-links/programme.ts). */
export interface ProgrammeSettingsTable {
  id: Generated<boolean>;
  name: string;
  /** Whether documents are read on the device anywhere in the programme (apps/server/src/reading.ts). */
  read_documents: Generated<boolean>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  updated_by: string | null;
}

/** A request that a client hand in documents through a link (client-links/links.ts). */
export interface ClientLinksTable {
  id: string;
  token_hash: string;
  client_id: string;
  created_by: string | null;
  categories: ColumnType<string[], string, string>;
  message: string | null;
  language: 'en' | 'es';
  created_at: CreatedAt;
  expires_at: Timestamp;
  closed_at: NullableTimestamp;
  closed_reason: 'done' | 'revoked' | 'replaced' | 'season' | 'expired' | 'locked' | null;
  opened_at: NullableTimestamp;
  verified_at: NullableTimestamp;
  consent_version: string | null;
  code_hash: string | null;
  code_expires_at: NullableTimestamp;
  failures: Generated<number>;
  wrong_total: Generated<number>;
  locked_until: NullableTimestamp;
  reminders_sent: Generated<number>;
  seen_at: NullableTimestamp;
}

export interface ClientLinkSessionsTable {
  id_hash: string;
  link_id: string;
  last_seen_at: ColumnType<Date, Date | undefined, Date>;
}

export interface ClientLinkAnswersTable {
  link_id: string;
  doc_type: string;
  note: string | null;
  at: ColumnType<Date, Date | undefined, Date>;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  ended_sessions: EndedSessionsTable;
  codes: CodesTable;
  reset_grants: ResetGrantsTable;
  rate_limits: RateLimitsTable;
  login_throttle: LoginThrottleTable;
  server_secrets: ServerSecretsTable;
  dev_outbox: DevOutboxTable;
  clients: ClientsTable;
  client_doc_types: ClientDocTypesTable;
  audit_log: AuditLogTable;
  documents: DocumentsTable;
  refused_uploads: RefusedUploadsTable;
  server_jobs: ServerJobsTable;
  recurring_runs: RecurringRunsTable;
  storage_key: StorageKeyTable;
  retention: RetentionTable;
  season_close: SeasonCloseTable;
  journal_keys: JournalKeysTable;
  passkeys: PasskeysTable;
  passkey_challenges: PasskeyChallengesTable;
  passkey_policy: PasskeyPolicyTable;
  passkey_confirmations: PasskeyConfirmationsTable;
  client_links: ClientLinksTable;
  client_link_sessions: ClientLinkSessionsTable;
  client_link_answers: ClientLinkAnswersTable;
  consent_text: ConsentTextTable;
  programme_settings: ProgrammeSettingsTable;
}
