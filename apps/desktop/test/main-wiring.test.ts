/**
 * The Electron composition root (src/main/index.ts) with the `electron` module replaced by a
 * recorder, since the Electron binary cannot run here: checks the window's security settings, the
 * IPC origin check and payload validation, and the app:// file serving. Everything behind the
 * `electron` import is the real code.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { removeFolder, tempFolder } from '../src/main/inbox/test-support.js';

type Handler = (event: { senderFrame: { url: string } | null }, payload?: unknown) => Promise<unknown>;

const electron = vi.hoisted(() => {
  const state = {
    userData: '',
    handlers: new Map<string, Handler>(),
    appEvents: new Map<string, (...args: unknown[]) => unknown>(),
    windows: [] as Array<{ options: { webPreferences: Record<string, unknown> }; url: string }>,
    protocol: null as ((request: Request) => Promise<Response>) | null,
    ready: Promise.resolve(),
    quits: 0,
    menus: [] as unknown[],
  };
  class BrowserWindow {
    url = '';
    webContents = { send: () => {} };
    constructor(public options: { webPreferences: Record<string, unknown> }) {
      state.windows.push(this);
    }
    once(): void {}
    on(): void {}
    loadURL(url: string): Promise<void> {
      this.url = url;
      return Promise.resolve();
    }
    static getAllWindows = () => state.windows;
    static getFocusedWindow = () => null;
  }
  const module = {
    app: {
      whenReady: () => state.ready,
      getPath: () => state.userData,
      requestSingleInstanceLock: () => true,
      isPackaged: true,
      on: (name: string, listener: (...args: unknown[]) => unknown) => state.appEvents.set(name, listener),
      quit: () => {
        state.quits += 1;
      },
    },
    Menu: { setApplicationMenu: (menu: unknown) => state.menus.push(menu) },
    protocol: {
      registerSchemesAsPrivileged: () => {},
      handle: (_scheme: string, handler: (request: Request) => Promise<Response>) =>
        (state.protocol = handler),
    },
    BrowserWindow,
    ipcMain: { handle: (channel: string, handler: Handler) => state.handlers.set(channel, handler) },
    session: { defaultSession: { setPermissionRequestHandler: () => {} } },
    dialog: {},
    nativeImage: {},
    shell: {},
  };
  return { state, module };
});

vi.mock('electron', () => electron.module);

const app = (path = '/') => ({ senderFrame: { url: `app://vita${path}` } });
let scans: string;

beforeAll(async () => {
  electron.state.userData = await mkdtemp(join(tmpdir(), 'vita-main-'));
  scans = await tempFolder();
  // No managed settings file: this machine's /etc must not decide what the test sees.
  vi.stubEnv('VITA_DESK_CONFIG', join(electron.state.userData, 'no-managed-desk.json'));
  await import('../src/main/index.js');
  await vi.waitFor(() => expect(electron.state.windows).toHaveLength(1), { timeout: 10_000 });
});

afterAll(async () => {
  await electron.state.appEvents.get('before-quit')?.({ preventDefault: () => {} });
  // The app quits once the inbox has finished its ledger write: only then may its folders go.
  await vi.waitFor(() => expect(electron.state.quits).toBe(1), { timeout: 10_000 });
  vi.unstubAllEnvs();
  await removeFolder(electron.state.userData);
  await removeFolder(scans);
});

describe('Electron main wiring', () => {
  it('opens one locked-down window on the app origin', () => {
    const [window] = electron.state.windows;
    expect(window?.url).toBe('app://vita/');
    expect(window?.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      devTools: false,
    });
    // Packaged: no application menu (and with it no DevTools shortcut).
    expect(electron.state.menus).toEqual([null]);
  });

  it('answers bridge calls from the app only, and validates their payloads', async () => {
    const get = electron.state.handlers.get('settings:get');
    const save = electron.state.handlers.get('settings:save');
    expect(await get?.(app())).toEqual({
      serverUrl: null,
      watchedFolder: null,
      afterUpload: 'move',
      folderMode: 'auto',
      problemScans: 'list',
    });
    await expect(get?.({ senderFrame: { url: 'https://evil.example/' } })).rejects.toThrow('not the app');
    await expect(get?.({ senderFrame: null })).rejects.toThrow('not the app');
    // First run: anyone may set the desk up (afterwards main asks the server for an admin).
    const access = electron.state.handlers.get('settings:access');
    expect(await access?.(app())).toEqual({ allowed: true, managed: false });
    await expect(access?.({ senderFrame: { url: 'https://evil.example/' } })).rejects.toThrow('not the app');
    await expect(
      save?.(app(), {
        serverUrl: 'http://vita.example.org',
        watchedFolder: scans,
        afterUpload: 'move',
        folderMode: 'auto',
        problemScans: 'list',
      }),
    ).rejects.toThrow('https://');
    await expect(
      save?.(app(), {
        serverUrl: 'javascript:alert(1)',
        watchedFolder: scans,
        afterUpload: 'move',
        folderMode: 'auto',
        problemScans: 'list',
      }),
    ).rejects.toThrow('https://');
    await expect(electron.state.handlers.get('inbox:read')?.(app(), '../../etc/passwd')).rejects.toThrow();
    expect(
      await save?.(app(), {
        serverUrl: 'https://vita.example.org/',
        watchedFolder: scans,
        afterUpload: 'delete',
        folderMode: 'auto',
        problemScans: 'list',
      }),
    ).toEqual({
      serverUrl: 'https://vita.example.org',
      watchedFolder: scans,
      afterUpload: 'delete',
      folderMode: 'auto',
      problemScans: 'list',
    });
    expect(await electron.state.handlers.get('inbox:get')?.(app())).toMatchObject({
      folder: scans,
      scans: [],
      desk: { mode: 'watch', reachable: true, waiting: 0, notices: [] },
    });
    // Dismissing goes through its own channel, payload checked like the others.
    await expect(electron.state.handlers.get('inbox:dismiss')?.(app(), 'not-an-id')).rejects.toThrow();
  });

  it('serves the renderer on app:// with its CSP, the app shell for routes, and nothing outside it', async () => {
    const serve = electron.state.protocol;
    const page = await serve?.(new Request('app://vita/clients/abc/docs'));
    expect(page?.status).toBe(200);
    expect(page?.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await page?.text()).toContain('<div id="root">');
    expect((await serve?.(new Request('app://vita/%2e%2e/main/index.ts')))?.status).toBe(404);
    expect((await serve?.(new Request('app://other/index.html')))?.status).toBe(404);
  });
});
