import type { Dialogs, FileLike, PutFile } from '@vita-docs/core';
import type { InboxScanView, ScannerInboxSnapshot } from './inbox-snapshot';

export type { InboxScanView, ScannerInboxSnapshot };

/**
 * The scanner inbox of a desk (the desktop app). A scan leaves the inbox only through
 * {@link ScannerInbox.markUploaded}, which the screens call once the server confirmed the upload.
 */
export interface ScannerInbox {
  getInbox(): Promise<ScannerInboxSnapshot>;
  /** Calls `listener` with the whole inbox on every change; returns the unsubscribe function. */
  subscribe(listener: (snapshot: ScannerInboxSnapshot) => void): () => void;
  /** The scan's bytes as a file for the upload queue. */
  readScan(id: string): Promise<FileLike>;
  /** A small preview (a data: URL), or null when the host has none. */
  thumbnail(id: string): Promise<string | null>;
  /** An upload of the scan to `target` starts (lets the host avoid a double upload after a restart). */
  markUploading(id: string, target: string): Promise<void>;
  /** The server confirmed the upload: the host moves the scan out of the inbox. */
  markUploaded(id: string): Promise<void>;
  /** The upload failed: the scan stays in the inbox with `error`. */
  markFailed(id: string, error: string): Promise<void>;
}

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
export interface Platform extends Dialogs {
  /**
   * The direct PUT of a file to a presigned URL, with per-byte progress. Browsers need
   * `XMLHttpRequest` for upload progress (`createXhrPutFile`); a host may route it elsewhere.
   */
  putFile: PutFile;
  /**
   * Saves bytes as a file the person keeps (a browser download, a save dialog on the desktop).
   * Resolves once the host has taken the data.
   */
  saveFile(name: string, data: Blob): Promise<void>;
  /** A scanner inbox; the category screen shows its panel only when the host has one. */
  scannerInbox?: ScannerInbox;
  /**
   * Opens dropped folders (recursively) into their supported files. Without it a drop adds the
   * dropped files themselves and ignores folders (a browser page cannot read a folder's path).
   */
  expandDrop?(files: readonly File[]): Promise<ExpandedDrop>;
}
