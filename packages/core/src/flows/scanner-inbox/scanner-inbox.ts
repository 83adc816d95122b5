/**
 * The scanner inbox of a desk (the desktop app; docs/behaviour.md#scanner-inbox-panel): a port the host
 * gives, and the data it hands over. Type-only, so the desktop app's main process and preload can use
 * the same types for the IPC payload.
 */
import type { FileLike } from '../../ports.js';

/** A scan waiting in the host's scanner inbox (a folder the desk's scanner saves into). */
export interface InboxScanView {
  id: string;
  name: string;
  /** Where it sits in the watched folder, `/`-separated (scanners may use sub-folders). */
  relPath: string;
  size: number;
  /** When the scanner wrote it (ms since the epoch). */
  mtimeMs: number;
  /** `uploading`: an upload is under way (here or in another window); `failed`: the last upload failed. */
  status: 'waiting' | 'uploading' | 'failed';
  /** Why the last upload failed. */
  error?: string;
  /** Same bytes as another scan (sha256), uploaded already or still waiting. */
  duplicateOf?: { id: string; name: string; uploaded: boolean };
}

/** The whole inbox: what the panel renders. `error` is the watcher's last problem, if any. */
export interface ScannerInboxSnapshot {
  folder: string | null;
  scans: readonly InboxScanView[];
  error?: string;
}

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
