/**
 * The contract between the renderer and the main process: the `DesktopBridge` the preload exposes
 * as `window.vitaDesktop`, and the IPC channel names. Types only (plus the channel table), so the
 * sandboxed preload bundle stays tiny; the zod schemas that main applies live in `schemas.ts`.
 */
import type { InboxScanView, ScannerInboxSnapshot } from '@vita-docs/ui/inbox-snapshot';
import type { z } from 'zod';
import type {
  FolderModeSchema,
  JournalEntrySchema,
  ApiRequestSchema,
  ApiResponseSchema,
  DesktopSettingsSchema,
  SettingsInputSchema,
} from './schemas.js';

export type FolderMode = z.infer<typeof FolderModeSchema>;
export type DesktopSettings = z.infer<typeof DesktopSettingsSchema>;
export type SettingsInput = z.input<typeof SettingsInputSchema>;
export type ApiRequest = z.infer<typeof ApiRequestSchema>;
export type ApiResponse = z.infer<typeof ApiResponseSchema>;
export type KeptEntry = z.infer<typeof JournalEntrySchema>;

/** The signed-in person's files kept on the desk (bytes are read one by one with `readKeptUpload`). */
export interface KeptUploads {
  files: Array<{ entry: KeptEntry; savedAt: number }>;
  /** Kept by name only: the person must choose them again. */
  lost: KeptEntry[];
  /** How many of their files another person's sign-in on this desk deleted. */
  deletedForOthers: number;
}

/**
 * The scanner inbox as the "Scanner inbox" panel shows it: the panel's own types from `@vita-docs/ui`
 * (a scan: name, path inside the watched folder, size, time, status, duplicate; the inbox: folder,
 * scans, watcher error), so main sends exactly what the renderer's panel reads.
 */
export type InboxScan = InboxScanView;

/** A file listed on the desk for someone to look at and dismiss: damaged, or a duplicate of an uploaded scan. */
export interface DeskNotice {
  id: string;
  kind: 'damaged' | 'duplicate';
  name: string;
  relPath: string;
  /** For a duplicate: the uploaded scan's name. */
  duplicateOf?: string;
}

/** How the desk follows its scanner folder, for the desk bar and the settings screen. */
export interface DeskInboxStatus {
  /** The mode in use, and the setting it came from (`auto` picks `poll` on a network share). */
  mode: 'watch' | 'poll';
  setting: FolderMode;
  /** The network file system found (`cifs`, `nfs`, `unc` …), or null. */
  network: string | null;
  intervalMs: number;
  reachable: boolean;
  waiting: number;
  lastScanAt: number | null;
  notices: DeskNotice[];
}

/** The panel's snapshot plus what the desk bar shows (absent while no folder is watched). */
export type InboxState = ScannerInboxSnapshot & { desk?: DeskInboxStatus };

/** A file's bytes handed to the renderer so it can follow the normal upload flow. */
export interface FileBytes {
  name: string;
  type: string;
  bytes: Uint8Array;
}

/** A dropped file main has vetted; read its bytes with `readDroppedFile(token)`. */
export interface DroppedFile {
  token: string;
  name: string;
  size: number;
}

/** What a drop of files and folders expanded to. */
export interface DropResult {
  files: DroppedFile[];
  /** Names of dropped items that are not supported files. */
  skipped: string[];
  /** True when the drop held more files than one drop may queue. */
  truncated: boolean;
}

/**
 * Whether the settings screen may change the desk's settings, as main decided it (the renderer's
 * idea of who is signed in counts for nothing).
 */
export interface SettingsAccess {
  /** True on first run, and for an admin signed in on the configured server. */
  allowed: boolean;
  /** True when the settings come from the computer's managed settings file (never changed here). */
  managed: boolean;
  /** The managed file's path, when `managed`. */
  managedFile?: string;
  /** Why not, when not allowed: a sentence to show as it is. */
  reason?: string;
  /** When the managed file cannot be used: what is wrong with it (the desk then talks to no server). */
  problem?: string;
}

