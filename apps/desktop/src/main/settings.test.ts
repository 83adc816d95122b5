import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isConfigured } from '../shared/settings.js';
import { removeFolder, tempFolder } from './inbox/test-support.js';
import { DEFAULT_SETTINGS, SETTINGS_FILE, loadSettings, saveSettings } from './settings.js';

const HTTPS_ONLY = 'Enter the server address, starting with https://';

let userData: string;
let scans: string;
beforeEach(async () => {
  userData = join(await tempFolder('vita-settings-'), 'user data');
  scans = await tempFolder('vita-scans-');
});
afterEach(async () => {
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
    const saved = await saveSettings(userData, { serverUrl: ' https://vita.example.org/ ', watchedFolder: scans, afterUpload: 'delete' });
    expect(saved).toEqual({ serverUrl: 'https://vita.example.org', watchedFolder: scans, afterUpload: 'delete' });
    expect(JSON.parse(await readFile(join(userData, SETTINGS_FILE), 'utf8'))).toEqual(saved);
    expect(await loadSettings(userData)).toEqual(saved);
    expect(isConfigured(saved)).toBe(true);
  });

  it('refuse what the renderer must not set, with a reason a person can act on', async () => {
    const base = { serverUrl: 'https://vita.example.org', watchedFolder: scans, afterUpload: 'move' };
    await expect(saveSettings(userData, { ...base, serverUrl: 'file:///etc/passwd' })).rejects.toThrow('https://');
    await expect(saveSettings(userData, { ...base, serverUrl: 'https://me:pw@vita.example.org' })).rejects.toThrow('user name');
    await expect(saveSettings(userData, { ...base, watchedFolder: 'relative/folder' })).rejects.toThrow('Browse');
    await expect(saveSettings(userData, { ...base, watchedFolder: join(scans, 'missing') })).rejects.toThrow('does not exist');
    await expect(saveSettings(userData, { ...base, afterUpload: 'shred' })).rejects.toThrow();
    await expect(saveSettings(userData, 'not an object')).rejects.toThrow();
    expect(await loadSettings(userData)).toEqual(DEFAULT_SETTINGS);
  });

  it('fall back to first run when the file is damaged', async () => {
    await saveSettings(userData, { serverUrl: 'http://localhost:3000', watchedFolder: scans, afterUpload: 'move' });
    await writeFile(join(userData, SETTINGS_FILE), '{"serverUrl": 42');
    expect(await loadSettings(userData)).toEqual(DEFAULT_SETTINGS);
  });
});

describe('the server address', () => {
  const base = () => ({ watchedFolder: scans, afterUpload: 'move' });

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
    await writeFile(join(userData, SETTINGS_FILE), JSON.stringify({ serverUrl: 'http://192.168.1.20:3000', watchedFolder: scans, afterUpload: 'delete' }));
    const settings = await loadSettings(userData);
    expect(settings).toEqual({ serverUrl: null, watchedFolder: scans, afterUpload: 'delete' });
    expect(isConfigured(settings)).toBe(false);
  });
});
