/**
 * The local store's names: which files there are (a listing, a walk of the whole tree), and copying
 * and deleting them. Only names a valid document key could have written are ever listed.
 */
import { readdir, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { isClientId, parseDocKey } from '@vita-docs/core/contract';
import { assertPrefix } from './keys.js';
import { categoryFromDir, isMissing, objectPath, prefixPath } from './local-layout.js';
import { describe } from './local-read.js';
import type { LocalState } from './local-state.js';
import { copyObject } from './local-write.js';
import { fileGone, type StoredObject } from './types.js';

/** A directory's names; none when it is not there. */
async function namesIn(dir: string): Promise<string[]> {
  return readdir(dir).catch((error: unknown) => {
    if (isMissing(error)) return [];
    throw error;
  });
}

async function listCategory(
  state: LocalState,
  clientId: string,
  encodedDocType: string,
  dir: string,
): Promise<StoredObject[]> {
  const names = await namesIn(dir);
  const found = await Promise.all(
    names
      .filter((name) => !name.startsWith('.'))
      .map((name) => `${clientId}/${encodedDocType}/${name}`)
      // Only what could have been written through a valid key is listed.
      .filter((key) => parseDocKey(key) !== null)
      .map((key) => describe(state, key)),
  );
  return found.filter((item): item is StoredObject => item !== null);
}

/** Every file under `prefix` (a client, or one of its categories), in key order. */
export async function listObjects(state: LocalState, prefix: string): Promise<StoredObject[]> {
  const { root } = state;
  const { clientId, encodedDocType } = assertPrefix(prefix);
  let items: StoredObject[];
  if (encodedDocType !== null) {
    items = await listCategory(state, clientId, encodedDocType, prefixPath(root, clientId, encodedDocType));
  } else {
    const clientDir = prefixPath(root, clientId, null);
    const nested = await Promise.all(
      (await namesIn(clientDir)).map(async (dir) => {
        const encoded = await categoryFromDir(clientDir, dir);
        return encoded === null ? [] : listCategory(state, clientId, encoded, path.join(clientDir, dir));
      }),
    );
    items = nested.flat();
  }
  return items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Every document file under `root`, client by client, with its size on disk (see `ObjectStore.walk`). */
export async function* walkObjects(
  root: string,
): AsyncGenerator<{ key: string; size: number; lastModified: Date }> {
  for (const clientId of (await namesIn(root)).filter(isClientId).sort()) {
    const clientDir = prefixPath(root, clientId, null);
    for (const dir of (await readdir(clientDir).catch(() => [] as string[])).sort()) {
      const encoded = await categoryFromDir(clientDir, dir);
      if (encoded === null) continue;
      for (const name of (await readdir(path.join(clientDir, dir)).catch(() => [] as string[])).sort()) {
        const key = `${clientId}/${encoded}/${name}`;
        if (name.startsWith('.') || parseDocKey(key) === null) continue;
        // The size on disk (an encrypted file's is larger than its plaintext): nothing is opened here.
        const info = await stat(path.join(clientDir, dir, name)).catch(() => null);
        if (info?.isFile()) yield { key, size: info.size, lastModified: info.mtime };
      }
    }
  }
}

/** Copies `from` to `to` (see `copyObject`): `not_found` when `from` is not there, `damaged` when it fails its check. */
export async function copyStored(state: LocalState, from: string, to: string): Promise<void> {
  await copyObject(state.root, from, to, state.encryption).catch((error: unknown) => {
    throw isMissing(error) ? fileGone() : state.asDamaged(from, error);
  });
}

/** Deletes the files of `keys`; those already gone are not an error. */
export async function deleteObjects(state: LocalState, keys: readonly string[]): Promise<void> {
  const files = keys.map((key) => objectPath(state.root, key));
  await state.exclusive(() =>
    Promise.all(
      files.map((file) =>
        unlink(file).catch((error: unknown) => {
          if (!isMissing(error)) throw error;
        }),
      ),
    ),
  );
}

/** Deletes everything under `prefix`; returns how many documents were listed there. */
export async function deletePrefix(state: LocalState, prefix: string): Promise<number> {
  const { clientId, encodedDocType } = assertPrefix(prefix);
  const count = (await listObjects(state, prefix)).length;
  await state.exclusive(() =>
    rm(prefixPath(state.root, clientId, encodedDocType), { recursive: true, force: true }),
  );
  return count;
}
