import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InboxState } from '../shared/bridge.js';
import { createInboxHost, type InboxHost } from './inbox-host.js';
import { putFile, removeFolder, tempFolder } from './inbox/test-support.js';

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
    await host.configure(folder, 'move');
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
    await host.configure(folder, 'move');
    await host.configure(other, 'delete');
    await nextState((s) => s.folder === other && s.scans.some((scan) => scan.name === 'other.png'));
    await host.configure(null, 'move');
    expect(host.state()).toEqual({ folder: null, scans: [] });
    await expect(host.read('00000000-0000-4000-8000-000000000000')).rejects.toThrow('No scanner folder');
  });
});
