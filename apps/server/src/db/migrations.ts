import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

/** Runs each statement on its own (the extended query protocol takes one statement per query). */
function statements(...list: string[]): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const statement of list) await sql.raw(statement).execute(db);
    },
  };
}

/**
 * One ordered set of migrations for every database. Append new entries; never edit an
 * applied one.
 */
const migrations: Record<string, Migration> = {
  '0001_accounts': statements(
    `CREATE TABLE users (
       email text PRIMARY KEY,
       first_name text NOT NULL,
       last_name text NOT NULL,
       pin_hash text NOT NULL,
       role text NOT NULL DEFAULT 'volunteer' CHECK (role IN ('volunteer', 'officer')),
       is_admin boolean NOT NULL DEFAULT false,
       approved boolean NOT NULL DEFAULT false,
       created_at timestamptz NOT NULL DEFAULT now(),
       approved_at timestamptz,
       approved_by text
     )`,
    `CREATE TABLE sessions (
       id_hash text PRIMARY KEY,
       user_email text NOT NULL REFERENCES users(email) ON DELETE CASCADE ON UPDATE CASCADE,
       created_at timestamptz NOT NULL DEFAULT now(),
       last_seen_at timestamptz NOT NULL DEFAULT now(),
       ip text,
       user_agent text
     )`,
    `CREATE INDEX sessions_user_email ON sessions (user_email)`,
    `CREATE TABLE codes (
       id serial PRIMARY KEY,
       email text NOT NULL,
       purpose text NOT NULL CHECK (purpose IN ('login', 'reset')),
       kind text NOT NULL CHECK (kind IN ('initial', 'resend')),
       code_hash text NOT NULL,
       requester text,
       created_at timestamptz NOT NULL DEFAULT now(),
       expires_at timestamptz NOT NULL,
       attempts integer NOT NULL DEFAULT 0,
       consumed_at timestamptz
     )`,
    `CREATE INDEX codes_email_purpose ON codes (email, purpose, created_at DESC)`,
    `CREATE INDEX codes_requester ON codes (requester, purpose, created_at DESC)`,
    `CREATE TABLE reset_grants (
       token_hash text PRIMARY KEY,
       email text NOT NULL REFERENCES users(email) ON DELETE CASCADE ON UPDATE CASCADE,
       expires_at timestamptz NOT NULL,
       used_at timestamptz
     )`,
    `CREATE TABLE rate_limits (
       key text PRIMARY KEY,
       window_start timestamptz NOT NULL,
       count integer NOT NULL
     )`,
    `CREATE TABLE server_secrets (name text PRIMARY KEY, value text NOT NULL)`,
    `CREATE TABLE dev_outbox (
       id serial PRIMARY KEY,
       recipient text NOT NULL,
       subject text NOT NULL,
       body text NOT NULL,
       sent_at timestamptz NOT NULL DEFAULT now()
     )`,
  ),
  '0002_clients': statements(
    `CREATE TABLE clients (
       id text PRIMARY KEY,
       first_name text NOT NULL,
       last_name text NOT NULL,
       email text NOT NULL,
       phone text NOT NULL,
       pin_hash text,
       created_by text REFERENCES users(email) ON DELETE SET NULL ON UPDATE CASCADE,
       previous_created_by text,
       created_at timestamptz NOT NULL DEFAULT now(),
       submitted_at timestamptz,
       submitted_by text
     )`,
    `CREATE UNIQUE INDEX clients_owner_email ON clients (created_by, email) WHERE created_by IS NOT NULL`,
    `CREATE INDEX clients_orphans ON clients (created_at) WHERE created_by IS NULL`,
    `CREATE TABLE client_doc_types (
       client_id text NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
       name text NOT NULL,
       position serial,
       created_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (client_id, name)
     )`,
    `CREATE TABLE audit_log (
       id serial PRIMARY KEY,
       at timestamptz NOT NULL DEFAULT now(),
       actor text,
       action text NOT NULL,
       client_id text,
       keys jsonb NOT NULL DEFAULT '[]'::jsonb,
       ip text,
       detail text
     )`,
    `CREATE INDEX audit_log_client ON audit_log (client_id, id DESC)`,
  ),
  '0003_code_use': statements(
    // consumed_at also marks codes superseded by a newer one; `used` says the code actually signed someone in.
    `ALTER TABLE codes ADD COLUMN used boolean NOT NULL DEFAULT false`,
    `CREATE INDEX codes_created_at ON codes (created_at)`,
  ),
  '0004_documents': statements(
    // The index of stored documents: the object store holds bytes, this table says what they are.
    `CREATE TABLE documents (
       key text PRIMARY KEY,
       client_id text NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
       doc_type text NOT NULL,
       ord bigint NOT NULL,
       filename text NOT NULL,
       state text NOT NULL CHECK (state IN ('pending', 'stored')),
       content_type text NOT NULL,
       max_bytes bigint NOT NULL,
       declared_size bigint,
       declared_sha256 text,
       size bigint,
       sha256 text,
       crc32 bigint,
       uploaded_by text,
       created_at timestamptz NOT NULL DEFAULT now(),
       expires_at timestamptz NOT NULL,
       stored_at timestamptz,
       CHECK (state = 'pending' OR (size IS NOT NULL AND sha256 IS NOT NULL AND crc32 IS NOT NULL AND stored_at IS NOT NULL))
     )`,
    `CREATE INDEX documents_listing ON documents (client_id, doc_type, ord) WHERE state = 'stored'`,
    `CREATE INDEX documents_pending ON documents (client_id, expires_at) WHERE state = 'pending'`,
    `CREATE INDEX documents_sha256 ON documents (client_id, sha256) WHERE state = 'stored'`,
    // One-time jobs already done (indexing files stored before this table existed).
    `CREATE TABLE server_jobs (name text PRIMARY KEY, done_at timestamptz NOT NULL DEFAULT now())`,
  ),
  '0005_document_version': statements(
    // The store's version of the verified bytes (an S3 ETag): a later overwrite is detected on read.
    `ALTER TABLE documents ADD COLUMN version text`,
  ),
  '0006_login_throttle': statements(
    // Consecutive wrong PINs per email (known or not) since the last sign-in: the delay before the next try.
    `CREATE TABLE login_throttle (
       email text PRIMARY KEY,
       failures integer NOT NULL,
       last_failure_at timestamptz NOT NULL
     )`,
  ),
  '0007_storage_key': statements(
    // The fingerprint (an HMAC under the key, never the key) of the master key the local store's
    // files are encrypted with: a start with another key, or none, stops instead of serving garbage.
    `CREATE TABLE storage_key (
       id boolean PRIMARY KEY DEFAULT true CHECK (id),
       fingerprint text NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now()
     )`,
  ),
  '0008_audit_filters': statements(
    // The audit screen filters by who and by what, newest first.
    `CREATE INDEX audit_log_actor ON audit_log (actor, id DESC)`,
    `CREATE INDEX audit_log_action ON audit_log (action, id DESC)`,
    `CREATE INDEX audit_log_at ON audit_log (at)`,
  ),
  '0009_retention': statements(
    // The admin's retention rule: documents deleted this many days after a client was submitted.
    `CREATE TABLE retention (
       id boolean PRIMARY KEY DEFAULT true CHECK (id),
       days integer CHECK (days BETWEEN 7 AND 365),
       updated_at timestamptz NOT NULL DEFAULT now(),
       updated_by text
     )`,
    `ALTER TABLE clients ADD COLUMN retention_notice_at timestamptz`,
    // The moment the notice promised: nothing is deleted before it, whatever the rule says later.
    `ALTER TABLE clients ADD COLUMN retention_due_at timestamptz`,
    `ALTER TABLE clients ADD COLUMN documents_deleted_at timestamptz`,
  ),
  '0010_season_close': statements(
    // Non-admin accounts suspended by a season close stay so until approved again.
    `ALTER TABLE users ADD COLUMN suspended boolean NOT NULL DEFAULT false`,
    `CREATE TABLE season_close (
       year integer PRIMARY KEY,
       started_at timestamptz NOT NULL DEFAULT now(),
       started_by text,
       finished_at timestamptz,
       users integer,
       clients integer,
       documents integer
     )`,
  ),
  '0011_overview': statements(
    // The admin's overview counts documents stored per day over the last weeks.
    `CREATE INDEX documents_stored_at ON documents (stored_at) WHERE state = 'stored'`,
  ),
  '0012_session_cache': statements(
    // Every server process keeps session lookups in memory and forgets them when told: any change
    // to a user (role, approval, suspension, PIN, deletion) names the user, a session's end names it.
    // A notification is sent at commit, and only once per transaction for the same payload.
    `CREATE FUNCTION vita_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF TG_OP = 'TRUNCATE' THEN
         PERFORM pg_notify('vita_auth', '');
       ELSIF TG_TABLE_NAME = 'users' THEN
         PERFORM pg_notify('vita_auth', 'u:' || OLD.email);
       ELSE
         PERFORM pg_notify('vita_auth', 's:' || OLD.id_hash);
       END IF;
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER users_auth_changed AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION vita_auth_changed()`,
    `CREATE TRIGGER sessions_auth_changed AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION vita_auth_changed()`,
    `CREATE TRIGGER users_auth_truncated AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION vita_auth_changed()`,
    `CREATE TRIGGER sessions_auth_truncated AFTER TRUNCATE ON sessions FOR EACH STATEMENT EXECUTE FUNCTION vita_auth_changed()`,
  ),
  '0013_code_networks': statements(
    // The network a code was asked from: code requests and wrong codes are counted per browser and
    // per network, so nobody elsewhere can use up the share of an account's owner.
    `ALTER TABLE codes ADD COLUMN network text`,
  ),
  '0014_journal_keys': statements(
    // The key that seals a person's kept uploads on their devices (auth/journal-keys.ts), stored only
    // wrapped. One per person; deleted with the account.
    `CREATE TABLE journal_keys (
       id text PRIMARY KEY,
       user_email text NOT NULL UNIQUE REFERENCES users(email) ON DELETE CASCADE ON UPDATE CASCADE,
       wrapped bytea NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now()
     )`,
    // Whatever changes an account so that it may no longer hold the key (approval withdrawn, suspended
    // by a season close, a new PIN), through any code path, destroys it in the same transaction.
    `CREATE FUNCTION vita_journal_key_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       DELETE FROM journal_keys WHERE user_email = NEW.email;
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER users_journal_key_revoked AFTER UPDATE OF approved, suspended, pin_hash ON users FOR EACH ROW
       WHEN (NOT NEW.approved OR NEW.suspended OR NEW.pin_hash IS DISTINCT FROM OLD.pin_hash)
       EXECUTE FUNCTION vita_journal_key_revoked()`,
  ),
  '0015_ended_sessions': statements(
    // Why a session was ended by someone else (a role change): the person's next request is told
    // that reason instead of a bare "Please sign in.". Kept no longer than a session could live.
    `CREATE TABLE ended_sessions (
       id_hash text PRIMARY KEY,
       reason text NOT NULL,
       ended_at timestamptz NOT NULL DEFAULT now()
     )`,
  ),
  '0018_document_claims': statements(
    // A `claimed` row holds a key whose bytes are being written or removed by a rename
    // (documents/rename.ts): only its holder touches those bytes, so two renames cannot undo each other.
    `ALTER TABLE documents DROP CONSTRAINT documents_state_check`,
    `ALTER TABLE documents ADD CONSTRAINT documents_state_check CHECK (state IN ('pending', 'stored', 'claimed'))`,
    `ALTER TABLE documents DROP CONSTRAINT documents_check`,
    `ALTER TABLE documents ADD CONSTRAINT documents_check
       CHECK (state <> 'stored' OR (size IS NOT NULL AND sha256 IS NOT NULL AND crc32 IS NOT NULL AND stored_at IS NOT NULL))`,
    `CREATE INDEX documents_claimed ON documents (expires_at) WHERE state = 'claimed'`,
  ),
  '0019_recurring_runs': statements(
    // When each recurring job (the sweep, the retention rule) last ran on this database, whichever
    // process ran it (recurring.ts).
    `CREATE TABLE recurring_runs (name text PRIMARY KEY, ran_at timestamptz NOT NULL)`,
  ),
  '0020_passkeys': statements(
    // Passkeys (auth/passkeys.ts). The user handle is random, never the email: authenticators keep it
    // and may show or sync it, and it must not change when the email does.
    `ALTER TABLE users ADD COLUMN webauthn_user_id text UNIQUE`,
    // When the dashboard's passkey offer was last answered `Not now` (asked again after 30 days).
    `ALTER TABLE users ADD COLUMN passkey_offer_declined_at timestamptz`,
    `CREATE TABLE passkeys (
       id text PRIMARY KEY,
       user_email text NOT NULL REFERENCES users(email) ON DELETE CASCADE ON UPDATE CASCADE,
       public_key bytea NOT NULL,
       counter bigint NOT NULL DEFAULT 0,
       transports jsonb NOT NULL DEFAULT '[]',
       device_type text NOT NULL,
       backed_up boolean NOT NULL,
       name text NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now(),
       last_used_at timestamptz
     )`,
    `CREATE INDEX passkeys_user ON passkeys (user_email)`,
    // One open challenge per browser (pre-session) and ceremony: asking again replaces it, using it
    // deletes it, and it is worth nothing after expires_at.
    `CREATE TABLE passkey_challenges (
       requester text NOT NULL,
       purpose text NOT NULL CHECK (purpose IN ('register', 'login')),
       challenge text NOT NULL,
       user_email text REFERENCES users(email) ON DELETE CASCADE ON UPDATE CASCADE,
       expires_at timestamptz NOT NULL,
       PRIMARY KEY (requester, purpose)
     )`,
  ),
  '0021_passkey_policy': statements(
    // The admin's "require passkeys for admins and officers"; no row: the PASSKEYS_REQUIRED default.
    `CREATE TABLE passkey_policy (
       id boolean PRIMARY KEY DEFAULT true CHECK (id),
       require_for_staff boolean NOT NULL,
       updated_at timestamptz NOT NULL DEFAULT now(),
       updated_by text
     )`,
    // A session signed in with PIN + code while the rule applied: it reaches only the passkey
    // screens until it creates one.
    `ALTER TABLE sessions ADD COLUMN passkey_due boolean NOT NULL DEFAULT false`,
  ),
  '0022_client_links': statements(
    // A request that a client hand in documents through a link (client-links/links.ts). Only the
    // token's hash is kept: the table leaked gives no working link. One open request per client.
    `CREATE TABLE client_links (
       id text PRIMARY KEY,
       token_hash text NOT NULL UNIQUE,
       client_id text NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
       created_by text,
       categories jsonb NOT NULL,
       message text,
       language text NOT NULL CHECK (language IN ('en', 'es')),
       created_at timestamptz NOT NULL DEFAULT now(),
       expires_at timestamptz NOT NULL,
       closed_at timestamptz,
       closed_reason text CHECK (closed_reason IN ('done', 'revoked', 'replaced', 'season', 'expired')),
       opened_at timestamptz,
       verified_at timestamptz,
       consent_version text,
       code_hash text,
       code_expires_at timestamptz,
       failures integer NOT NULL DEFAULT 0,
       locked_until timestamptz,
       reminders_sent integer NOT NULL DEFAULT 0,
       seen_at timestamptz
     )`,
    `CREATE UNIQUE INDEX client_links_open ON client_links (client_id) WHERE closed_at IS NULL`,
    `CREATE INDEX client_links_reminders ON client_links (created_at) WHERE closed_at IS NULL`,
    // A link session (the client's browser after the code): its cookie's hash, 60 minutes idle.
    `CREATE TABLE client_link_sessions (
       id_hash text PRIMARY KEY,
       link_id text NOT NULL REFERENCES client_links(id) ON DELETE CASCADE,
       last_seen_at timestamptz NOT NULL DEFAULT now()
     )`,
    // The client's "I don't have this" per requested category, with the optional note.
    `CREATE TABLE client_link_answers (
       link_id text NOT NULL REFERENCES client_links(id) ON DELETE CASCADE,
       doc_type text NOT NULL,
       note text,
       at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (link_id, doc_type)
     )`,
  ),
  '0023_client_link_wrong_total': statements(
    // Wrong answers over a link's whole life (`failures` starts again after each 30-minute lock):
    // a 4-digit client PIN alone would otherwise fall to five guesses every half hour for 14 days.
    `ALTER TABLE client_links ADD COLUMN wrong_total integer NOT NULL DEFAULT 0`,
    `ALTER TABLE client_links DROP CONSTRAINT client_links_closed_reason_check`,
    `ALTER TABLE client_links ADD CONSTRAINT client_links_closed_reason_check
       CHECK (closed_reason IN ('done', 'revoked', 'replaced', 'season', 'expired', 'locked'))`,
  ),
  '0024_consent_text': statements(
    // The consent statement a client ticks before the first upload, as the admin wrote it per language
    // ('' = the default text in core). The version counts changes: a ticked consent is audited with it.
    `CREATE TABLE consent_text (
       id boolean PRIMARY KEY DEFAULT true CHECK (id),
       text_en text NOT NULL DEFAULT '',
       text_es text NOT NULL DEFAULT '',
       version integer NOT NULL DEFAULT 1,
       updated_at timestamptz NOT NULL DEFAULT now(),
       updated_by text
     )`,
    `INSERT INTO consent_text (id) VALUES (true)`,
  ),
  '0025_passkey_confirmations': statements(
    // Under the passkey rule, a held-back session enrols its first passkey only after a code mailed to
    // the account: one live code per session, 15 minutes, five tries, confirmed once and used once.
    `CREATE TABLE passkey_confirmations (
       id bigserial PRIMARY KEY,
       user_email text NOT NULL REFERENCES users(email) ON DELETE CASCADE ON UPDATE CASCADE,
       session_hash text NOT NULL,
       code_hash text NOT NULL,
       attempts integer NOT NULL DEFAULT 0,
       confirmed_at timestamptz,
       used_at timestamptz,
       expires_at timestamptz NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE INDEX passkey_confirmations_session ON passkey_confirmations (session_hash)`,
    // Expired challenges are pruned on every new one: the index keeps that a short look.
    `CREATE INDEX passkey_challenges_expiry ON passkey_challenges (expires_at)`,
  ),
  '0026_link_limits': statements(
    // Why an upload was refused after its bytes arrived (documents/lifecycle.ts): the pending row goes
    // with the bytes, and a `complete` that comes after (a list settled it first) still answers with the
    // reason instead of "not started". Kept a day; the sweeper prunes older ones.
    `CREATE TABLE refused_uploads (
       key text PRIMARY KEY,
       client_id text NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
       uploaded_by text,
       kind text NOT NULL,
       message text NOT NULL,
       refused_at timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE INDEX refused_uploads_at ON refused_uploads (refused_at)`,
  ),
  '0027_client_consent_records': statements(
    // The programme's name (Settings): the client's request page and every link mail name it, so a
    // client knows who is asking; a signed consent record (a PDF among the client's documents) names it too.
    `CREATE TABLE programme_settings (
       id boolean PRIMARY KEY DEFAULT true CHECK (id),
       name text NOT NULL DEFAULT 'VITA Documents',
       updated_at timestamptz NOT NULL DEFAULT now(),
       updated_by text
     )`,
    `INSERT INTO programme_settings (id) VALUES (true)`,
  ),
  '0028_reading_switches': statements(
    // Reading documents on the device (docs/behaviour.md#reading-documents) is on unless the person
    // turned it off in Account (kept with the account, so it follows them to another device) or an
    // admin turned it off for the programme in Settings.
    `ALTER TABLE users ADD COLUMN read_documents boolean NOT NULL DEFAULT true`,
    `ALTER TABLE programme_settings ADD COLUMN read_documents boolean NOT NULL DEFAULT true`,
  ),
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
