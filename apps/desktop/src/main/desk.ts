/**
 * The desk's state behind the bridge: settings, the server transport and the scanner inbox, kept
 * consistent when settings change. Plain Node: Electron main and the browser test harness both
 * build one and hand it to the bridge handlers.
 */
import type { DesktopSettings, InboxState } from '../shared/bridge.js';
import type { BridgeDeps } from './bridge-handlers.js';
import { createDropRegistry } from './drop-registry.js';
import { createInboxHost, type InboxHost } from './inbox-host.js';
import { createServerFetch, type ServerFetch } from './server-fetch.js';
import { loadSettings, saveSettings } from './settings.js';

/** Options for {@link openDesk}. */
export interface DeskOptions {
  /** Where settings.json lives (`app.getPath('userData')`). */
  userData: string;
  /** Called with the whole inbox after every change (main forwards it to the window). */
  onInboxState: (state: InboxState) => void;
  /** Settling window of the inbox; tests may shorten it. */
  stableMs?: number;
}

/** The opened desk: bridge dependencies (minus the Electron-only ones) and a way to close. */
export interface Desk extends Omit<BridgeDeps, 'chooseFolder' | 'thumbnail'> {
  host: InboxHost;
  close(): Promise<void>;
}

/** Loads the settings and starts watching the configured folder (if any). */
export async function openDesk(options: DeskOptions): Promise<Desk> {
  let settings: DesktopSettings = await loadSettings(options.userData);
  let server: ServerFetch | null = null;
  const useServer = (serverUrl: string | null): void => {
    if (server && serverUrl && server.origin === new URL(serverUrl).origin) return;
    // A new server means a new session: the old cookies must not travel there.
    server = serverUrl ? createServerFetch({ serverUrl }) : null;
  };
  useServer(settings.serverUrl);

  const host = createInboxHost(
    options.stableMs === undefined
      ? { onState: options.onInboxState }
      : { onState: options.onInboxState, stableMs: options.stableMs },
  );
  await host.configure(settings.watchedFolder, settings.afterUpload);

  return {
    host,
    drops: createDropRegistry(),
    settings: () => settings,
    server: () => server,
    async saveSettings(input) {
      settings = await saveSettings(options.userData, input);
      useServer(settings.serverUrl);
      await host.configure(settings.watchedFolder, settings.afterUpload);
      return settings;
    },
    close: () => host.close(),
  };
}
