/**
 * Keeps one scanner inbox running for the configured folder and turns its events into the
 * whole-state snapshots the renderer's panel renders. Plain Node: Electron only forwards them.
 */
import { readFile } from 'node:fs/promises';
import type { AfterUpload, FileBytes, InboxScan, InboxState } from '../shared/bridge.js';
import { createInbox, scanContentType, type Inbox, type Scan } from './inbox/index.js';

/** Options for {@link createInboxHost}. */
export interface InboxHostOptions {
  /** Called with the whole inbox after every change. */
  onState(state: InboxState): void;
  /** Settling window; tests shorten it. */
  stableMs?: number;
}

/** The running inbox, swapped when the folder setting changes. */
export interface InboxHost {
  /** (Re)starts the inbox on `folder` (null stops it). Resolves once the folder has been read. */
  configure(folder: string | null, afterUpload: AfterUpload): Promise<void>;
  state(): InboxState;
  /** The scan's bytes for the renderer's upload queue. */
  read(id: string): Promise<FileBytes>;
  /** The absolute path, for main-process helpers like thumbnails. */
  pathOf(id: string): string;
  markUploading(id: string, target: string): Promise<void>;
  markUploaded(id: string): Promise<void>;
  markFailed(id: string, error: string): Promise<void>;
  close(): Promise<void>;
}

/** What the renderer may see of a scan: no absolute paths, no hashes. */
function toInboxScan(scan: Scan): InboxScan {
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
  return view;
}

/** Starts an inbox on `folder`, its events told to `onEvent`; a folder that cannot be watched answers why. */
async function startInbox(
  folder: string,
  afterUpload: AfterUpload,
  options: InboxHostOptions,
  onEvent: (error?: string) => void,
): Promise<{ inbox: Inbox; unsubscribe: () => void } | { error: string }> {
  const inbox = createInbox(
    options.stableMs === undefined
      ? { folder, afterUpload }
      : { folder, afterUpload, stableMs: options.stableMs },
  );
  const unsubscribe = inbox.subscribe((event) => onEvent(event.type === 'error' ? event.message : undefined));
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
): Pick<InboxHost, 'read' | 'pathOf' | 'markUploading' | 'markUploaded' | 'markFailed'> {
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
  };
}

/** Creates the host; nothing is watched until {@link InboxHost.configure}. */
export function createInboxHost(options: InboxHostOptions): InboxHost {
  let inbox: Inbox | null = null;
  let folder: string | null = null;
  let lastError: string | undefined;
  let unsubscribe: () => void = () => {};
  // Reconfigurations queue so two quick saves never leave two watchers on one folder.
  let switching: Promise<void> = Promise.resolve();

  const state = (): InboxState => {
    const snapshot: InboxState = { folder, scans: inbox ? inbox.list().map(toInboxScan) : [] };
    if (lastError !== undefined) snapshot.error = lastError;
    return snapshot;
  };
  const publish = (): void => options.onState(state());

  const stop = async (): Promise<void> => {
    unsubscribe();
    unsubscribe = () => {};
    await inbox?.close();
    inbox = null;
  };

  const reconfigure = async (nextFolder: string | null, afterUpload: AfterUpload) => {
    if (inbox && nextFolder === folder) {
      inbox.setAfterUpload(afterUpload);
      return;
    }
    await stop();
    folder = nextFolder;
    lastError = undefined;
    if (nextFolder !== null) {
      const started = await startInbox(nextFolder, afterUpload, options, (error) => {
        if (error !== undefined) lastError = error;
        publish();
      });
      if ('error' in started) lastError = started.error;
      else ({ inbox, unsubscribe } = started);
    }
    publish();
  };

  return {
    configure(nextFolder, afterUpload) {
      switching = switching.then(() => reconfigure(nextFolder, afterUpload));
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
    },
  };
}
