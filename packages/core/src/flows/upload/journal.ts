/**
 * Where queued files are kept so a reload, a crash or a closed tab loses none of them
 * (docs/behaviour.md#kept-uploads). The browser keeps them encrypted in IndexedDB; a host without
 * such a place simply gives the upload flow no journal.
 */
import type { UploadTarget } from '../../api/upload.js';
import type { QuarterTurn } from '../../pdf/raster.js';
import type { FileLike } from '../../ports.js';
import type { PageCrop } from '../../straighten/page.js';
import type { QualityWarning } from '../../quality/assess.js';

/** How a kept photo is to be made into its PDF: the turn and the page the person chose. */
export interface KeptChoice {
  /** The quarter turns clockwise after the photo's EXIF orientation. */
  rotate: QuarterTurn;
  /** The part of the photo chosen as its page (`Adjust corners`); absent: the converter's own choice. */
  crop?: PageCrop;
}

/** What is remembered of one queued file besides its bytes. */
export interface JournalEntry {
  /** The queue item's id (unique across every queue of the app). */
  id: string;
  target: UploadTarget;
  /** The client's name when the queue knew it: what the resume offer and the tray show. */
  clientName?: string;
  /** The file's name, type and size (after conversion: the PDF's). */
  name: string;
  type: string;
  size: number;
  /**
   * Set when the bytes kept are the photo itself, not yet its PDF: the person turned it or moved its
   * corners, and the new PDF was still being made. After a reload it is made again with this choice
   * before it is sent. Absent (every entry kept before this field existed too): the bytes are what is sent.
   */
  convert?: KeptChoice;
  /**
   * What the photo's quality check found that the person has not answered yet (Keep anyway clears
   * them): after a reload the file waits for that answer again. Such a photo is kept as the photo
   * itself with `convert`, so a reload offers the same choices (its turn, its corners, Retake).
   * Absent (every entry kept before this field existed too): restored with none.
   */
  warnings?: readonly QualityWarning[];
  /**
   * Set when the photo (kept with `convert`) was kept before its quality check answered: after a
   * reload it is checked again before it may be sent.
   */
  checkPending?: true;
}

/** One person's kept files. */
export interface UploadJournal {
  /**
   * Keeps the file with its entry (replacing an earlier one of the same id). Resolves once both are
   * durable; rejects when the bytes could not be kept (the entry may still be, so its name is known).
   * `bytes`, when given, are the file's contents already read by the caller (no need to read them
   * again); the journal may read them until the save settles, so they must stay as they are till then.
   */
  save(entry: JournalEntry, file: FileLike, bytes?: ArrayBuffer): Promise<void>;
  /** Forgets a file (uploaded, or removed from its queue). */
  remove(id: string): Promise<void>;
}

/** A kept file read back. */
export interface KeptFile {
  entry: JournalEntry;
  file: FileLike;
  /** When it was kept (ms since the epoch). */
  savedAt: number;
}

/** What opening a person's journal found. */
export interface OpenedJournal {
  journal: UploadJournal;
  /** Their files, oldest first, within the lifetime. */
  files: readonly KeptFile[];
  /** Their files whose bytes could not be kept or read back: the person must choose them again. */
  lost: readonly JournalEntry[];
  /** How many of their files were deleted because someone else signed in on this device meanwhile. */
  deletedForOthers: number;
  /**
   * Opened with no connection: what is saved is sealed so that only the person's next live session
   * opens it, and nothing kept before could be read (`files` and `lost` are empty). Open it again
   * once the session is back to be offered those.
   */
  sealOnly?: true;
  /**
   * With `sealOnly`: how many of the person's files the device keeps (counted, not read), to say so
   * while the connection is away; they are read, and upload, once the session is live again.
   */
  sealedCount?: number;
}

/** The device's journals: one person's at a time. */
export interface UploadJournals {
  /**
   * Opens `owner`'s journal. Files of anyone else are deleted (and their owner told on their next
   * sign-in here), as are files older than the session's absolute lifetime.
   */
  open(owner: string): Promise<OpenedJournal>;
  /** Deletes everything kept on this device (sign-out). */
  destroy(): Promise<void>;
}
