import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InboxState } from '../shared/bridge.js';
import { deskStatusLine } from '../shared/desk-texts.js';
import { inboxHostWorld, MOVE, putFile, removeFolder, tempFolder } from './inbox/test-support.js';

const world = inboxHostWorld();
const { nextState } = world;
/** A second folder, for switching to. */
let other: string;

beforeEach(async () => {
  other = await tempFolder();
});

afterEach(async () => {
  await removeFolder(other);
});

describe('inbox host (what the renderer panel sees)', () => {
  it('publishes the waiting scans without paths or hashes, and hands their bytes over', async () => {
    await world.host.configure(world.folder, MOVE);
    const path = await putFile(world.folder, 'sub/w2.pdf');
    const state = await nextState((s) => s.scans.length === 1);
    expect(state.folder).toBe(world.folder);
    const [scan] = state.scans;
    expect(Object.keys(scan ?? {}).sort()).toEqual(['id', 'mtimeMs', 'name', 'relPath', 'size', 'status']);
    const file = await world.host.read(scan?.id ?? '');
    expect(file.name).toBe('w2.pdf');
    expect(file.type).toBe('application/pdf');
    expect(Buffer.from(file.bytes)).toEqual(await readFile(path));

    await world.host.markUploaded(scan?.id ?? '');
    expect(world.host.state().scans).toEqual([]);
    await expect(readFile(join(world.folder, 'uploaded', 'sub', 'w2.pdf'))).resolves.toBeDefined();
  });

  it('switches folders when the setting changes and stops when it is cleared', async () => {
    await putFile(other, 'other.png');
    await world.host.configure(world.folder, MOVE);
    await world.host.configure(other, { ...MOVE, afterUpload: 'delete' });
    await nextState((s) => s.folder === other && s.scans.some((scan) => scan.name === 'other.png'));
    await world.host.configure(null, MOVE);
    expect(world.host.state()).toEqual({ folder: null, scans: [] });
    await expect(world.host.read('00000000-0000-4000-8000-000000000000')).rejects.toThrow(
      'No scanner folder',
    );
  });

  it('tells the desk bar how the folder is followed, how many scans wait, and what to dismiss', async () => {
    await world.host.configure(world.folder, MOVE);
    expect(world.host.state().desk).toMatchObject({
      mode: 'poll',
      setting: 'auto',
      network: 'cifs',
      intervalMs: 200,
    });
    await putFile(world.folder, 'w2.pdf');
    await writeFile(join(world.folder, 'cut.pdf'), '%PDF-1.7 cut short');
    const listed = await nextState((s) => s.desk?.notices.length === 1 && s.scans.length === 1);
    expect(listed.desk).toMatchObject({
      reachable: true,
      waiting: 1,
      notices: [{ kind: 'damaged', name: 'cut.pdf' }],
    });
    expect(listed.desk?.lastScanAt).toBeGreaterThan(0);
    await world.host.dismiss(listed.desk?.notices[0]?.id ?? '');
    expect(world.host.state().desk?.notices).toEqual([]);

    await world.host.configure(world.folder, { ...MOVE, folderMode: 'watch' });
    expect(world.host.state().desk).toMatchObject({ mode: 'watch', setting: 'watch', network: 'cifs' });
    await rename(world.folder, `${world.folder}-away`);
    const away = await nextState((s) => s.desk?.reachable === false);
    expect(away.error).toBe('The scanner folder is not reachable.');
    await rename(`${world.folder}-away`, world.folder);
    await nextState(
      (s) =>
        s.desk?.reachable === true &&
        s.error === undefined &&
        world.states.indexOf(s) > world.states.indexOf(away),
    );
  });

  it('a watched folder renamed away says so on the desk; renamed back it recovers by itself, offering nothing twice', async () => {
    const line = (state: InboxState) =>
      state.desk ? deskStatusLine({ folder: state.folder, ...state.desk }, () => '14:32') : '';
    await world.host.configure(world.folder, { ...MOVE, folderMode: 'watch' });
    await putFile(world.folder, 'w2.pdf');
    const waiting = await nextState((s) => s.scans.length === 1);
    expect(line(waiting)).toBe(`Watching ${world.folder} · 1 scan waiting · last scan 14:32`);

    await rename(world.folder, `${world.folder}-away`);
    const away = await nextState((s) => s.desk?.reachable === false);
    expect(line(away)).toBe('The scanner folder is not reachable.');
    expect(away.scans).toEqual(waiting.scans);
    await putFile(`${world.folder}-away`, 'while away.pdf');

    await rename(`${world.folder}-away`, world.folder);
    const back = await nextState(
      (s) =>
        world.states.indexOf(s) > world.states.indexOf(away) &&
        s.desk?.reachable === true &&
        s.scans.length === 2,
    );
    expect(back.error).toBeUndefined();
    expect(line(back)).toBe(`Watching ${world.folder} · 2 scans waiting · last scan 14:32`);
    expect(back.scans.map((scan) => scan.name)).toEqual(['w2.pdf', 'while away.pdf']);
    expect(back.scans[0]?.id).toBe(waiting.scans[0]?.id);
  });
});
