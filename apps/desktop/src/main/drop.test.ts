import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expandDroppedPaths } from './drop.js';
import { putFile, removeFolder, tempFolder } from './inbox/test-support.js';

let folder: string;
beforeEach(async () => {
  folder = await tempFolder('vita-drop-');
});
afterEach(() => removeFolder(folder));

describe('folder drop', () => {
  it('expands dropped folders recursively to supported files, skipping what the inbox ignores', async () => {
    for (const name of [
      'box/a.pdf',
      'box/b.JPG',
      'box/sub/c.heic',
      'box/sub/deeper/d.tif',
      'box/notes.txt',
      'box/.hidden.pdf',
      'box/Thumbs.db',
      'box/scan.pdf.~tmp',
      'box/uploaded/old.pdf',
      'box/.git/x.pdf',
      'loose.png',
      'readme.md',
    ]) {
      await putFile(folder, name);
    }
    await symlink(join(folder, 'box'), join(folder, 'box', 'sub', 'loop'));

    const dropped = await expandDroppedPaths([
      join(folder, 'box'),
      join(folder, 'loose.png'),
      join(folder, 'readme.md'),
    ]);
    expect(dropped.files).toEqual([
      join(folder, 'box', 'a.pdf'),
      join(folder, 'box', 'b.JPG'),
      join(folder, 'box', 'sub', 'c.heic'),
      join(folder, 'box', 'sub', 'deeper', 'd.tif'),
      join(folder, 'loose.png'),
    ]);
    expect(dropped.skipped).toEqual([join(folder, 'readme.md')]);
    expect(dropped.truncated).toBe(false);
  });

  it('lists a file once when dropped both alone and inside its folder, and skips missing paths', async () => {
    const file = await putFile(folder, 'box/a.pdf');
    const dropped = await expandDroppedPaths([file, join(folder, 'box'), join(folder, 'gone')]);
    expect(dropped.files).toEqual([file]);
    expect(dropped.skipped).toEqual([join(folder, 'gone')]);
  });

  it('stops at the file limit and says so', async () => {
    for (let n = 0; n < 5; n += 1) await putFile(folder, `box/${n}.png`);
    const dropped = await expandDroppedPaths([join(folder, 'box')], { maxFiles: 3 });
    expect(dropped.files).toHaveLength(3);
    expect(dropped.truncated).toBe(true);
  });
});
