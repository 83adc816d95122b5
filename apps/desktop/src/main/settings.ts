/**
 * The desk's settings, one JSON file in the user-data folder. Plain Node so it is tested without
 * Electron; main passes `app.getPath('userData')`.
 */
import { mkdir, readFile, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { DesktopSettings } from '../shared/bridge.js';
import { DesktopSettingsSchema, ServerUrlSchema, SettingsInputSchema } from '../shared/schemas.js';
import { writeFileAtomic } from './fs-atomic.js';

/**
 * File name inside the user-data folder.
 * @internal Exported for its unit test.
 */
export const SETTINGS_FILE = 'settings.json';

/**
 * Settings of a desk that has not been set up: the renderer shows the first-run screen.
 * @internal Exported for its unit test.
 */
export const DEFAULT_SETTINGS: DesktopSettings = { serverUrl: null, watchedFolder: null, afterUpload: 'move' };

/**
 * settings.json as read back. A stored server address that breaks the https rule (written by an
 * older version, which took any http address, or by hand) is read as not set: the desk must not
 * send PINs and codes in clear text to another machine. It is not kept as a locked setting either,
 * because the admin sign-in that protects a change would have to be checked over that same plain
 * http, where anyone on the way can answer as an admin. So the desk is back at first run for the
 * server (the folder and the after-upload choice are kept), as on a new install: whoever sets it up
 * must be at the desk.
 */
const StoredSettingsSchema = DesktopSettingsSchema.extend({ serverUrl: ServerUrlSchema.nullable().catch(null) });

/** Reads settings.json; a missing or unreadable file gives the defaults (first run). */
export async function loadSettings(dir: string): Promise<DesktopSettings> {
  try {
    const parsed = StoredSettingsSchema.safeParse(JSON.parse(await readFile(join(dir, SETTINGS_FILE), 'utf8')));
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
  if (url.username || url.password) throw new SettingsError('Enter the server address without a user name or password.');
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
  const { serverUrl, watchedFolder, afterUpload } = parsed.data;
  if (!isAbsolute(watchedFolder)) throw new SettingsError('Choose the scanner folder with Browse.');
  const isFolder = await stat(watchedFolder).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isFolder) throw new SettingsError('That scanner folder does not exist.');
  const settings: DesktopSettings = { serverUrl: normaliseServerUrl(serverUrl), watchedFolder, afterUpload };
  await mkdir(dir, { recursive: true });
  await writeFileAtomic(join(dir, SETTINGS_FILE), JSON.stringify(settings, null, 2));
  return settings;
}
