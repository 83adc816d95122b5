/** The one kiosk window, locked down: no Node in the page, a sandboxed preload, no popups, no leaving the app. */
import { BrowserWindow, Menu, app, session, shell, type WebContents } from 'electron';
import { isAllowedExternal, isAppUrl } from './origin.js';

/** Where the window loads from and which preload it gets. */
export interface WindowOptions {
  url: string;
  preload: string;
  origin: string;
}

/** Creates and loads the main window. */
export function createMainWindow(options: WindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 860,
    minWidth: 800,
    minHeight: 600,
    show: false,
    title: 'VITA Document Collector',
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      webviewTag: false,
      spellcheck: false,
      // A packaged kiosk has no DevTools (nor the menu that opens them): nothing to poke at the page with.
      devTools: !app.isPackaged,
    },
  });
  if (app.isPackaged) Menu.setApplicationMenu(null);
  window.once('ready-to-show', () => window.show());
  void window.loadURL(options.url);
  return window;
}

/**
 * Applies the navigation rules to every web contents the app ever creates (so a future window or
 * frame cannot forget them): new windows are denied (links to an allowed origin open in the system
 * browser, nothing else does),
 * navigation away from the app origin is cancelled, webviews are refused.
 */
export function lockDownWebContents(origin: string, externalOrigins: readonly string[] = []): void {
  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.setWindowOpenHandler(({ url }) => {
      if (isAllowedExternal(url, externalOrigins)) void shell.openExternal(url);
      return { action: 'deny' };
    });
    contents.on('will-navigate', (event, url) => {
      if (!isAppUrl(url, origin)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!isAppUrl(url, origin)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  // The camera (Take Photo) is the only permission the app needs, and only for its own pages.
  session.defaultSession.setPermissionRequestHandler((contents, permission, callback) => {
    callback(permission === 'media' && isAppUrl(contents.getURL(), origin));
  });
}
