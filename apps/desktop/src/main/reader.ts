/**
 * The kiosk's document reader: core's Node reader. The package ships no node_modules, so the files
 * the reader loads at run time (OCR worker script, wasm, English data) are copied by the desktop
 * build into dist/reader/ and named here; run from source (tests, tsx) they come from node_modules.
 * Those files lie outside the integrity-checked asar archive, so the build also puts their SHA-256
 * hashes into this module (inside the archive) and the reader loads no file that does not match.
 * The build makes this module an entry of its own (dist/main/reader.js) so a test can load the
 * reader the package ships without Electron.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DocumentReader } from '@vita-docs/core';
import { createNodeReader } from '@vita-docs/core/node';

/** Set by the desktop build (Vite `define`): the reader files' folder, relative to this module. */
declare const VITA_READER_FILES: string | undefined;
/** Set by the desktop build: the SHA-256 (hex) of each file in that folder, by name. */
declare const VITA_READER_SHA256: Readonly<Record<string, string>> | undefined;

/** Set by the desktop build: the reader host's bundle, relative to this module (in the asar). */
declare const VITA_READER_HOST: string | undefined;

/**
 * The reader host's code in a build, undefined from source. It lies beside this module, inside the
 * integrity-checked asar archive, from which a worker thread cannot load a script by path: its text
 * is read here and the host thread runs that.
 */
function readerHostCode(): string | undefined {
  if (typeof VITA_READER_HOST === 'undefined') return undefined;
  return readFileSync(fileURLToPath(new URL(VITA_READER_HOST, import.meta.url)), 'utf8');
}

/** The folder of the reader's files in a build, undefined from source. */
function readerFiles(): string | undefined {
  if (typeof VITA_READER_FILES === 'undefined') return undefined;
  const folder = fileURLToPath(new URL(VITA_READER_FILES, import.meta.url));
  // Packaged, they lie beside the asar archive (electron-builder's asarUnpack): the OCR worker
  // thread and the wasm loaders read them with plain fs, which cannot look inside an archive.
  return folder.replace(/\.asar(?=[\\/])/, '.asar.unpacked');
}

/**
 * Creates the reader of new scans (its OCR worker starts with the first image). A reader file
 * changed since the build is not loaded: what needs it reads nothing (the scan still uploads) and
 * `warn` (main's log) is told which file, once.
 */
export function createKioskReader(warn: (message: string) => void = console.warn): DocumentReader {
  const files = readerFiles();
  if (files === undefined) return createNodeReader();
  const sha256 = typeof VITA_READER_SHA256 === 'undefined' ? {} : VITA_READER_SHA256;
  return createNodeReader({
    files,
    hostCode: readerHostCode(),
    verify(name, bytes) {
      if (createHash('sha256').update(bytes).digest('hex') === sha256[name]) return true;
      warn(
        `Document reading: ${join(files, name)} does not match the file this build shipped; it was not loaded, and scans that need it upload unread.`,
      );
      return false;
    },
  });
}
