import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isConfigured } from '../shared/settings.js';
import { removeFolder, tempFolder } from './inbox/test-support.js';
import { DEFAULT_SETTINGS, SETTINGS_FILE, loadSettings, saveSettings } from './settings.js';

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
