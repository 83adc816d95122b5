/**
 * The kiosk's kept uploads behind the bridge: one person's journal open at a time, opened only for
 * the person the server says is signed in on this desk (the page's word counts for nothing), and
 * the files' bytes handed to the page one at a time when an upload needs them.
 */
import type { FileBytes, KeptEntry, KeptUploads } from '../shared/bridge.js';
import type { KeptFile, UploadJournal, UploadJournals } from '@vita-docs/core';

/** What the bridge handlers call. */
export interface KeptUploadsHost {
  open(owner: string): Promise<KeptUploads>;
  read(id: string): Promise<FileBytes>;
  keep(file: { entry: KeptEntry; bytes: Uint8Array }): Promise<void>;
  forget(id: string): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * Refused when the page asks for someone other than who is signed in.
 * @internal Exported for its tests.
 */
export const NOT_SIGNED_IN = 'Sign in first: kept files belong to the person signed in on this desk.';

export function createKeptUploadsHost(options: {
  journals: UploadJournals;
  /** The email of who the server says is signed in with the desk's session; null when nobody is. */
  signedIn: () => Promise<string | null>;
}): KeptUploadsHost {
  let current: { owner: string; journal: UploadJournal; files: Map<string, KeptFile> } | null = null;
  const opened = () => {
    if (!current) throw new Error(NOT_SIGNED_IN);
    return current;
  };
  return {
    async open(owner) {
      current = null;
      const email = await options.signedIn();
      if (email === null || email.toLowerCase() !== owner.toLowerCase()) throw new Error(NOT_SIGNED_IN);
      // The server's spelling of the email names the owner: the page's may differ in case.
      const journal = await options.journals.open(email);
      current = {
        owner: email,
        journal: journal.journal,
        files: new Map(journal.files.map((file) => [file.entry.id, file])),
      };
      return {
        files: journal.files.map(({ entry, savedAt }) => ({ entry, savedAt })),
        lost: [...journal.lost],
        deletedForOthers: journal.deletedForOthers,
      };
    },
    async read(id) {
      const kept = opened().files.get(id);
      if (!kept) throw new Error('That file is no longer kept on this desk.');
      return {
        name: kept.entry.name,
        type: kept.entry.type,
        bytes: new Uint8Array(await kept.file.arrayBuffer()),
      };
    },
    async keep({ entry, bytes }) {
      await opened().journal.save(entry, {
        name: entry.name,
        type: entry.type,
        size: bytes.length,
        arrayBuffer: async () =>
          bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
      });
    },
    async forget(id) {
      const { journal, files } = opened();
      files.delete(id);
      await journal.remove(id);
    },
    async destroy() {
      current = null;
      await options.journals.destroy();
    },
  };
}
