/**
 * zod schemas for every payload crossing the IPC boundary. The main process parses each renderer
 * payload with these before acting on it: the renderer shows server content and is not trusted.
 * Loaded by main only; the preload and renderer import types from `bridge.ts`.
 */
import { z } from 'zod';

/** What happens to a scan file after a confirmed upload. */
const AfterUploadSchema = z.enum(['move', 'delete']);

/** How the scanner folder is followed: `auto` polls a network share and watches a local folder. */
export const FolderModeSchema = z.enum(['auto', 'watch', 'poll']);

/** Damaged scans and duplicates of uploaded ones: listed on the desk, or moved into sub-folders. */
const ProblemScansSchema = z.enum(['list', 'move']);

/** The two settings older settings files do not have, with their defaults. */
const inboxSettings = {
  folderMode: FolderModeSchema.default('auto'),
  problemScans: ProblemScansSchema.default('list'),
};

const SERVER_URL_MESSAGE = 'Enter the server address, starting with https://';

/**
 * Plain http to this machine itself: `localhost`, `127.0.0.1` or `[::1]`, any port, then the end or
 * a path. Matched on the text, so nothing that a URL parser could read as another host (a user name
 * `localhost@…`, a host `127.0.0.1.example.org`, a backslash) gets through.
 */
const LOOPBACK_HTTP = /^http:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d*)?(?:[/?#]|$)/i;

/**
 * True for an address the desk may send PINs, codes and scans to: https, or plain http to this
 * machine itself (a developer's server: that traffic never leaves the computer). Plain http to any
 * other machine would show every volunteer's PIN and code to anyone on the way.
 */
function isAllowedServerUrl(value: string): boolean {
  return /^https:/i.test(value) || LOOPBACK_HTTP.test(value);
}

/** The server's address: https, or http to this machine (see {@link isAllowedServerUrl}). */
export const ServerUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .pipe(z.url({ protocol: /^https?$/, error: SERVER_URL_MESSAGE }))
  .refine(isAllowedServerUrl, { error: SERVER_URL_MESSAGE });

/** A folder path as the operating system spells it; checked for existence by main. */
const folderPath = z.string().trim().min(1, 'Choose the scanner folder.').max(4096);

/** The desk's settings as stored in the user-data folder. Null while not chosen yet (first run). */
export const DesktopSettingsSchema = z.object({
  /** The server's address; the API lives under `<serverUrl>/api`. */
  serverUrl: ServerUrlSchema.nullable(),
  watchedFolder: folderPath.nullable(),
  afterUpload: AfterUploadSchema,
  ...inboxSettings,
});

/**
 * The managed settings file an administrator of the computer deploys (see `settings.ts`): the
 * shape of settings.json, with the server and folder required (a desk nobody may set up from the
 * screen needs both) and `afterUpload` optional. Unknown keys are refused, so a misspelt one is
 * reported instead of silently ignored.
 */
export const ManagedSettingsSchema = z.strictObject({
  serverUrl: ServerUrlSchema,
  watchedFolder: folderPath,
  afterUpload: AfterUploadSchema.default('move'),
  ...inboxSettings,
});

/** What the settings screen saves: both required. */
export const SettingsInputSchema = z.object({
  serverUrl: ServerUrlSchema,
  watchedFolder: folderPath,
  afterUpload: AfterUploadSchema,
  ...inboxSettings,
});

/** Methods that take nothing: a payload is a confused or hostile caller. */
export const NoPayloadSchema = z.undefined({ error: 'This call takes no arguments.' });

/** Inbox scan ids are UUIDs minted by main. */
export const ScanIdSchema = z.uuid();

export const MarkUploadingSchema = z.object({ id: ScanIdSchema, target: z.string().min(1).max(1000) });
export const MarkFailedSchema = z.object({ id: ScanIdSchema, error: z.string().max(2000) });

/** Tokens main hands out for dropped files; the renderer never names a path itself. */
export const DropTokenSchema = z.string().regex(/^drop-[0-9a-f]{32}$/);

/** Paths of dropped files and folders, as the preload read them from the drop. */
export const DropPathsSchema = z.array(z.string().min(1).max(4096)).min(1).max(200);

/** A queued file's id, as the upload queues make them. */
export const KeptIdSchema = z.string().min(1).max(200);

/** Most bytes one kept file may have (far above any server's upload limit). */
const MAX_KEPT_BYTES = 512 * 1024 * 1024;

/** A corner of a page, as shares of the photo's sides. */
const ShareSchema = z.number().min(0).max(1);
const CornerSchema = z.object({ x: ShareSchema, y: ShareSchema });

/**
 * How a kept photo is made into its PDF after a reload (core's `KeptChoice`): its turn and the page
 * chosen with `Adjust corners`. Without it in the schema the choice would be dropped and the photo
 * sent as it is.
 */
export const KeptChoiceSchema = z.object({
  rotate: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]),
  crop: z
    .discriminatedUnion('mode', [
      z.object({ mode: z.literal('find') }),
      z.object({ mode: z.literal('whole') }),
      z.object({
        mode: z.literal('corners'),
        corners: z.tuple([CornerSchema, CornerSchema, CornerSchema, CornerSchema]).readonly(),
      }),
    ])
    .optional(),
});

/** What the upload queue keeps of a file besides its bytes (core's `JournalEntry`). */
export const JournalEntrySchema = z.object({
  id: KeptIdSchema,
  target: z.object({ clientId: z.string().min(1).max(200), docType: z.string().min(1).max(200) }),
  clientName: z.string().max(300).optional(),
  name: z.string().min(1).max(500),
  type: z.string().max(200),
  size: z.number().int().nonnegative().max(MAX_KEPT_BYTES),
  convert: KeptChoiceSchema.optional(),
  /** A photo's unanswered quality warnings (core's `QualityWarning`): without them it would go unasked. */
  warnings: z
    .array(z.enum(['tooDark', 'washedOut', 'blurry', 'blank', 'tooSmall', 'glare', 'edgesNotFound']))
    .max(7)
    .readonly()
    .optional(),
  /** The photo was kept before its quality check answered: it is checked again after a reload. */
  checkPending: z.literal(true).optional(),
});

/** A file to keep on the desk until it is uploaded. */
export const KeepUploadSchema = z
  .object({ entry: JournalEntrySchema, bytes: z.instanceof(Uint8Array) })
  .refine(({ entry, bytes }) => bytes.length === entry.size, {
    error: 'The file is not the size its entry says.',
  });

/** The signed-in person whose kept files the renderer asks for (main checks it with the server). */
export const KeptOwnerSchema = z.string().min(3).max(320);

/** The season whose archive is saved (it names the file). */
export const SeasonYearSchema = z.number().int().min(2000).max(2999);

const HeaderListSchema = z.array(z.tuple([z.string().max(200), z.string().max(8192)])).max(100);

/** A request the renderer's API client makes through main (main adds cookies, never the renderer). */
export const ApiRequestSchema = z.object({
  url: z.string().max(8192),
  method: z.enum(['GET', 'POST', 'PUT', 'DELETE']),
  headers: HeaderListSchema,
  /** Text (JSON) or bytes (a direct upload). */
  body: z.union([z.string(), z.instanceof(Uint8Array)]).optional(),
  credentials: z.enum(['include', 'omit']),
});

/** The answer main relays, plus the CSRF token the client must echo (it cannot read main's cookies). */
export const ApiResponseSchema = z.object({
  status: z.number().int(),
  statusText: z.string(),
  headers: HeaderListSchema,
  body: z.instanceof(Uint8Array),
  csrfToken: z.string().optional(),
});
