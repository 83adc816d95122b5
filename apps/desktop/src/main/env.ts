/**
 * The only module of the desktop app that reads `process.env` (lint enforces it): the main process
 * and the headless intake ask here, so every variable the app honours is listed in one place.
 */
import { win32 } from 'node:path';

/** The renderer dev server while developing (`VITA_DESKTOP_DEV_URL`); undefined in a built kiosk. */
export function devServerUrl(): string | undefined {
  return process.env.VITA_DESKTOP_DEV_URL || undefined;
}

/**
 * Where the person typed the command: `pnpm --filter` runs scripts in apps/desktop but sets
 * `INIT_CWD` to the directory it was invoked from.
 */
export function invocationDir(): string {
  return process.env.INIT_CWD ?? process.cwd();
}

/**
 * Origins whose links the kiosk may open in the system browser (`VITA_EXTERNAL_LINKS`, comma-separated
 * https origins, e.g. the programme's website). None by default.
 */
export function externalLinkOrigins(): string[] {
  return (process.env.VITA_EXTERNAL_LINKS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .flatMap((entry) => {
      try {
        const url = new URL(entry);
        return url.protocol === 'https:' ? [url.origin] : [];
      } catch {
        return [];
      }
    });
}

/**
 * Where the managed desk settings live (see settings.ts): `VITA_DESK_CONFIG` when set, else the
 * computer-wide place of the OS, which only its administrators can write. The arguments are for
 * tests; main calls it without.
 */
export function managedSettingsFile(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const override = env.VITA_DESK_CONFIG?.trim();
  if (override) return override;
  if (platform === 'win32')
    return win32.join(env.ProgramData?.trim() || 'C:\\ProgramData', 'VITA Docs', 'desk.json');
  if (platform === 'darwin') return '/Library/Application Support/VITA Docs/desk.json';
  return '/etc/vita-docs/desk.json';
}
