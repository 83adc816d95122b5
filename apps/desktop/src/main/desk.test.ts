/**
 * The desk with a managed settings file, through the bridge handlers as the window reaches them.
 * No server is contacted (a managed desk never asks one who may change settings); the admin
 * sign-in check against the real server is in test/desk-settings.test.ts.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBridgeHandlers } from './bridge-handlers.js';
import { MANAGED, openDesk, type Desk } from './desk.js';
import { removeFolder, tempFolder } from './inbox/test-support.js';
import { SETTINGS_FILE, saveSettings } from './settings.js';

let userData: string;
let managedDir: string;
let scans: string;
let otherScans: string;
let desk: Desk | undefined;
const warnings: string[] = [];

beforeEach(async () => {
  userData = await tempFolder('vita-desk-user-');
  managedDir = await tempFolder('vita-desk-managed-');
  scans = await tempFolder('vita-desk-scans-');
  otherScans = await tempFolder('vita-desk-other-');
  warnings.length = 0;
  // What a kiosk user set up (or broke in) before the managed file arrived.
  await saveSettings(userData, {
    serverUrl: 'https://attacker.example.net',
    watchedFolder: otherScans,
    afterUpload: 'delete',
    folderMode: 'auto',
    problemScans: 'list',
  });
});

afterEach(async () => {
  await desk?.close();
  desk = undefined;
  for (const dir of [userData, managedDir, scans, otherScans]) await removeFolder(dir);
});

const open = async (managedSettingsFile: string) => {
  desk = await openDesk({
    userData,
    managedSettingsFile,
    onInboxState: () => {},
    warn: (message) => warnings.push(message),
  });
  return {
    desk,
    handlers: createBridgeHandlers({
      ...desk,
      chooseFolder: async () => null,
      chooseSaveFile: async () => null,
      thumbnail: async () => null,
    }),
  };
};

describe('a desk with a managed settings file', () => {
  it('takes its settings from the file, shows them as managed and refuses every change in main', async () => {
    const file = join(managedDir, 'desk.json');
    await writeFile(file, JSON.stringify({ serverUrl: 'https://vita.example.org/', watchedFolder: scans }));
    const { desk, handlers } = await open(file);

    expect(await handlers.getSettings(undefined)).toEqual({
      serverUrl: 'https://vita.example.org',
      watchedFolder: scans,
      afterUpload: 'move',
      folderMode: 'auto',
      problemScans: 'list',
    });
    expect(desk.server()?.origin).toBe('https://vita.example.org');
    expect(desk.host.state().folder).toBe(scans);
    expect(await handlers.settingsAccess(undefined)).toEqual({
      allowed: false,
      managed: true,
      managedFile: file,
      reason: MANAGED,
    });

    const before = await readFile(join(userData, SETTINGS_FILE), 'utf8');
    await expect(
      handlers.saveSettings({
        serverUrl: 'https://vita.example.org',
        watchedFolder: otherScans,
        afterUpload: 'move',
        folderMode: 'auto',
        problemScans: 'list',
      }),
    ).rejects.toThrow(MANAGED);
    expect(await handlers.getSettings(undefined)).toEqual({
      serverUrl: 'https://vita.example.org',
      watchedFolder: scans,
      afterUpload: 'move',
      folderMode: 'auto',
      problemScans: 'list',
    });
    expect(await readFile(join(userData, SETTINGS_FILE), 'utf8')).toBe(before);
    // The file sits in this account's temp folder: main says it protects nothing.
    expect(warnings.join('\n')).toContain(`${file} (or its folder) is writable by this account`);
  });

  it('that is broken leaves the desk unconfigured: no fallback to settings.json, no server, the problem on the settings screen', async () => {
    const file = join(managedDir, 'desk.json');
    await writeFile(file, JSON.stringify({ serverUrl: 'http://vita.example.org', watchedFolder: scans }));
    const { desk, handlers } = await open(file);

    expect(await handlers.getSettings(undefined)).toEqual({
      serverUrl: null,
      watchedFolder: null,
      afterUpload: 'move',
      folderMode: 'auto',
      problemScans: 'list',
    });
    expect(desk.server()).toBeNull();
    await expect(
      handlers.apiFetch({
        url: 'https://attacker.example.net/api/me',
        method: 'GET',
        headers: [],
        credentials: 'include',
      }),
    ).rejects.toThrow('Set the server address first.');
    const access = await handlers.settingsAccess(undefined);
    expect(access).toMatchObject({ allowed: false, managed: true, managedFile: file, reason: MANAGED });
    expect((access as { problem?: string }).problem).toContain(`The settings file ${file} is not valid`);
    expect((access as { problem?: string }).problem).toContain('https://');
    await expect(
      handlers.saveSettings({
        serverUrl: 'https://attacker.example.net',
        watchedFolder: otherScans,
        afterUpload: 'move',
        folderMode: 'auto',
        problemScans: 'list',
      }),
    ).rejects.toThrow(`The settings file ${file} is not valid`);
    expect(desk.server()).toBeNull();
    expect(warnings.join('\n')).toContain(`The settings file ${file} is not valid`);
  });

  it('that is absent leaves settings.json in charge', async () => {
    const { handlers } = await open(join(managedDir, 'none.json'));
    expect(await handlers.getSettings(undefined)).toEqual({
      serverUrl: 'https://attacker.example.net',
      watchedFolder: otherScans,
      afterUpload: 'delete',
      folderMode: 'auto',
      problemScans: 'list',
    });
    expect(warnings).toEqual([]);
  });
});
