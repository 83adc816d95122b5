/**
 * Who may change the desk's settings, through main's real bridge handlers and desk against the real
 * server (`@vita-docs/test-server`): anyone on first run; afterwards only an admin whose session is
 * in the desk's own cookie jar on the server configured now. Main asks that server itself.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createApiClient, createFetchPutFile, uploadDocument, type ApiClient } from '@vita-docs/core';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBridgeHandlers, type BridgeHandler, type InvokeMethod } from '../src/main/bridge-handlers.js';
import { ADMIN_ONLY, openDesk, type Desk } from '../src/main/desk.js';
import { removeFolder, tempFolder } from '../src/main/inbox/test-support.js';
import { SETTINGS_FILE } from '../src/main/settings.js';
import { EMAIL, PIN, startDeskServer, type DeskServer } from './desk-server.js';

const VOLUNTEER = 'volunteer.desk@example.org';
const VOLUNTEER_PIN = 'volunteer-desk-pin-7';

let deskServer: DeskServer;
let userData: string;
let scans: string;
let desk: Desk;
let handlers: Record<InvokeMethod, BridgeHandler>;
/** What the save dialog answers (null: cancelled). */
let saveTo: string | null = null;

beforeAll(async () => {
  deskServer = await startDeskServer();
  userData = await tempFolder('vita-desk-settings-');
  scans = await tempFolder('vita-desk-settings-scans-');
  desk = await openDesk({ userData, onInboxState: () => {} });
  handlers = createBridgeHandlers({
    ...desk,
    chooseFolder: async () => scans,
    chooseSaveFile: async () => saveTo,
    thumbnail: async () => null,
  });
}, 120_000);

afterAll(async () => {
  await desk?.close();
  await deskServer?.server.stop({ keepData: false });
  for (const dir of [userData, scans]) if (dir) await removeFolder(dir);
});

/** The API as the page uses it: through the desk's own transport (its cookie jar in main). */
const deskApi = (): ApiClient => {
  const server = desk.server();
  if (!server) throw new Error('no server configured');
  return createApiClient({
    baseUrl: deskServer.server.apiUrl,
    fetch: server.fetch,
    getCookie: server.getCookie,
  });
};

async function signInAtDesk(email: string, pin: string): Promise<void> {
  const api = deskApi();
  const after = Date.now() - 1000;
  await api.loginInit({ body: { email, pin } });
  await api.loginVerify({
    body: { email, code: await deskServer.server.latestCode(email, { after, timeoutMs: 30_000 }) },
  });
}

const settingsInput = (afterUpload: 'move' | 'delete', serverUrl = deskServer.server.url) => ({
  serverUrl,
  watchedFolder: scans,
  afterUpload,
  folderMode: 'auto' as const,
  problemScans: 'list' as const,
});
const stored = async () => JSON.parse(await readFile(join(userData, SETTINGS_FILE), 'utf8'));

