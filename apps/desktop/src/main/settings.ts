/**
 * The desk's settings: one JSON file in the user-data folder, which the settings screen writes, or
 * a managed file an administrator of the computer deployed, which nobody changes from the screen.
 * Plain Node so it is tested without Electron; main passes `app.getPath('userData')` and the
 * managed file's path (env.ts).
 */
import { constants } from 'node:fs';
import { access, mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import type { DesktopSettings } from '../shared/bridge.js';
import {
  DesktopSettingsSchema,
  ManagedSettingsSchema,
  ServerUrlSchema,
  SettingsInputSchema,
} from '../shared/schemas.js';
import { writeFileAtomic } from './fs-atomic.js';

/**
 * File name inside the user-data folder.
 * @internal Exported for its unit test.
 */
export const SETTINGS_FILE = 'settings.json';

/** Settings of a desk that has not been set up: the renderer shows the first-run screen. */
export const DEFAULT_SETTINGS: DesktopSettings = {
  serverUrl: null,
  watchedFolder: null,
  afterUpload: 'move',
  folderMode: 'auto',
  problemScans: 'list',
};

/**
 * settings.json as read back. A stored server address that breaks the https rule (written by an
 * older version, which took any http address, or by hand) is read as not set: the desk must not
 * send PINs and codes in clear text to another machine. It is not kept as a locked setting either,
 * because the admin sign-in that protects a change would have to be checked over that same plain
 * http, where anyone on the way can answer as an admin. So the desk is back at first run for the
 * server (the folder and the after-upload choice are kept), as on a new install: whoever sets it up
 * must be at the desk, and a kiosk that must not depend on that gets a managed file.
 */
const StoredSettingsSchema = DesktopSettingsSchema.extend({
  serverUrl: ServerUrlSchema.nullable().catch(null),
});

/** Reads settings.json; a missing or unreadable file gives the defaults (first run). */
export async function loadSettings(dir: string): Promise<DesktopSettings> {
  try {
    const parsed = StoredSettingsSchema.safeParse(
      JSON.parse(await readFile(join(dir, SETTINGS_FILE), 'utf8')),
    );
    return parsed.success ? parsed.data : { ...DEFAULT_SETTINGS };
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

/** An invalid settings payload, with a message a person can act on. */
class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

/** The address as stored: origin plus path without a trailing slash; never a user name or password. */
function normaliseServerUrl(serverUrl: string): string {
  const url = new URL(serverUrl);
  if (url.username || url.password)
    throw new SettingsError('Enter the server address without a user name or password.');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * Validates untrusted input (it comes from the renderer), normalises the server URL to its origin
 * plus path without a trailing slash, checks the folder is an absolute path to an existing folder,
 * and saves. Returns what was saved. Who may save is the desk's business (desk.ts), not this one's.
 */
export async function saveSettings(dir: string, input: unknown): Promise<DesktopSettings> {
  const parsed = SettingsInputSchema.safeParse(input);
  if (!parsed.success) throw new SettingsError(parsed.error.issues[0]?.message ?? 'Invalid settings.');
  const { serverUrl, watchedFolder, ...choices } = parsed.data;
  if (!isAbsolute(watchedFolder)) throw new SettingsError('Choose the scanner folder with Browse.');
  const isFolder = await stat(watchedFolder).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isFolder) throw new SettingsError('That scanner folder does not exist.');
  const settings: DesktopSettings = { serverUrl: normaliseServerUrl(serverUrl), watchedFolder, ...choices };
  await mkdir(dir, { recursive: true });
  await writeFileAtomic(join(dir, SETTINGS_FILE), JSON.stringify(settings, null, 2));
  return settings;
}

/**
 * A managed settings file that exists: its settings, or why it cannot be used. A file that exists
 * but cannot be used never falls back to settings.json: the computer's administrator meant this
 * desk to be managed, and a fallback would quietly leave it to whoever sits at it (with the mistake
 * in the file unnoticed). The desk then talks to no server until the file is fixed.
 */
export type ManagedSettings =
  | { path: string; settings: DesktopSettings; problem?: undefined }
  | { path: string; settings?: undefined; problem: string };

/** The error code of a failed file system call, if any. */
const codeOf = (error: unknown): string | undefined =>
  error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;

/**
 * Reads the managed settings file at `path`: null when there is none, else its settings or the
 * problem that makes it unusable (same rules as the settings screen, and the server and folder are
 * required). The folder need not exist yet (a drive mounted later): the scanner inbox says so.
 */
export async function loadManagedSettings(path: string): Promise<ManagedSettings | null> {
  const unusable = (problem: string): ManagedSettings => ({
    path,
    problem: `The settings file ${path} ${problem}`,
  });
  try {
    if (!(await stat(path)).isFile()) return unusable('is not a file.');
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    // It may well exist (a folder on the way that this account may not read): refuse, never guess.
    return unusable(`cannot be checked (${code ?? String(error)}).`);
  }
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    return unusable(
      error instanceof SyntaxError
        ? 'is not valid JSON.'
        : `cannot be read (${codeOf(error) ?? String(error)}).`,
    );
  }
  const parsed = ManagedSettingsSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    return unusable(`is not valid: ${field}${issue?.message ?? 'invalid settings'}.`);
  }
  const { serverUrl, watchedFolder, ...choices } = parsed.data;
  if (!isAbsolute(watchedFolder)) return unusable('is not valid: watchedFolder must be an absolute path.');
  try {
    return { path, settings: { serverUrl: normaliseServerUrl(serverUrl), watchedFolder, ...choices } };
  } catch (error) {
    return unusable(`is not valid: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * True when this account could change the managed file (it, or the folder that holds it, is
 * writable): then the file protects nothing, and main says so in its log.
 */
export async function isWritableByThisAccount(path: string): Promise<boolean> {
  const writable = (target: string): Promise<boolean> =>
    access(target, constants.W_OK).then(
      () => true,
      () => false,
    );
  return (await writable(path)) || (await writable(dirname(path)));
}
