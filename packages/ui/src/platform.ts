import type {
  Dialogs,
  FileLike,
  FileSaver,
  InboxScanView,
  PutFile,
  ScannerInbox,
  ScannerInboxSnapshot,
} from '@vita-docs/core';

export type { InboxScanView, ScannerInbox, ScannerInboxSnapshot };

/** What a drop onto the window expanded to (folders opened, unsupported files left out). */
export interface ExpandedDrop {
  files: FileLike[];
  /** Names of dropped items that are not supported files. */
  skipped: string[];
}

/**
 * What the screens need from the host they run in, injected so the same screens run in a browser
 * tab and in the desktop app.
 *
 * Picking files and the camera are not here: `<input type="file">` (with `capture` for the camera)
 * works in every host, including Electron, and keeps the native pickers. The optional members are
 * what only some hosts have (the desktop app); the screens hide what a host does not provide.
 */
export interface Platform extends Dialogs, FileSaver {
  /**
   * The direct PUT of a file to a presigned URL, with per-byte progress. Browsers need
   * `XMLHttpRequest` for upload progress (`createXhrPutFile`); a host may route it elsewhere.
   */
  putFile: PutFile;
  /** A scanner inbox; the category screen shows its panel only when the host has one. */
  scannerInbox?: ScannerInbox;
  /**
   * Opens dropped folders (recursively) into their supported files. Without it a drop adds the
   * dropped files themselves and ignores folders (a browser page cannot read a folder's path).
   */
  expandDrop?(files: readonly File[]): Promise<ExpandedDrop>;
  /**
   * Saves the season's archive where the person chooses, streamed from the server by the host (the
   * desktop app, whose pages cannot follow a link to its server); the saved file's path, or null when
   * cancelled. Without it the screen offers a plain download link.
   */
  saveSeasonArchive?(year: number): Promise<string | null>;
  /**
   * The folder the host serves the document reader's files from (`/ocr`). Without it documents are
   * not read on the device (docs/behaviour.md#reading-documents).
   */
  readerFolder?: string;
}
