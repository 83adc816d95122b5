/**
 * Dropped files by token. The renderer never names a path to read: main expands the drop, hands
 * out one random token per vetted file, and reads only files it handed a token for.
 */
import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { DropResult, FileBytes } from '../shared/bridge.js';
import { expandDroppedPaths } from './drop.js';
import { scanContentType } from './inbox/rules.js';

/** Tokens older drops handed out stay readable up to this many files (a queue is rarely longer). */
const MAX_TOKENS = 2000;

/** The registry of dropped files for one window. */
export interface DropRegistry {
  /** Expands dropped paths (folders recursively) and registers each supported file. */
  expand(paths: readonly string[]): Promise<DropResult>;
  read(token: string): Promise<FileBytes>;
}

/** Creates an empty registry. */
export function createDropRegistry(): DropRegistry {
  const files = new Map<string, string>();
  return {
    async expand(paths) {
      const expanded = await expandDroppedPaths(paths);
      const result: DropResult = {
        files: [],
        skipped: expanded.skipped.map((p) => basename(p)),
        truncated: expanded.truncated,
      };
      for (const path of expanded.files) {
        const size = await stat(path).then(
          (s) => s.size,
          () => null,
        );
        if (size === null) continue;
        const token = `drop-${randomBytes(16).toString('hex')}`;
        if (files.size >= MAX_TOKENS) files.delete(files.keys().next().value ?? '');
        files.set(token, path);
        result.files.push({ token, name: basename(path), size });
      }
      return result;
    },
    async read(token) {
      const path = files.get(token);
      if (!path) throw new Error('This dropped file is no longer available; drop it again.');
      const bytes = await readFile(path);
      const name = basename(path);
      return {
        name,
        type: scanContentType(name),
        bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      };
    },
  };
}
