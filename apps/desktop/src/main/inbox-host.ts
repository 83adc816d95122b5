/**
 * Keeps one scanner inbox running for the configured folder and turns its events into the
 * whole-state snapshots the renderer's panel renders. Plain Node: Electron only forwards them.
 */
import { readFile } from 'node:fs/promises';
import type { DesktopSettings, FileBytes, InboxScan, InboxState } from '../shared/bridge.js';
import { deskTexts } from '../shared/desk-texts.js';
import type { DocumentReader } from '@vita-docs/core';
import {
  createInbox,
  scanContentType,
  type Inbox,
  type InboxEvent,
  type InboxOptions,
  type Scan,
} from './inbox/index.js';
import { createScanReadings, type ScanReading, type ScanReadings } from './scan-readings.js';

/** The settings that shape the inbox. */
export type InboxSettings = Pick<DesktopSettings, 'afterUpload' | 'folderMode' | 'problemScans'>;

/** Options for {@link createInboxHost}. */
export interface InboxHostOptions {
  /** Called with the whole inbox after every change. */
  onState(state: InboxState): void;
  /** Settling window, poll interval, damaged-scan wait, file-system type; tests shorten or stub them. */
  inbox?: Pick<InboxOptions, 'stableMs' | 'intervalMs' | 'damagedAfterMs' | 'readFsType'>;
  /** Makes the reader of new scans; default the kiosk's (core's Node reader, see reader.ts). */
  createReader?: () => Promise<DocumentReader>;
}

/** The kiosk's reader, loaded with the first scan so a desk without scans never loads OCR. */
const nodeReader = async (): Promise<DocumentReader> => (await import('./reader.js')).createKioskReader();

/** The running inbox, swapped when the folder setting changes. */
export interface InboxHost {
  /** (Re)starts the inbox on `folder` (null stops it). Resolves once the folder has been read. */
  configure(folder: string | null, settings: InboxSettings): Promise<void>;
  state(): InboxState;
  /** The scan's bytes for the renderer's upload queue. */
  read(id: string): Promise<FileBytes>;
  /** The absolute path, for main-process helpers like thumbnails. */
  pathOf(id: string): string;
  markUploading(id: string, target: string): Promise<void>;
  markUploaded(id: string): Promise<void>;
  markFailed(id: string, error: string): Promise<void>;
  /** Dismisses a damaged scan or a duplicate listed on the desk. */
  dismiss(id: string): Promise<void>;
  close(): Promise<void>;
}

/** What the renderer may see of a scan: no absolute paths, no hashes. */
function toInboxScan(scan: Scan, reading: ScanReading | undefined): InboxScan {
  const view: InboxScan = {
    id: scan.id,
    name: scan.name,
    relPath: scan.relPath,
    size: scan.size,
    mtimeMs: scan.mtimeMs,
    status: scan.status,
  };
  if (scan.error !== undefined) view.error = scan.error;
  if (scan.duplicateOf) view.duplicateOf = scan.duplicateOf;
  if (reading) view.reading = reading;
  return view;
}

