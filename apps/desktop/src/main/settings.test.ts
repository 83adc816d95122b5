import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isConfigured } from '../shared/settings.js';
import { managedSettingsFile } from './env.js';
import { removeFolder, tempFolder } from './inbox/test-support.js';
import {
  DEFAULT_SETTINGS,
  SETTINGS_FILE,
  isWritableByThisAccount,
  loadManagedSettings,
  loadSettings,
  saveSettings,
} from './settings.js';

const HTTPS_ONLY = 'Enter the server address, starting with https://';

let userData: string;
let scans: string;
beforeEach(async () => {
  userData = join(await tempFolder('vita-settings-'), 'user data');
  scans = await tempFolder('vita-scans-');
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await removeFolder(join(userData, '..'));
  await removeFolder(scans);
});

describe('desk settings', () => {
  it('start empty on first run, so the setup screen shows', async () => {
    const settings = await loadSettings(userData);
    expect(settings).toEqual(DEFAULT_SETTINGS);
    expect(isConfigured(settings)).toBe(false);
  });

  it('save normalised settings to the user-data folder and read them back', async () => {
    const saved = await saveSettings(userData, {
      serverUrl: ' https://vita.example.org/ ',
      watchedFolder: scans,
      afterUpload: 'delete',
      folderMode: 'auto',
      problemScans: 'list',
    });
    expect(saved).toEqual({
      serverUrl: 'https://vita.example.org',
      watchedFolder: scans,
      afterUpload: 'delete',
      folderMode: 'auto',
      problemScans: 'list',
    });
    expect(JSON.parse(await readFile(join(userData, SETTINGS_FILE), 'utf8'))).toEqual(saved);
    expect(await loadSettings(userData)).toEqual(saved);
    expect(isConfigured(saved)).toBe(true);
  });

  it('refuse what the renderer must not set, with a reason a person can act on', async () => {
    const base = {
      serverUrl: 'https://vita.example.org',
      watchedFolder: scans,
      afterUpload: 'move',
      folderMode: 'auto',
      problemScans: 'list',
    };
    await expect(saveSettings(userData, { ...base, serverUrl: 'file:///etc/passwd' })).rejects.toThrow(
      'https://',
    );
    await expect(
      saveSettings(userData, { ...base, serverUrl: 'https://me:pw@vita.example.org' }),
    ).rejects.toThrow('user name');
    await expect(saveSettings(userData, { ...base, watchedFolder: 'relative/folder' })).rejects.toThrow(
      'Browse',
    );
    await expect(saveSettings(userData, { ...base, watchedFolder: join(scans, 'missing') })).rejects.toThrow(
      'does not exist',
    );
    await expect(saveSettings(userData, { ...base, afterUpload: 'shred' })).rejects.toThrow();
    await expect(saveSettings(userData, 'not an object')).rejects.toThrow();
    expect(await loadSettings(userData)).toEqual(DEFAULT_SETTINGS);
  });

  it('fall back to first run when the file is damaged', async () => {
    await saveSettings(userData, {
      serverUrl: 'http://localhost:3000',
      watchedFolder: scans,
      afterUpload: 'move',
      folderMode: 'auto',
      problemScans: 'list',
    });
    await writeFile(join(userData, SETTINGS_FILE), '{"serverUrl": 42');
    expect(await loadSettings(userData)).toEqual(DEFAULT_SETTINGS);
  });
});

describe('the server address', () => {
  const base = () => ({
    watchedFolder: scans,
    afterUpload: 'move',
    folderMode: 'auto',
    problemScans: 'list',
  });

  it('must be https, or plain http to this machine itself (any port) for development', async () => {
    for (const [serverUrl, stored] of [
      ['https://vita.example.org', 'https://vita.example.org'],
      ['HTTPS://Vita.Example.org:8443/desk/', 'https://vita.example.org:8443/desk'],
      ['http://localhost:3000', 'http://localhost:3000'],
      ['http://LOCALHOST/', 'http://localhost'],
      ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080'],
      ['http://[::1]:3000', 'http://[::1]:3000'],
    ] as const) {
      expect((await saveSettings(userData, { ...base(), serverUrl })).serverUrl).toBe(stored);
    }
  });

  it('refuses plain http to any other machine, however it is spelt', async () => {
    for (const serverUrl of [
      'http://example.org',
      'http://vita.example.org:443/',
      'http://192.168.1.20:3000',
      'http://127.0.0.2:3000',
      'http://localhost.example.org',
      'http://127.0.0.1.example.org',
      'http://localhost@example.org',
      'http://localhost:3000@example.org',
      'http://localhost\\@example.org',
      'http:example.org',
      'ws://localhost:3000',
    ]) {
      await expect(saveSettings(userData, { ...base(), serverUrl }), serverUrl).rejects.toThrow(HTTPS_ONLY);
    }
    expect(await loadSettings(userData)).toEqual(DEFAULT_SETTINGS);
  });

  it('read back from settings.json over plain http to another machine counts as not set: the desk is back at first run', async () => {
    await mkdir(userData, { recursive: true });
    await writeFile(
      join(userData, SETTINGS_FILE),
      JSON.stringify({
        serverUrl: 'http://192.168.1.20:3000',
        watchedFolder: scans,
        afterUpload: 'delete',
        folderMode: 'auto',
        problemScans: 'list',
      }),
    );
    const settings = await loadSettings(userData);
    expect(settings).toEqual({
      serverUrl: null,
      watchedFolder: scans,
      afterUpload: 'delete',
      folderMode: 'auto',
      problemScans: 'list',
    });
    expect(isConfigured(settings)).toBe(false);
  });
});

