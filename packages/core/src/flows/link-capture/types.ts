/**
 * What the client page's capture is given and what it gives back (docs/behaviour.md#requesting-documents-from-a-client):
 * the ports a host passes in — the link session's upload calls, the transport, the photo tools, the
 * phone's kept files — and the capture the page renders.
 */
import type { ApiClient } from '../../api/client.js';
import type { PutFile } from '../../api/upload.js';
import type { ClientLinkLanguage } from '../../client-link/languages.js';
import type { Clock, Connectivity, Dialogs, FileLike, KeyValueStorage } from '../../ports.js';
import type { KeptFile, UploadJournal } from '../upload/journal.js';
import type { UploadFlow } from '../upload/upload.js';
import type { ConvertImage, InspectImage } from '../upload/upload-state.js';
import type { ScanFlow, ScanFlowOptions } from '../scan/scan.js';
import type { DocumentReader } from '../../reading/reader.js';
import type { LinkFileRef, LinkReadingsState } from './readings.js';

/** What a stored file's thumbnail is made from: the photo (turned as it was sent), a scan's first page, or the file. */
export interface CaptureThumb {
  /** The photo or the PDF the picture is drawn from. */
  file: FileLike;
  /** Quarter turns in degrees (0, 90, 180, 270), as the photo was sent. */
  rotate: number;
}

/** The files the phone keeps for the link (sealed under its key in the browser) until they are stored. */
export interface LinkJournal {
  journal: UploadJournal;
  /** The files kept before this page loaded (empty when none, or they cannot be opened). */
  kept: Promise<readonly KeptFile[]>;
}

/** What the capture needs from the host: the link session's calls and the phone's tools. */
export interface LinkCapturePorts {
  /**
   * The link session's upload calls: it may only add to its own categories, and move its own files
   * between them.
   */
  api: Pick<ApiClient, 'linkPresign' | 'linkComplete' | 'linkMove'>;
  /** Sends a file to its presigned URL (the browser's XHR, with progress). */
  putFile: PutFile;
  /** Converts photos to PDF, checks their quality and makes scans (the browser's worker, sharp in Node). */
  photos: {
    convert: ConvertImage;
    inspect: InspectImage;
    canUse: ScanFlowOptions['canUse'];
    buildScan: ScanFlowOptions['build'];
    /** Stops the tools' worker when the capture goes (it restarts if used again). */
    dispose?: () => void;
  };
  /** Local storage: the convert-to-PDF preference. */
  storage: KeyValueStorage;
  /** An upload's alert, and Scan pages' question before it discards pages. */
  platform: Pick<Dialogs, 'alert' | 'confirm'>;
  /** Times the retries, the scan's name, and the turn a row takes before it sends. */
  clock: Clock;
  /** Makes the id of a queued file. */
  newId: () => string;
  /** Tells when the network comes back, so files waiting for it go again. */
  connectivity?: Connectivity;
  /** Where queued files are kept across a reload; without it the rows' queues live in memory only. */
  journal?: LinkJournal;
  /**
   * Reads each added file on the device (a worker in the browser); without it nothing is read. Closed
   * with the capture.
   */
  reader?: DocumentReader;
}

/** What the page gives the capture. */
export interface LinkCapturePage {
  /** A file was stored: the page reloads its checklist. */
  onStored: () => void;
  /** The page's language now (it can change while the capture lives). */
  language: () => ClientLinkLanguage;
  /** The categories of the page's rows now: where `Mover a {form}` may move a file. */
  rows: () => readonly string[];
}

/** The capture of the client page: one upload queue per checklist row, the Scan pages dialog, the stored thumbnails. */
export interface LinkCapture {
  /** Queues files in the row of `docType`; they are sent at once unless a photo awaits the client's answer. */
  add(docType: string, files: readonly FileLike[], camera: boolean): void;
  /** Keep anyway, or Retake (`file`), for a photo with quality warnings; the row goes on uploading after. */
  answer(docType: string, id: string, file?: FileLike): void;
  /** Opens Scan pages for the row of `docType`: the scan made is added to that row. */
  scan(docType: string): void;
  /** The upload queue of a row: the same one each time. */
  queue(docType: string): UploadFlow;
  /** The thumbnail of a file this page stored (by its key); undefined for one stored before a reload. */
  thumb(key: string): CaptureThumb | undefined;
  /**
   * Whether leaving the page now would lose a file: one neither sent nor kept on the phone yet (the
   * page then asks before it is left).
   */
  wouldLose(): boolean;
  /** The Scan pages dialog's flow, shared by every row (`scan` says which row it adds to). */
  scanFlow: ScanFlow;
  /** What the device read of each file added here (nothing is read without the `reader` port). */
  readings: { getState(): LinkReadingsState; subscribe(listener: () => void): () => void };
  /**
   * `Mover a {form}`: the file goes to the row its note names — a file still on its way is queued
   * there instead, a stored one is moved by the server.
   */
  move(ref: LinkFileRef): Promise<void>;
  /** `Dejar aquí`: the file stays; its note goes. */
  keep(ref: LinkFileRef): void;
  /** Stops every row's retries and connection watch, and the photo tools. */
  dispose(): void;
}
