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

/** Creates the host; nothing is watched until {@link InboxHost.configure}. */
// eslint-disable-next-line max-lines-per-function -- under 80 lines before the code was formatted to 110 columns; to be split
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

  const current = (): Inbox => {
    if (!inbox) throw new Error('No scanner folder is set.');
    return inbox;
  };

  const stop = async (): Promise<void> => {
    unsubscribe();
    await inbox?.close();
    inbox = null;
  };

  return {
    configure(nextFolder, afterUpload) {
      switching = switching.then(async () => {
        if (inbox && nextFolder === folder) {
          inbox.setAfterUpload(afterUpload);
          return;
        }
        await stop();
        folder = nextFolder;
        lastError = undefined;
        if (nextFolder !== null) {
          const created = createInbox(
            options.stableMs === undefined
              ? { folder: nextFolder, afterUpload }
              : { folder: nextFolder, afterUpload, stableMs: options.stableMs },
          );
          unsubscribe = created.subscribe((event) => {
            if (event.type === 'error') lastError = event.message;
            publish();
          });
          inbox = created;
          try {
            await created.start();
          } catch (error) {
            lastError = `Cannot watch ${nextFolder}: ${error instanceof Error ? error.message : String(error)}`;
            await stop();
          }
        }
        publish();
      });
      return switching;
    },
    state,
    async read(id) {
      const scan = current().get(id);
      if (!scan) throw new Error('This scan is no longer in the inbox.');
      const bytes = await readFile(scan.path);
      return {
        name: scan.name,
        type: scanContentType(scan.name),
        bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      };
    },
    pathOf(id) {
      const scan = current().get(id);
      if (!scan) throw new Error('This scan is no longer in the inbox.');
      return scan.path;
    },
    async markUploading(id, target) {
      await current().markUploading(id, target);
    },
    async markUploaded(id) {
      await current().markUploaded(id);
    },
    async markFailed(id, error) {
      await current().markFailed(id, error);
    },
    async close() {
      await switching;
      await stop();
    },
  };
}
