/**
 * The client-link part of the wire contract (docs/behaviour.md#requesting-documents-from-a-client): a
 * volunteer asks a client for documents, the client hands them in through a link.
 */
import { z } from 'zod/mini';
import { CLIENT_LINK_LANGUAGES } from '../client-link/languages.js';
import { Code, DocKey, DocTypeName, Timestamp, cleanString, hasNoBidiControls } from './fields.js';
import { LINK_DAYS_MAX } from '../client-link/limits.js';
import { Sha256Hex } from './schemas.js';

export const LINK_MESSAGE_MAX = 500;
export const LINK_DAYS_DEFAULT = 7;
export { LINK_DAYS_MAX };
/** At most this many files come in through one link. */
export const LINK_MAX_FILES = 100;

const Note = (label: string, max: number) =>
  cleanString(label, max).check(
    z.refine(hasNoBidiControls, { error: `${label} contains characters that are not allowed.` }),
  );

export const LinkLanguage = z.enum(CLIENT_LINK_LANGUAGES);

export const CreateLinkRequest = z.object({
  categories: z
    .array(DocTypeName)
    .check(z.minLength(1, { error: 'Choose at least one document type.' }), z.maxLength(50)),
  message: z.optional(Note('The message', LINK_MESSAGE_MAX)),
  days: z._default(z.number().check(z.int(), z.minimum(1), z.maximum(LINK_DAYS_MAX)), LINK_DAYS_DEFAULT),
  language: z._default(LinkLanguage, 'en'),
});
export type CreateLinkRequest = z.input<typeof CreateLinkRequest>;

export const CreateLinkResponse = z.object({
  ok: z.literal(true),
  /** The link with its token: shown once (QR code, Copy), never stored. */
  url: z.string(),
  expiresAt: Timestamp,
  days: z.number().check(z.int()),
  /** Null when the client has no email (the QR code and link only). */
  emailedTo: z.nullable(z.string()),
  emailSent: z.boolean(),
});
export type CreateLinkResponse = z.infer<typeof CreateLinkResponse>;

export const LinkAnswer = z.object({ docType: z.string(), note: z.nullable(z.string()), at: Timestamp });
export type LinkAnswer = z.infer<typeof LinkAnswer>;

export const LINK_STATES = ['open', 'done', 'revoked', 'replaced', 'expired', 'season', 'locked'] as const;

/** What the client's documents page shows about the newest request. */
export const LinkStatusResponse = z.object({
  request: z.nullable(
    z.object({
      state: z.enum(LINK_STATES),
      categories: z.array(z.string()),
      sentAt: Timestamp,
      expiresAt: Timestamp,
      openedAt: z.nullable(Timestamp),
      doneAt: z.nullable(Timestamp),
      /** Set while five wrong answers in a row keep the client out (the link stays open). */
      lockedUntil: z.nullable(Timestamp),
      filesIn: z.number().check(z.int()),
    }),
  ),
  /** Files that came in through any link (the `From client` mark). */
  fromClient: z.array(z.string()),
  /** Categories the client answered `I don't have this`, newest request first. */
  answers: z.array(LinkAnswer),
});
export type LinkStatusResponse = z.infer<typeof LinkStatusResponse>;

export const NewFromClientsResponse = z.object({
  items: z.array(
    z.object({ clientId: z.string(), firstName: z.string(), lastName: z.string(), doneAt: Timestamp }),
  ),
});
export type NewFromClientsResponse = z.infer<typeof NewFromClientsResponse>;

// ── The client's side (link session) ─────────────────────────────────────────────────────────

/** The token from the link's fragment: 22+ base64url characters (≥ 128 bits). */
export const LinkToken = z
  .string()
  .check(z.regex(/^[A-Za-z0-9_-]{22,64}$/, { error: 'This link is not valid.' }));

export const LinkOpenRequest = z.object({ token: LinkToken, resend: z.optional(z.boolean()) });
export type LinkOpenRequest = z.input<typeof LinkOpenRequest>;
/** Who is asking: the programme (Settings) and the first name of the volunteer who sent the link. */
const WhoAsks = { programme: z.string(), volunteer: z.string() };

export const LinkOpenResponse = z.object({
  /**
   * `open`: prove who you are; `done`: the client already pressed `I'm done` (nothing more goes in);
   * `expired`: past its end, revoked, replaced or closed. An unknown token answers 410 instead.
   */
  state: z.enum(['open', 'done', 'expired']),
  language: LinkLanguage,
  ...WhoAsks,
  /** The masked address the code went to (`j•••@example.org`); null when the client proves it with the PIN alone. */
  codeSentTo: z.nullable(z.string()),
  needsPin: z.boolean(),
});
export type LinkOpenResponse = z.infer<typeof LinkOpenResponse>;

export const LinkVerifyRequest = z.object({
  token: LinkToken,
  code: z.optional(Code),
  pin: z.optional(z.string().check(z.maxLength(128))),
});
export type LinkVerifyRequest = z.input<typeof LinkVerifyRequest>;