/**
 * Everything the renderer may ask of the desktop shell. Named methods only: no generic `invoke`,
 * no `ipcRenderer`, no paths chosen by the renderer.
 */
export interface DesktopBridge {
  getSettings(): Promise<DesktopSettings>;
  /**
   * Validates and saves; restarts the inbox on a new folder. Rejects with a message a person can act
   * on, also when this desk's settings may not be changed now (see `settingsAccess`).
   */
  saveSettings(settings: SettingsInput): Promise<DesktopSettings>;
  /** Whether `saveSettings` would be allowed now (main asks the configured server who is signed in). */
  settingsAccess(): Promise<SettingsAccess>;
  /** Opens the system folder picker; null when cancelled. */
  chooseFolder(): Promise<string | null>;
  /** The API transport: main sends the request to the configured server with the desk's cookies. */
  apiFetch(request: ApiRequest): Promise<ApiResponse>;
  getInbox(): Promise<InboxState>;
  /** Calls `listener` with the whole inbox on every change; returns the unsubscribe function. */
  onInboxChanged(listener: (state: InboxState) => void): () => void;
  readScan(id: string): Promise<FileBytes>;
  /** A small data: URL preview (images and, where the OS can, PDFs); null when none. */
  scanThumbnail(id: string): Promise<string | null>;
  markScanUploading(id: string, target: string): Promise<void>;
  markScanUploaded(id: string): Promise<void>;
  markScanFailed(id: string, error: string): Promise<void>;
  /** Dismisses a damaged scan or a duplicate listed on the desk (never listed nor offered again). */
  dismissScanNotice(id: string): Promise<void>;
  /** Expands the `File`s of a drop event (folders included) to supported files. */
  expandDrop(files: readonly unknown[]): Promise<DropResult>;
  readDroppedFile(token: string): Promise<FileBytes>;
  /**
   * Opens the kept uploads of `owner`, who must be the person the server says is signed in on this
   * desk (main asks it). Anyone else's kept files are deleted (and they are told on their next sign-in).
   */
  openKeptUploads(owner: string): Promise<KeptUploads>;
  readKeptUpload(id: string): Promise<FileBytes>;
  /** Keeps a queued file on the desk's disk until it is uploaded (for the person last opened). */
  keepUpload(file: { entry: KeptEntry; bytes: Uint8Array }): Promise<void>;
  forgetKeptUpload(id: string): Promise<void>;
  /** Deletes every kept file of the desk (sign-out). */
  deleteKeptUploads(): Promise<void>;
  /**
   * Asks where to save the season's archive (every client's documents) and streams it there from the
   * server: the saved file's path, or null when the person cancelled.
   */
  saveSeasonArchive(year: number): Promise<string | null>;
}

/** IPC channel per bridge method (invoke/handle), plus the one main → renderer event. */
export const channels = {
  getSettings: 'settings:get',
  saveSettings: 'settings:save',
  settingsAccess: 'settings:access',
  chooseFolder: 'settings:choose-folder',
  apiFetch: 'api:fetch',
  getInbox: 'inbox:get',
  inboxChanged: 'inbox:changed',
  readScan: 'inbox:read',
  scanThumbnail: 'inbox:thumbnail',
  markScanUploading: 'inbox:uploading',
  markScanUploaded: 'inbox:uploaded',
  markScanFailed: 'inbox:failed',
  dismissScanNotice: 'inbox:dismiss',
  expandDrop: 'drop:expand',
  readDroppedFile: 'drop:read',
  openKeptUploads: 'kept:open',
  readKeptUpload: 'kept:read',
  keepUpload: 'kept:keep',
  forgetKeptUpload: 'kept:forget',
  deleteKeptUploads: 'kept:delete',
  saveSeasonArchive: 'season:save-archive',
} as const;

/** Name under which the preload exposes the bridge: `window.vitaDesktop`. */
export const BRIDGE_GLOBAL = 'vitaDesktop';
