/**
 * What the upload queue set shows and what it is given (docs/behaviour.md#kept-uploads,
 * docs/behaviour.md#upload-tray): the tray's summary, the kept-files offer, and the ports a host
 * passes in — the server, the device's journals and the claims that keep two pages of one browser
 * from sending a file twice.
 */
import type { ApiClient } from '../../api/client.js';
import type { PutFile, UploadTarget } from '../../api/upload.js';
import type { Clock, Connectivity, Dialogs, FileLike, KeyValueStorage } from '../../ports.js';
import type { Store } from '../../store.js';
import type { JournalEntry, KeptFile, UploadJournals } from '../upload/journal.js';
import type { UploadFlow } from '../upload/upload.js';
import type { ConvertImage, FileProgress, InspectImage } from '../upload/upload-state.js';

/** What the category screen on display lends its queue: the list to refresh, the names it holds, the client's name. */
export interface QueueScreen {
  refresh: () => unknown;
  uploadedNames: () => readonly string[];
  clientName: () => string | undefined;
}

/** One file of any queue, as the upload tray lists it. */
export interface TrayItem {
  id: string;
  target: UploadTarget;
  clientName: string | undefined;
  name: string;
  size: number;
  progress: FileProgress;
  /** Kept on the device: a reload would not lose it. */
  saved: boolean;
  flow: UploadFlow;
}

/** Every queue at once: what the tray in the header shows. */
export interface QueuesSummary {
  items: readonly TrayItem[];
  /** Files stored since the queues were last empty, and their bytes: `Uploading 3 of 5`. */
  finished: number;
  finishedBytes: number;
}

/** Files kept on this device from an earlier visit, offered after sign-in (docs/behaviour.md#kept-uploads). */
export interface KeptOffer {
  files: readonly KeptFile[];
  /** Kept by name only: their bytes could not be kept or read back. */
  lost: readonly JournalEntry[];
  /** How many were deleted because someone else signed in here meanwhile. */
  deletedForOthers: number;
  /**
   * How many of the person's files the device keeps unread, the journal having opened with no
   * connection (a reload offline): once the session is live they are read and upload by themselves.
   */
  sealed?: number;
}

/** No files to offer. */
export const NO_OFFER: KeptOffer = { files: [], lost: [], deletedForOthers: 0 };

/**
 * Kept files claimed by the page whose queue holds them: another page of the same browser neither
 * offers nor resumes them, so a file is never sent twice. The browser's are Web Locks.
 */
export interface FileClaims {
  /** Claims the file for this page: false when another page holds it. */
  claim(id: string): Promise<boolean>;
  /** Lets go of the file. */
  release(id: string): void;
  /** The files other pages hold now. */
  heldElsewhere(): Promise<ReadonlySet<string>>;
}

/** What the queues need from the host: the ports of each category's upload flow, and the device's journals and claims. */
export interface UploadQueuesPorts {
  api: Pick<ApiClient, 'config' | 'presignUpload' | 'completeUpload'>;
  putFile: PutFile;
  platform: Pick<Dialogs, 'alert' | 'confirm'>;
  /** Converts images to PDF and checks their quality (the browser's workers, sharp in Node). */
  photos: { convert: ConvertImage; inspect?: InspectImage };
  /** Local storage: the convert-to-PDF preference. */
  storage: KeyValueStorage;
  clock: Clock;
  /** Makes the id of a queued file: unique across every page of the device (the journal is shared). */
  newId: () => string;
  /** Tells when the network comes back, so files waiting for it go again. */
  connectivity?: Connectivity;
  /** Where queued files are kept across reloads; without it queues live in memory only. */
  journals?: UploadJournals;
  /** Claims of the files a page's queues hold; without them every page acts as if it were the only one. */
  claims?: FileClaims;
}

/** What the queues share with the host from its first render (the header reads these before the queues' code loads). */
export interface UploadQueuesShared {
  summary: Store<QueuesSummary>;
  offer: Store<KeptOffer>;
  /** Tells the screens that a file of `target`'s queue was stored. */
  announceStored: (target: UploadTarget) => void;
}

/** The upload queues of the signed-in person as the screens use them, one queue per client and category. */
export interface UploadQueueSet {
  /** The queue of a category: the same one each time the screen is opened again. */
  queueFor(target: UploadTarget): UploadFlow;
  /** The screen showing `target` lends its list; returns the function that takes it back. */
  attach(target: UploadTarget, screen: QueueScreen): () => void;
  summary: Pick<Store<QueuesSummary>, 'getState' | 'subscribe'>;
  offer: Pick<Store<KeptOffer>, 'getState' | 'subscribe'>;
  /** Queues the offered files again and uploads them. */
  resume(): void;
  /** Deletes the offered files from the device. */
  discard(): Promise<void>;
  /** A lost file chosen again: queued for its category, the lost entry forgotten. */
  chooseAgain(entry: JournalEntry, file: FileLike): void;
  /** Dismisses the note about files deleted for someone else's sign-in. */
  dismissDeleted(): void;
  /**
   * Signs out: asks first when files are not uploaded yet; then empties every queue and deletes
   * what the device kept. Resolves to whether the person is signed out.
   */
  logout(): Promise<boolean>;
}