export const LinkFile = z.object({
  key: z.string(),
  filename: z.string(),
  size: z.number().check(z.int()),
  contentType: z.string(),
});
export type LinkFile = z.infer<typeof LinkFile>;

export const LinkChecklist = z.object({
  firstName: z.string(),
  ...WhoAsks,
  message: z.nullable(z.string()),
  language: LinkLanguage,
  consented: z.boolean(),
  /** The consent statement as it reads now in each language, and its version (the admin's settings). */
  consent: z.object({ version: z.string(), en: z.string(), es: z.string() }),
  /**
   * Whether the page may read the client's documents on the device (the programme's switch in
   * Settings, docs/behaviour.md#reading-documents); false: nothing is read.
   */
  readDocuments: z.boolean(),
  expiresAt: Timestamp,
  rows: z.array(
    z.object({
      docType: z.string(),
      files: z.array(LinkFile),
      missing: z.nullable(z.object({ note: z.nullable(z.string()) })),
      /** The last row, `Something else`: not requested; what the client adds there goes to `Other`. */
      extra: z.optional(z.boolean()),
    }),
  ),
});
export type LinkChecklist = z.infer<typeof LinkChecklist>;

/** The statement's version the page showed, and in which language. */
export const LinkConsentRequest = z.object({
  version: z.string().check(z.minLength(1), z.maxLength(40)),
  language: z.optional(LinkLanguage),
  /** The full name the client typed to sign. */
  name: Note('Your name', 200).check(z.minLength(1, { error: 'Type your full name to sign.' })),
  /** The phone's time zone (IANA name), for the signed record's time; UTC without it. */
  timeZone: z.optional(z.string().check(z.maxLength(64))),
});
export type LinkConsentRequest = z.input<typeof LinkConsentRequest>;

export const LinkPresignRequest = z.object({
  docType: DocTypeName,
  filename: cleanString('File name', 1024).check(z.minLength(1, { error: 'File name is required.' })),
  contentType: z.string().check(z.minLength(1), z.maxLength(255)),
  // Required (unlike a volunteer's presign): the upload URL then binds the length and bytes, so a link
  // session cannot send more than it declared or overwrite what it stored.
  size: z.number().check(z.int(), z.nonnegative()),
  sha256: Sha256Hex,
});
export type LinkPresignRequest = z.input<typeof LinkPresignRequest>;

export const LinkKeyRequest = z.object({ key: DocKey });
export type LinkKeyRequest = z.input<typeof LinkKeyRequest>;
export const LinkCompleteResponse = z.object({ ok: z.literal(true), file: LinkFile });
export type LinkCompleteResponse = z.infer<typeof LinkCompleteResponse>;

export const LinkAnswerRequest = z.object({
  docType: DocTypeName,
  /** False takes the answer back. */
  missing: z.boolean(),
  note: z.optional(Note('The note', LINK_MESSAGE_MAX)),
});
export type LinkAnswerRequest = z.input<typeof LinkAnswerRequest>;

/** Longest consent statement an admin may write, per language. */
export const CONSENT_TEXT_MAX = 2000;

/** The admin's consent statement per language: empty means the default text (docs/behaviour.md). */
export const ConsentTextSettings = z.object({
  en: Note('The English statement', CONSENT_TEXT_MAX),
  es: Note('The Spanish statement', CONSENT_TEXT_MAX),
});
export type ConsentTextSettings = z.input<typeof ConsentTextSettings>;

/** As saved, with its version: one more on each change. */
export const ConsentTextStatus = z.object({
  en: z.string(),
  es: z.string(),
  version: z.number().check(z.int()),
});
export type ConsentTextStatus = z.infer<typeof ConsentTextStatus>;

/**
 * The link's journal key (docs/security.md): what the client's phone seals its queued files with, so they
 * survive a reload; handed only to a live link session, so nothing kept opens once the link has closed.
 */
export const LinkJournalKeyResponse = z.object({
  keyId: z.string(),
  /** AES-256, base64. */
  key: z.string(),
  /** Its sealing pair (as the person's journal key has one, schemas.ts): public point, private scalar. */
  sealKey: z.string().check(z.regex(/^[A-Za-z0-9+/]{87}=$/)),
  openKey: z.string().check(z.regex(/^[A-Za-z0-9+/]{43}=$/)),
  /** The link's end: nothing kept is worth more after it. */
  expiresAt: Timestamp,
});
export type LinkJournalKeyResponse = z.infer<typeof LinkJournalKeyResponse>;

/** Longest programme name an admin may set. */
export const PROGRAMME_NAME_MAX = 80;

/** The programme's name (Settings): what the client's page and every link mail are signed with. */
export const ProgrammeNameSettings = z.object({
  name: Note('The programme name', PROGRAMME_NAME_MAX).check(
    z.refine((name) => name.trim() !== '', { error: 'Enter the programme name.' }),
  ),
});
export type ProgrammeNameSettings = z.input<typeof ProgrammeNameSettings>;