describe('managed settings file', () => {
  let managedDir: string;
  let managedFile: string;
  beforeEach(async () => {
    managedDir = await tempFolder('vita-managed-');
    managedFile = join(managedDir, 'desk.json');
  });
  afterEach(async () => {
    await removeFolder(managedDir);
  });
  const write = (content: unknown) =>
    writeFile(managedFile, typeof content === 'string' ? content : JSON.stringify(content));

  it('is not there by default: settings.json rules', async () => {
    expect(await loadManagedSettings(managedFile)).toBeNull();
    expect(await loadManagedSettings(join(managedDir, 'missing', 'desk.json'))).toBeNull();
  });

  it('gives the settings in the shape of settings.json, normalised, moving scans unless it says otherwise', async () => {
    await write({ serverUrl: 'https://vita.example.org/', watchedFolder: scans });
    expect(await loadManagedSettings(managedFile)).toEqual({
      path: managedFile,
      settings: {
        serverUrl: 'https://vita.example.org',
        watchedFolder: scans,
        afterUpload: 'move',
        folderMode: 'auto',
        problemScans: 'list',
      },
    });
    await write({
      serverUrl: 'http://localhost:3000',
      watchedFolder: scans,
      afterUpload: 'delete',
      folderMode: 'auto',
      problemScans: 'list',
    });
    expect((await loadManagedSettings(managedFile))?.settings).toEqual({
      serverUrl: 'http://localhost:3000',
      watchedFolder: scans,
      afterUpload: 'delete',
      folderMode: 'auto',
      problemScans: 'list',
    });
  });

  it('that cannot be used gives a problem naming the file, never settings', async () => {
    const cases: Array<[unknown, string]> = [
      ['{"serverUrl": ', 'is not valid JSON'],
      [{ serverUrl: 'http://vita.example.org', watchedFolder: scans }, HTTPS_ONLY],
      [{ serverUrl: 'https://vita.example.org' }, 'watchedFolder'],
      [{ watchedFolder: scans }, 'serverUrl'],
      [{ serverUrl: 'https://vita.example.org', watchedFolder: 'scans' }, 'absolute path'],
      [{ serverUrl: 'https://vita.example.org', watchedFolder: scans, afterUpload: 'shred' }, 'afterUpload'],
      [{ serverUrl: 'https://vita.example.org', watchedFolder: scans, afterUplaod: 'delete' }, 'afterUplaod'],
      [{ serverUrl: 'https://me:pw@vita.example.org', watchedFolder: scans }, 'user name'],
      [[], 'is not valid'],
    ];
    for (const [content, problem] of cases) {
      await write(content);
      const managed = await loadManagedSettings(managedFile);
      expect(managed?.settings, JSON.stringify(content)).toBeUndefined();
      expect(managed?.problem, JSON.stringify(content)).toContain(managedFile);
      expect(managed?.problem, JSON.stringify(content)).toContain(problem);
    }
    // A folder where the file should be.
    await mkdir(join(managedDir, 'folder.json'));
    expect((await loadManagedSettings(join(managedDir, 'folder.json')))?.problem).toContain('is not a file');
  });

  it('is reported when this account could change it', async () => {
    await write({ serverUrl: 'https://vita.example.org', watchedFolder: scans });
    // A file in this account's own temp folder: it (and its folder) are writable.
    expect(await isWritableByThisAccount(managedFile)).toBe(true);
  });

  it('lives in the OS-wide place, or where VITA_DESK_CONFIG says', () => {
    expect(managedSettingsFile({}, 'linux')).toBe('/etc/vita-docs/desk.json');
    expect(managedSettingsFile({}, 'darwin')).toBe('/Library/Application Support/VITA Docs/desk.json');
    expect(managedSettingsFile({ ProgramData: 'D:\\ProgramData' }, 'win32')).toBe(
      'D:\\ProgramData\\VITA Docs\\desk.json',
    );
    expect(managedSettingsFile({}, 'win32')).toBe('C:\\ProgramData\\VITA Docs\\desk.json');
    expect(managedSettingsFile({ VITA_DESK_CONFIG: '/opt/kiosk/desk.json' }, 'linux')).toBe(
      '/opt/kiosk/desk.json',
    );
    vi.stubEnv('VITA_DESK_CONFIG', managedFile);
    expect(managedSettingsFile()).toBe(managedFile);
  });
});
