/**
 * The kiosk's kept uploads: core's `UploadJournals` over the bridge. Main keeps the files on the
 * desk's disk (main/upload-journal.ts) for the person the server says is signed in; the page only
 * hands files over and reads them back.
 */
import type { FileLike, JournalEntry, KeptFile, UploadJournals } from '@vita-docs/core';
import type { DesktopBridge, FileBytes } from '../shared/bridge.js';

/** A file main handed over, as the page's `File`. */
export const toFile = ({ name, type, bytes }: FileBytes): File =>
  new File([bytes as Uint8Array<ArrayBuffer>], name, { type });

/** A kept file whose bytes come from main when the upload needs them. */
function keptFile(bridge: DesktopBridge, entry: JournalEntry): FileLike {
  let read: Promise<File> | null = null;
  const load = () => (read ??= bridge.readKeptUpload(entry.id).then(toFile));
  return {
    name: entry.name,
    type: entry.type,
    size: entry.size,
    arrayBuffer: async () => (await load()).arrayBuffer(),
    slice: (start, end) => ({ arrayBuffer: async () => (await load()).slice(start, end).arrayBuffer() }),
  };
}

/** The journals of the desk, through main. */
export function createBridgeJournals(bridge: DesktopBridge): UploadJournals {
  return {
    async open(owner) {
      const opened = await bridge.openKeptUploads(owner);
      const files: KeptFile[] = opened.files.map(({ entry, savedAt }) => ({
        entry,
        savedAt,
        file: keptFile(bridge, entry),
      }));
      return {
        files,
        lost: opened.lost,
        deletedForOthers: opened.deletedForOthers,
        journal: {
          save: async (entry, file) =>
            bridge.keepUpload({ entry, bytes: new Uint8Array(await file.arrayBuffer()) }),
          remove: (id) => bridge.forgetKeptUpload(id),
        },
      };
    },
    destroy: () => bridge.deleteKeptUploads(),
  };
}
