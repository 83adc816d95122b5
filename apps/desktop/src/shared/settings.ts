import type { DesktopSettings } from './bridge.js';

/** True once the server and the folder are chosen; until then the renderer shows the first-run screen. */
export const isConfigured = (
  settings: DesktopSettings,
): settings is DesktopSettings & { serverUrl: string; watchedFolder: string } =>
  settings.serverUrl !== null && settings.watchedFolder !== null;
