/**
 * What the upload queue shows and what the person does to it (docs/behaviour.md#upload-queue): the
 * state every screen renders and the events they send. The rules are in `transition.ts`.
 */
import type { ApiErrorKind, ErrorCode } from '../../api/errors.js';
import type { QuarterTurn } from '../../pdf/raster.js';
import type { FileLike } from '../../ports.js';
import type { QualityWarning } from '../../quality/assess.js';
import type { PageCrop } from '../../straighten/page.js';
import type { KeptFile } from './journal.js';

/**
 * Turns an image to its PDF (turned clockwise by `rotate` after its EXIF orientation, the part `crop`
 * names, where given, as its page); returns the file
 * unchanged when it cannot (see `imageToLetterPdf`).
 */
export type ConvertImage = (
  file: FileLike,
  options?: { rotate?: QuarterTurn; crop?: PageCrop },
) => Promise<FileLike>;

/** The quality warnings of a photo (see `assessImage`); rejects when the image cannot be read here. */
export type InspectImage = (file: FileLike) => Promise<readonly QualityWarning[]>;

/** One queued file's progress: exactly one of these at a time. */
export type FileProgress =
  | { status: 'converting' }
  /** Being kept on the device (the journal) before it counts as queued. */
  | { status: 'saving' }
  | { status: 'queued' }
  | { status: 'uploading'; loaded: number; total: number }
  /** Its upload found no network: it goes again by itself when the connection is back. */
  | { status: 'waiting' }
  | { status: 'done' }
  | FailedProgress;

/** Why a file could not be uploaded. */
export interface FailedProgress {
  status: 'failed';
  error: string;
  /** `false` when sending it again cannot help (too large, a refused type, no permission). */
  retryable: boolean;
  /** What failed: an HTTP answer, no answer, an answer outside the contract, or something else. */
  kind: ApiErrorKind | 'other';
  /** The HTTP status of the answer; 0 without one. */
  httpStatus: number;
  /** Why, for code to branch on (`not_signed_in`: the session ended); null without an HTTP answer. */
  code: ErrorCode | null;
  /** When it is sent again by itself (ms since the epoch); absent when only Retry sends it. */
  retryAt?: number;
}

/** A file in the queue (after conversion, `file` is the PDF). */
export interface QueuedFile {
  id: string;
  /** What is uploaded: the PDF made from the photo, or the chosen file itself. */
  file: FileLike;
  /** The file as chosen (the photo a PDF was made from): what a thumbnail shows. */
  original: FileLike;
  progress: FileProgress;
  /** The turn applied in the conversion; null when the file is not converted, so cannot be turned. */
  rotate: QuarterTurn | null;
  /** The part of the photo the person chose as its page (`Adjust corners`); absent: the converter's own choice. */
  crop?: PageCrop;
  /** What the quality check found; emptied by `keep`. */
  warnings: readonly QualityWarning[];
  /** A note on how the file goes up (a HEIC photo this platform cannot convert). */
  notice?: string;
  /** Kept on the device: a reload or a closed tab does not lose it. */
  saved: boolean;
  /** Kept by the host itself (a scan in the watched folder, whose ledger says what became of it): never journaled. */
  keptByHost?: boolean;
}

/** The queue; `status` says what the flow as a whole is doing. */
export interface UploadState {
  status: 'idle' | 'converting' | 'uploading' | 'refreshing';
  queue: readonly QueuedFile[];
  convertToPdf: boolean;
  /** How many files the last finished batch stored (0 until one has, and while the next runs). */
  lastUploaded: number;
}

/** What the user does. */
export type UploadEvent =
  /**
   * `camera`: photos just taken, named after the category (`Banking Info 1.pdf`); others keep their
   * names. `keptByHost`: files the host keeps until they are uploaded (scans), so not journaled.
   */
  | { type: 'add'; files: readonly FileLike[]; camera?: boolean; keptByHost?: boolean }
  | { type: 'remove'; id: string }
  | { type: 'setConvertToPdf'; enabled: boolean }
  /** Sends every queued (and previously failed) file. */
  | { type: 'upload' }
  /** Sends one failed file again. */
  | { type: 'retry'; id: string }
  /** Turns a converted photo a quarter clockwise (90) or anticlockwise (-90) and converts it again. */
  | { type: 'rotate'; id: string; by: 90 | -90 }
  /** The part of a converted photo to make its page from (`Adjust corners`), and converts it again. */
  | { type: 'crop'; id: string; crop: PageCrop }
  /** Dismisses the quality warnings of a file: it is uploaded as it is. */
  | { type: 'keep'; id: string }
  /** Retake: `file` takes the queued file's place (same position), checked and converted afresh. */
  | { type: 'replace'; id: string; file: FileLike }
  /** Files kept on the device from an earlier visit, queued again as they were (already converted). */
  | { type: 'restore'; files: readonly KeptFile[] };

/** Whether `Retry` may send the file now: it failed in a way retrying can fix, or waits for the network. */
export function canRetryNow(progress: FileProgress): boolean {
  return (progress.status === 'failed' && progress.retryable) || progress.status === 'waiting';
}

/** Whether a queued file may be changed (turned, retaken) now: not while it is sent, nor while the queue is. */
export function canChangeFile(queueStatus: UploadState['status'], progress: FileProgress): boolean {
  const sending = queueStatus === 'uploading' || queueStatus === 'refreshing';
  const { status } = progress;
  return (
    !sending &&
    (status === 'queued' || status === 'failed' || status === 'waiting' || status === 'converting')
  );
}
