/**
 * Electron main: the composition root of the kiosk. It wires the plain Node modules (settings,
 * scanner inbox, server transport, drops: see desk.ts) to one locked-down window. Keep logic out of here.
 */
import { join } from 'node:path';
import { BrowserWindow, app } from 'electron';
import { channels } from '../shared/bridge.js';
import { openDesk } from './desk.js';
import { registerIpc } from './electron/ipc.js';
import { appOrigin } from './electron/origin.js';
import { registerAppScheme, serveRenderer } from './electron/protocol.js';
import { createMainWindow, lockDownWebContents } from './electron/window.js';
import { devServerUrl, externalLinkOrigins, managedSettingsFile } from './env.js';

/** The renderer dev server while developing (the environment is read in env.ts only). */
const devUrl = devServerUrl();
const origin = appOrigin(devUrl);
/** Built layout: dist/main/index.js, dist/preload/index.cjs, dist/renderer/. */
const distDir = join(import.meta.dirname, '..');

registerAppScheme();

// Two kiosks on one scanner folder would upload every scan twice: the second launch focuses the first.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void app.whenReady().then(start);
}

async function start(): Promise<void> {
  let window: BrowserWindow | null = null;
  const desk = await openDesk({
    userData: app.getPath('userData'),
    // When this file exists the desk's settings come from it (see settings.ts and the README).
    managedSettingsFile: managedSettingsFile(),
    warn: (message) => console.warn(message),
    onInboxState: (state) => window?.webContents.send(channels.inboxChanged, state),
  });

  lockDownWebContents(origin, externalLinkOrigins());
  if (!devUrl) serveRenderer(join(distDir, 'renderer'));
  registerIpc({ ...desk, origin });

  const openWindow = (): void => {
    window = createMainWindow({
      url: devUrl ?? `${origin}/`,
      preload: join(distDir, 'preload', 'index.cjs'),
      origin,
    });
    window.on('closed', () => {
      window = null;
    });
  };
  openWindow();
  app.on('second-instance', () => {
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow();
  });

  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting) return;
    // Let the inbox finish its ledger write so the next start neither loses nor repeats a scan.
    event.preventDefault();
    quitting = true;
    void desk.close().finally(() => app.quit());
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
