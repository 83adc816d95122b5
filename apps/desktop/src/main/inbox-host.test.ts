import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InboxState } from '../shared/bridge.js';
import { deskStatusLine } from '../shared/desk-texts.js';
import { createInboxHost, type InboxHost, type InboxSettings } from './inbox-host.js';
import { putFile, removeFolder, tempFolder } from './inbox/test-support.js';

const MOVE: InboxSettings = { afterUpload: 'move', folderMode: 'auto', problemScans: 'list' };

let folder: string;
let other: string;
let host: InboxHost;
const states: InboxState[] = [];
const waiters = new Set<() => void>();

function nextState(match: (state: InboxState) => boolean): Promise<InboxState> {
  return new Promise((resolve) => {
    const check = (): void => {
      const found = states.find(match);
      if (found) {
        waiters.delete(check);
        resolve(found);
      }
    };
    waiters.add(check);
    check();
  });
}

beforeEach(async () => {
  folder = await tempFolder();
  other = await tempFolder();
  states.length = 0;
  host = createInboxHost({
    // A network file system (CIFS) for every folder: `auto` polls, every 200 ms here.
    inbox: { stableMs: 300, intervalMs: 200, damagedAfterMs: 1000, readFsType: async () => 0xff534d42 },
    onState: (state) => {
      states.push(state);
      for (const wake of [...waiters]) wake();
    },
  });
});

afterEach(async () => {
  await host.close();
  await removeFolder(folder);
  await removeFolder(other);
});

describe('inbox host (what the renderer panel sees)', () => {
  it('publishes the waiting scans without paths or hashes, and hands their bytes over', async () => {
    await host.configure(folder, MOVE);
    const path = await putFile(folder, 'sub/w2.pdf');
    const state = await nextState((s) => s.scans.length === 1);
    expect(state.folder).toBe(folder);
    const [scan] = state.scans;
    expect(Object.keys(scan ?? {}).sort()).toEqual(['id', 'mtimeMs', 'name', 'relPath', 'size', 'status']);
    const file = await host.read(scan?.id ?? '');
    expect(file.name).toBe('w2.pdf');
    expect(file.type).toBe('application/pdf');
    expect(Buffer.from(file.bytes)).toEqual(await readFile(path));

    await host.markUploaded(scan?.id ?? '');
    expect(host.state().scans).toEqual([]);
    await expect(readFile(join(folder, 'uploaded', 'sub', 'w2.pdf'))).resolves.toBeDefined();
  });

  it('switches folders when the setting changes and stops when it is cleared', async () => {
    await putFile(other, 'other.png');
    await host.configure(folder, MOVE);
    await host.configure(other, { ...MOVE, afterUpload: 'delete' });
    await nextState((s) => s.folder === other && s.scans.some((scan) => scan.name === 'other.png'));
    await host.configure(null, MOVE);
    expect(host.state()).toEqual({ folder: null, scans: [] });
    await expect(host.read('00000000-0000-4000-8000-000000000000')).rejects.toThrow('No scanner folder');
  });

  it('tells the desk bar how the folder is followed, how many scans wait, and what to dismiss', async () => {
    await host.configure(folder, MOVE);
    expect(host.state().desk).toMatchObject({
      mode: 'poll',
      setting: 'auto',
      network: 'cifs',
      intervalMs: 200,
    });
    await putFile(folder, 'w2.pdf');
    await writeFile(join(folder, 'cut.pdf'), '%PDF-1.7 cut short');
    const listed = await nextState((s) => s.desk?.notices.length === 1 && s.scans.length === 1);
    expect(listed.desk).toMatchObject({
      reachable: true,
      waiting: 1,
      notices: [{ kind: 'damaged', name: 'cut.pdf' }],
    });
    expect(listed.desk?.lastScanAt).toBeGreaterThan(0);
    await host.dismiss(listed.desk?.notices[0]?.id ?? '');
    expect(host.state().desk?.notices).toEqual([]);

    await host.configure(folder, { ...MOVE, folderMode: 'watch' });
    expect(host.state().desk).toMatchObject({ mode: 'watch', setting: 'watch', network: 'cifs' });
    await rename(folder, `${folder}-away`);
    const away = await nextState((s) => s.desk?.reachable === false);
    expect(away.error).toBe('The scanner folder is not reachable.');
    await rename(`${folder}-away`, folder);
    await nextState(
      (s) => s.desk?.reachable === true && s.error === undefined && states.indexOf(s) > states.indexOf(away),
    );
  });

  it('a watched folder renamed away says so on the desk; renamed back it recovers by itself, offering nothing twice', async () => {
    const line = (state: InboxState) =>
      state.desk ? deskStatusLine({ folder: state.folder, ...state.desk }, () => '14:32') : '';
    await host.configure(folder, { ...MOVE, folderMode: 'watch' });
    await putFile(folder, 'w2.pdf');
    const waiting = await nextState((s) => s.scans.length === 1);
    expect(line(waiting)).toBe(`Watching ${folder} · 1 scan waiting · last scan 14:32`);

    await rename(folder, `${folder}-away`);
    const away = await nextState((s) => s.desk?.reachable === false);
    expect(line(away)).toBe('The scanner folder is not reachable.');
    expect(away.scans).toEqual(waiting.scans);
    await putFile(`${folder}-away`, 'while away.pdf');

    await rename(`${folder}-away`, folder);
    const back = await nextState(
      (s) => states.indexOf(s) > states.indexOf(away) && s.desk?.reachable === true && s.scans.length === 2,
    );
    expect(back.error).toBeUndefined();
    expect(line(back)).toBe(`Watching ${folder} · 2 scans waiting · last scan 14:32`);
    expect(back.scans.map((scan) => scan.name)).toEqual(['w2.pdf', 'while away.pdf']);
    expect(back.scans[0]?.id).toBe(waiting.scans[0]?.id);
  });
});