describe('changing the desk settings', () => {
  it('needs no sign-in on first run', async () => {
    expect(await handlers.settingsAccess(undefined)).toEqual({ allowed: true, managed: false });
    expect(await handlers.saveSettings(settingsInput('move'))).toEqual(settingsInput('move'));
  });

  it('is refused to a desk nobody is signed in on, whatever the page sends', async () => {
    expect(await handlers.settingsAccess(undefined)).toEqual({
      allowed: false,
      managed: false,
      reason: ADMIN_ONLY,
    });
    await expect(handlers.settingsAccess({ allowed: true })).rejects.toThrow();
    await expect(
      handlers.saveSettings({ ...settingsInput('delete'), admin: true, role: 'admin' }),
    ).rejects.toThrow(ADMIN_ONLY);
    await expect(
      handlers.saveSettings(settingsInput('move', 'https://attacker.example.net')),
    ).rejects.toThrow(ADMIN_ONLY);
    expect(await handlers.getSettings(undefined)).toEqual(settingsInput('move'));
    expect(await stored()).toEqual(settingsInput('move'));
  });

  it('is refused to a signed-in volunteer', async () => {
    await deskApi().register({
      body: { firstName: 'Vol', lastName: 'Unteer', email: VOLUNTEER, pin: VOLUNTEER_PIN },
    });
    await deskServer.api.approveUser({ params: { email: VOLUNTEER }, body: { approved: true } });
    await signInAtDesk(VOLUNTEER, VOLUNTEER_PIN);
    expect((await deskApi().me()).user).toMatchObject({
      email: VOLUNTEER,
      role: 'volunteer',
      isAdmin: false,
    });

    expect(await handlers.settingsAccess(undefined)).toEqual({
      allowed: false,
      managed: false,
      reason: ADMIN_ONLY,
    });
    await expect(handlers.saveSettings(settingsInput('delete'))).rejects.toThrow(ADMIN_ONLY);
    expect(await stored()).toEqual(settingsInput('move'));
    await deskApi().logout();
  }, 60_000);

  it('saves the season archive the server streams, for the admin signed in at the desk only', async () => {
    const { api, clientId } = deskServer;
    const putFile = createFetchPutFile(deskServer.transport.fetch);
    const scan = new File(['%PDF-1.4 season scan'], 'w2.pdf', { type: 'application/pdf' });
    await uploadDocument(api, putFile, { clientId, docType: 'W-2' }, scan);
    saveTo = join(scans, 'season.zip');
    const saved = async () => (await readdir(scans)).filter((name) => name.startsWith('season'));

    // Nobody (a volunteer) who may not have it: the server's refusal, and nothing written.
    await signInAtDesk(VOLUNTEER, VOLUNTEER_PIN);
    await expect(handlers.saveSeasonArchive(2026)).rejects.toThrow('You do not have permission to do that.');
    expect(await saved()).toEqual([]);
    await deskApi().logout();

    await signInAtDesk(EMAIL, PIN);
    await expect(handlers.saveSeasonArchive('../../etc/passwd')).rejects.toThrow();
    saveTo = null; // the person cancels the save dialog
    expect(await handlers.saveSeasonArchive(2026)).toBeNull();
    saveTo = join(scans, 'season.zip');
    expect(await handlers.saveSeasonArchive(2026)).toBe(saveTo);
    expect(await saved()).toEqual(['season.zip']); // no `.part` left beside it
    const zip = await JSZip.loadAsync(await readFile(saveTo));
    const names = Object.keys(zip.files).filter((name) => !zip.files[name]!.dir);
    expect(names).toEqual([expect.stringMatching(/^Client, Pat \(.+\)\/W-2\/w2\.pdf$/)]);
    expect(await zip.file(names[0]!)!.async('string')).toBe('%PDF-1.4 season scan');
    await deskApi().logout();
  }, 60_000);

  it('is allowed to an admin signed in at the desk on the configured server, and only there', async () => {
    await signInAtDesk(EMAIL, PIN);
    expect(await handlers.settingsAccess(undefined)).toEqual({ allowed: true, managed: false });
    expect(await handlers.saveSettings(settingsInput('delete'))).toEqual(settingsInput('delete'));
    expect(await stored()).toEqual(settingsInput('delete'));

    // The admin moves the desk to another server (here one that does not answer). From then on the
    // check is made there, with a new, empty session: the admin's session here does not count.
    const elsewhere = 'https://127.0.0.1:9';
    expect(await handlers.saveSettings(settingsInput('delete', elsewhere))).toMatchObject({
      serverUrl: elsewhere,
    });
    const access = await handlers.settingsAccess(undefined);
    expect(access).toMatchObject({ allowed: false, managed: false });
    expect((access as { reason?: string }).reason).toContain(ADMIN_ONLY);
    await expect(handlers.saveSettings(settingsInput('move'))).rejects.toThrow(ADMIN_ONLY);
    expect((await stored()).serverUrl).toBe(elsewhere);
  }, 60_000);
});
