/**
 * The desk's state behind the bridge: settings, the server transport and the scanner inbox, kept
 * consistent when settings change, and who may change them. Plain Node: Electron main and the
 * browser test harness both build one and hand it to the bridge handlers.
 */
import { join } from 'node:path';
import { createApiClient, isApiError, type JournalKeyResponse } from '@vita-docs/core';
import type { DesktopSettings, InboxState, SettingsAccess } from '../shared/bridge.js';
import type { BridgeDeps } from './bridge-handlers.js';
import { createDropRegistry } from './drop-registry.js';
import { createInboxHost, type InboxHost, type InboxHostOptions } from './inbox-host.js';
import { createKeptUploadsHost } from './kept-uploads.js';
import { createServerFetch, type ServerFetch } from './server-fetch.js';
import {
  DEFAULT_SETTINGS,
  isWritableByThisAccount,
  loadManagedSettings,
  loadSettings,
  saveSettings,
} from './settings.js';
import { createFileJournals } from './upload-journal.js';

/** Options for {@link openDesk}. */
export interface DeskOptions {
  /** Where settings.json lives (`app.getPath('userData')`). */
  userData: string;
  /**
   * The managed settings file (env.ts `managedSettingsFile()`). When it exists, the desk's settings
   * come from it and the screen cannot change them. Left out: settings.json only.
   */
  managedSettingsFile?: string;
  /** Called with the whole inbox after every change (main forwards it to the window). */
  onInboxState: (state: InboxState) => void;
  /** Where warnings go (main: its log). */
  warn?: (message: string) => void;
  /** The inbox's windows (settling, polling, damaged wait) and file-system type; tests shorten or stub them. */
  inbox?: InboxHostOptions['inbox'];
}

/** The opened desk: bridge dependencies (minus the Electron-only ones) and a way to close. */
export interface Desk extends Omit<BridgeDeps, 'chooseFolder' | 'chooseSaveFile' | 'thumbnail'> {
  host: InboxHost;
  close(): Promise<void>;
}

/**
 * Shown when someone who is not a signed-in admin opens or saves the settings.
 * @internal Exported for its tests.
 */
export const ADMIN_ONLY = 'Only an admin can change the desk settings. Sign in as an admin first.';
/**
 * Shown on the settings screen of a desk whose settings come from the managed file.
 * @internal Exported for its tests.
 */
export const MANAGED = "These settings are managed by this computer's administrator.";

/** How long the desk waits for the server to say who is signed in. */
const ME_TIMEOUT_MS = 15_000;

/** Files kept for upload are deleted after this long (the server's absolute session lifetime). */
const KEPT_LIFETIME_MS = 12 * 60 * 60 * 1000;

/** The folder in the user-data folder that holds kept uploads. */
const KEPT_DIR = 'kept-uploads';

/** Who the server says is signed in with the desk's session; null when nobody (or no answer). */
async function signedInEmail(server: ServerFetch | null, serverUrl: string | null): Promise<string | null> {
  if (!server || !serverUrl) return null;
  const api = createApiClient({
    baseUrl: `${serverUrl}/api`,
    fetch: server.fetch,
    getCookie: server.getCookie,
  });
  try {
    const { user } = await api.me(undefined, { signal: AbortSignal.timeout(ME_TIMEOUT_MS) });
    return user.approved ? user.email : null;
  } catch {
    return null;
  }
}

/**
 * The journal key of whoever is signed in with the desk's session (rejects when nobody is). Main
 * asks for it and holds it; the page never sees it (the relay refuses that path).
 */
async function journalKeyOf(
  server: ServerFetch | null,
  serverUrl: string | null,
): Promise<JournalKeyResponse> {
  if (!server || !serverUrl) throw new Error('The desk has no server to ask for its key.');
  const api = createApiClient({
    baseUrl: `${serverUrl}/api`,
    fetch: server.fetch,
    getCookie: server.getCookie,
  });
  return api.journalKey(undefined, { signal: AbortSignal.timeout(ME_TIMEOUT_MS) });
}

