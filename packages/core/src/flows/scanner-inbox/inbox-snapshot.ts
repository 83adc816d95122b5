/**
 * The scanner inbox as data (docs/behaviour.md#scanner-inbox-panel): what a desk's host hands the
 * "Scanner inbox" panel. No imports, so the desktop app's main process and preload (no DOM) can use
 * the same types for the IPC payload (`@vita-docs/core/inbox-snapshot`).
 */

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
  /**
   * What the device read on the scan (docs/behaviour.md#reading-documents), once read; absent while
   * unread and when nothing was recognised. Never more of an ID than its expiry date (`YYYY-MM-DD`).
   */
  reading?: { form?: string; year?: number; idExpiry?: string };
}

/** The whole inbox: what the panel renders. `error` is the watcher's last problem, if any. */
export interface ScannerInboxSnapshot {
  folder: string | null;
  scans: readonly InboxScanView[];
  error?: string;
}