/** Starts an inbox on `folder`, its events told to `onEvent`; a folder that cannot be watched answers why. */
async function startInbox(
  folder: string,
  settings: InboxSettings,
  options: InboxHostOptions,
  onEvent: (event: InboxEvent) => void,
): Promise<{ inbox: Inbox; unsubscribe: () => void } | { error: string }> {
  const inbox = createInbox({
    ...options.inbox,
    folder,
    afterUpload: settings.afterUpload,
    mode: settings.folderMode,
    problemScans: settings.problemScans,
  });
  const unsubscribe = inbox.subscribe(onEvent);
  try {
    await inbox.start();
    return { inbox, unsubscribe };
  } catch (error) {
    unsubscribe();
    await inbox.close();
    return { error: `Cannot watch ${folder}: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** What the renderer and main's helpers do with one scan of the running inbox. */
function scanAccess(
  current: () => Inbox,
): Pick<InboxHost, 'read' | 'pathOf' | 'markUploading' | 'markUploaded' | 'markFailed' | 'dismiss'> {
  const scan = (id: string): Scan => {
    const found = current().get(id);
    if (!found) throw new Error('This scan is no longer in the inbox.');
    return found;
  };
  return {
    async read(id) {
      const { name, path } = scan(id);
      const bytes = await readFile(path);
      return {
        name,
        type: scanContentType(name),
        bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      };
    },
    pathOf: (id) => scan(id).path,
    async markUploading(id, target) {
      await current().markUploading(id, target);
    },
    async markUploaded(id) {
      await current().markUploaded(id);
    },
    async markFailed(id, error) {
      await current().markFailed(id, error);
    },
    dismiss: (id) => current().dismiss(id),
  };
}

/** The whole state the page sees: the panel's snapshot and the desk bar's status. */
function stateOf(
  folder: string | null,
  inbox: Inbox | null,
  lastError: string | undefined,
  readings: ScanReadings,
): InboxState {
  const scans = inbox ? inbox.list().map((scan) => toInboxScan(scan, readings.get(scan.id))) : [];
  const snapshot: InboxState = { folder, scans };
  if (inbox) {
    const { mode, setting, network, intervalMs, reachable, lastScanAt } = inbox.status();
    const notices = inbox
      .notices()
      .map(({ id, kind, name, relPath, duplicateOf }) =>
        duplicateOf === undefined ? { id, kind, name, relPath } : { id, kind, name, relPath, duplicateOf },
      );
    snapshot.desk = {
      mode,
      setting,
      network,
      intervalMs,
      reachable,
      lastScanAt,
      waiting: scans.length,
      notices,
    };
    // The panel on the category screen shows it too, in place of an older problem.
    if (!reachable) snapshot.error = deskTexts.notReachable;
  }
  if (lastError !== undefined && snapshot.error === undefined) snapshot.error = lastError;
  return snapshot;
}

/** Creates the host; nothing is watched until {@link InboxHost.configure}. */
export function createInboxHost(options: InboxHostOptions): InboxHost {
  let inbox: Inbox | null = null;
  let folder: string | null = null;
  let mode: InboxSettings['folderMode'] | null = null;
  let lastError: string | undefined;
  let unsubscribe: () => void = () => {};
  // Reconfigurations queue so two quick saves never leave two watchers on one folder.
  let switching: Promise<void> = Promise.resolve();

  const state = (): InboxState => stateOf(folder, inbox, lastError, readings);
  const publish = (): void => options.onState(state());
  // Reading is always on: the kiosk has no switch for it yet; consult one here when it has.
  const readings = createScanReadings({ createReader: options.createReader ?? nodeReader, onRead: publish });
  const follow = (event: InboxEvent): void => {
    if (event.type === 'error') lastError = event.message;
    if (event.type === 'added') readings.add(event.scan.id, event.scan.path);
    if (event.type === 'removed') readings.forget(event.id);
    publish();
  };

  const stop = async (): Promise<void> => {
    unsubscribe();
    unsubscribe = () => {};
    await inbox?.close();
    inbox = null;
  };

  const reconfigure = async (nextFolder: string | null, settings: InboxSettings) => {
    if (inbox && nextFolder === folder && settings.folderMode === mode) {
      inbox.setAfterUpload(settings.afterUpload);
      inbox.setProblemScans(settings.problemScans);
      publish();
      return;
    }
    await stop();
    folder = nextFolder;
    mode = settings.folderMode;
    lastError = undefined;
    if (nextFolder !== null) {
      const started = await startInbox(nextFolder, settings, options, follow);
      if ('error' in started) lastError = started.error;
      else ({ inbox, unsubscribe } = started);
    }
    publish();
  };

  return {
    configure(nextFolder, settings) {
      switching = switching.then(() => reconfigure(nextFolder, settings));
      return switching;
    },
    state,
    ...scanAccess(() => {
      if (!inbox) throw new Error('No scanner folder is set.');
      return inbox;
    }),
    async close() {
      await switching;
      await stop();
      await readings.close();
    },
  };
}