/**
 * Null when the desk's own session on `server` belongs to an admin, else why not. Main asks the
 * server itself, with the desk's cookie jar: whatever the page believes about who is signed in
 * counts for nothing, since the page shows server content and is not trusted.
 */
async function adminRefusal(server: ServerFetch, serverUrl: string): Promise<string | null> {
  const api = createApiClient({
    baseUrl: `${serverUrl}/api`,
    fetch: server.fetch,
    getCookie: server.getCookie,
  });
  try {
    const { user } = await api.me(undefined, { signal: AbortSignal.timeout(ME_TIMEOUT_MS) });
    return user.approved && user.isAdmin ? null : ADMIN_ONLY;
  } catch (error) {
    // Signed out (401) or refused: the plain answer. No answer at all: say so, or the admin would
    // sign in again and again while the server is down.
    if (isApiError(error) && error.kind === 'http') return ADMIN_ONLY;
    return `${ADMIN_ONLY} (The server did not answer: ${error instanceof Error ? error.message : String(error)})`;
  }
}

/** Loads the settings and starts watching the configured folder (if any). */
export async function openDesk(options: DeskOptions): Promise<Desk> {
  const managed = options.managedSettingsFile ? await loadManagedSettings(options.managedSettingsFile) : null;
  if (managed?.problem !== undefined) {
    (options.warn ?? console.warn)(`${managed.problem} The desk stays unconfigured until it is fixed.`);
  } else if (managed && (await isWritableByThisAccount(managed.path))) {
    (options.warn ?? console.warn)(
      `The managed settings file ${managed.path} (or its folder) is writable by this account, so it protects nothing: ` +
        'make it writable by the computer’s administrators only.',
    );
  }
  // A managed file that cannot be used leaves the desk unconfigured: it talks to no server.
  let settings: DesktopSettings = managed
    ? (managed.settings ?? { ...DEFAULT_SETTINGS })
    : await loadSettings(options.userData);
  let server: ServerFetch | null = null;
  const useServer = (serverUrl: string | null): void => {
    if (server && serverUrl && server.origin === new URL(serverUrl).origin) return;
    // A new server means a new session: the old cookies must not travel there.
    server = serverUrl ? createServerFetch({ serverUrl }) : null;
  };
  useServer(settings.serverUrl);

  const settingsAccess = async (): Promise<SettingsAccess> => {
    if (managed) {
      const access: SettingsAccess = {
        allowed: false,
        managed: true,
        managedFile: managed.path,
        reason: MANAGED,
      };
      return managed.problem === undefined ? access : { ...access, problem: managed.problem };
    }
    // First run: nothing to protect yet, and no server to ask.
    if (settings.serverUrl === null || server === null) return { allowed: true, managed: false };
    const refusal = await adminRefusal(server, settings.serverUrl);
    return refusal === null
      ? { allowed: true, managed: false }
      : { allowed: false, managed: false, reason: refusal };
  };

  const host = createInboxHost(
    options.inbox === undefined
      ? { onState: options.onInboxState }
      : { onState: options.onInboxState, inbox: options.inbox },
  );
  await host.configure(settings.watchedFolder, settings);

  return {
    host,
    drops: createDropRegistry(),
    kept: createKeptUploadsHost({
      journals: createFileJournals({
        dir: join(options.userData, KEPT_DIR),
        lifetimeMs: KEPT_LIFETIME_MS,
        journalKey: () => journalKeyOf(server, settings.serverUrl),
      }),
      signedIn: () => signedInEmail(server, settings.serverUrl),
    }),
    settings: () => settings,
    server: () => server,
    settingsAccess,
    async saveSettings(input) {
      // Asked at every save, against the server configured now (not the one being saved).
      const access = await settingsAccess();
      if (!access.allowed) throw new Error(access.problem ?? access.reason ?? ADMIN_ONLY);
      settings = await saveSettings(options.userData, input);
      useServer(settings.serverUrl);
      await host.configure(settings.watchedFolder, settings);
      return settings;
    },
    close: () => host.close(),
  };
}
