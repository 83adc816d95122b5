/** The scanner inbox of a desk (the desktop app; docs/behaviour.md#scanner-inbox-panel): the port the host gives. */
import type { FileLike } from '../../ports.js';
import type { ScannerInboxSnapshot } from './inbox-snapshot.js';

/**
 * The scanner inbox of a desk. A scan leaves the inbox only through {@link ScannerInbox.markUploaded},
 * which the screens call once the server confirmed the upload.
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
