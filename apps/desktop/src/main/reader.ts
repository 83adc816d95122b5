/**
 * The kiosk's document reader: core's Node reader. The package ships no node_modules, so the files
 * the reader loads at run time (OCR worker script, wasm, English data) are copied by the desktop
 * build into dist/reader/ and named here; run from source (tests, tsx) they come from node_modules.
 * The build makes this module an entry of its own (dist/main/reader.js) so a test can load the
 * reader the package ships without Electron.
 */
import { fileURLToPath } from 'node:url';
import type { DocumentReader } from '@vita-docs/core';
import { createNodeReader } from '@vita-docs/core/node';

/** Set by the desktop build (Vite `define`): the reader files' folder, relative to this module. */
declare const VITA_READER_FILES: string | undefined;

/** The folder of the reader's files in a build, undefined from source. */
function readerFiles(): string | undefined {
  if (typeof VITA_READER_FILES === 'undefined') return undefined;
  const folder = fileURLToPath(new URL(VITA_READER_FILES, import.meta.url));
  // Packaged, they lie beside the asar archive (electron-builder's asarUnpack): the OCR worker
  // thread and the wasm loaders read them with plain fs, which cannot look inside an archive.
  return folder.replace(/\.asar(?=[\\/])/, '.asar.unpacked');
}

/** Creates the reader of new scans (its OCR worker starts with the first image). */
export function createKioskReader(): DocumentReader {
  const files = readerFiles();
  return createNodeReader(files === undefined ? {} : { files });
}
