/**
 * The client page's capture parts, loaded when first used (client-link-page.tsx): the product's upload
 * queue (PDF conversion, quality checks, retries, never stored twice), its photo converter and the Scan
 * pages dialog, wired to the link session's own upload calls instead of the staff ones, and speaking the
 * client's language.
 */
import {
  CLIENT_CAPTURE_TEXTS,
  CLIENT_LINK_TEXTS,
  canChangeFile,
  clientCaptureText,
  clientQualityWarning,
  clientScanTexts,
  createScanFlow,
  createUploadFlow,
  isPhotoFile,
  isQualityFault,
  type ApiClient,
  type ClientLinkLanguage,
  type FileLike,
  type InspectImage,
  type KeptFile,
  type Logger,
  type QueuedFile,
  type ScanFlow,
  type UploadFlow,
  type UploadJournal,
  type UploadState,
} from '@vita-docs/core';
import { Suspense, useState } from 'react';
import { browserClock, browserConnectivity } from '../../host';
import { createXhrPutFile } from '../../transport/xhr-put-file';
import { useFlow } from '../../hooks/use-flow';
import { FilePicker, PHOTO_ACCEPT } from '../documents/file-picker';
import { createLazyConverter } from '../documents/lazy-converter';
import { AdjustCorners, RowThumb } from '../documents/corner-parts';
import { ScanDialog } from '../documents/scan-dialog';
import { openLinkJournal } from './link-journal';
import { FileThumb, type ThumbSource } from './link-thumb';
import '../../styles/documents.css';

type LinkApi = Pick<ApiClient, 'linkPresign' | 'linkComplete' | 'linkJournalKey'>;

/** Where each upload's thumbnail comes from, noted as it is sent and kept under its stored key. */
interface ThumbNotes {
  sending(source: ThumbSource | undefined): void;
  /** The file being sent is stored under `key` (said at its presign). */
  stored(key: string): void;
}

/** The upload queue's two calls, answered by the link session's: it may only add to its own categories. */
function linkUploadApi(api: LinkApi, notes: ThumbNotes): Pick<ApiClient, 'presignUpload' | 'completeUpload'> {
  return {
    // The key is known at the presign: the PUT's answer may store the file without a complete.
    presignUpload: async ({ body }) => {
      const presigned = await api.linkPresign({
        body: {
          docType: body.docType,
          filename: body.filename,
          contentType: body.contentType,
          size: body.size ?? 0,
          sha256: body.sha256 ?? '',
        },
      });
      notes.stored(presigned.key);
      return presigned;
    },
    completeUpload: async ({ body }) => {
      const { file } = await api.linkComplete({ body });
      return {
        ok: true as const,
        item: { ...file, docType: '', lastModified: new Date().toISOString() },
      };
    },
  };
}

export interface LinkCapture {
  add(docType: string, files: readonly FileLike[], camera: boolean): void;
  /** Keep anyway, or Retake (`file`), for a photo with quality warnings; the row goes on uploading after. */
  answer(docType: string, id: string, file?: FileLike): void;
  scan(docType: string): void;
  queue(docType: string): UploadFlow;
  /** The thumbnail of a file this page stored (by its key); undefined for one stored before a reload. */
  thumb(key: string): ThumbSource | undefined;
  scanFlow: ScanFlow;
  dispose(): void;
}

export interface LinkCaptureOptions {
  api: LinkApi;
  logger: Logger;
  onStored: () => void;
  /** The page's language now (it can change while the capture parts live). */
  language: () => ClientLinkLanguage;
}

/** What was done to a photo with nothing to answer (its page edges not found: the whole photo used). */
function Notices({ item, language }: { item: QueuedFile; language: ClientLinkLanguage }) {
  return item.warnings
    .filter((warning) => !isQualityFault(warning))
    .map((warning) => (
      <span key={warning} className="hint">
        {clientQualityWarning(language, warning)}
      </span>
    ));
}

/** A file still to be sent whose photo has warnings the client has not answered (Keep anyway or Retake). */
const awaitsChoice = (item: QueuedFile) =>
  item.warnings.some(isQualityFault) && ['queued', 'converting', 'saving'].includes(item.progress.status);

/** What a queue item's thumbnail is made of: the photo as turned, a scan's first page, or the file itself. */
function thumbOf(item: QueuedFile, scanFirstPages: WeakMap<object, ThumbSource>): ThumbSource {
  const scanned = scanFirstPages.get(item.original);
  if (scanned) return scanned;
  if (isPhotoFile(item.original)) return { file: item.original, rotate: item.rotate ?? 0 };
  return { file: item.file, rotate: 0 };
}

/** The thumbnail of the file being sent, kept under the key it is stored as. */
function thumbNotes() {
  const thumbs = new Map<string, ThumbSource>();
  let sending: ThumbSource | undefined;
  const notes: ThumbNotes = {
    sending: (source) => (sending = source),
    stored: (key) => void (sending && thumbs.set(key, sending)),
  };
  return { thumbs, notes };
}

/** Quality checks under way: a row waits for them before it sends, so a bad photo is not sent unasked. */
function trackedChecks(check: InspectImage) {
  const checking = new Set<Promise<unknown>>();
  const inspect: InspectImage = (file) => {
    const result = check(file);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    checking.add(settled);
    void settled.then(() => checking.delete(settled));
    return result;
  };
  const checksDone = async () => {
    while (checking.size) await Promise.all(checking);
    // The queue takes each check's answer in a reaction of its own, after ours.
    await new Promise<void>((resolve) => browserClock.setTimeout(resolve, 0));
  };
  return { inspect, checksDone };
}

/** The upload queue of one row: the product's, with the link session's calls and the tracked quality check. */
function rowQueue(
  docType: string,
  parts: {
    api: Pick<ApiClient, 'presignUpload' | 'completeUpload'>;
    putFile: ReturnType<typeof createXhrPutFile>;
    photos: ReturnType<typeof createLazyConverter>;
    inspect: InspectImage;
    onStored: () => void;
    journal: UploadJournal | undefined;
  },
): UploadFlow {
  const { api, putFile, photos, inspect, onStored, journal } = parts;
  return createUploadFlow({
    api,
    putFile,
    convert: photos.convert,
    inspect,
    storage: window.localStorage,
    platform: { alert: async (message) => window.alert(message) },
    target: { clientId: 'link', docType },
    refresh: onStored,
    clock: browserClock,
    connectivity: browserConnectivity,
    newId: () => globalThis.crypto.randomUUID(),
    ...(journal && { journal }),
  });
}

/** Queues the files kept before a reload again, each in its row's queue, and sends them. */
function restoreKept(
  files: readonly KeptFile[],
  queue: (docType: string) => UploadFlow,
  send: (flow: UploadFlow) => void,
): void {
  const byType = new Map<string, KeptFile[]>();
  for (const file of files)
    byType.set(file.entry.target.docType, [...(byType.get(file.entry.target.docType) ?? []), file]);
  for (const [docType, group] of byType) {
    const flow = queue(docType);
    void flow.send({ type: 'restore', files: group }).then(() => send(flow));
  }
}

export function createLinkCapture(options: LinkCaptureOptions): LinkCapture {
  const { api, logger, onStored, language } = options;
  // Queued files are kept on the phone (sealed under the link's key) until stored: a reload loses none.
  const kept = typeof indexedDB === 'undefined' ? null : openLinkJournal(api);
  const journal = kept?.journal;
  const putFile = createXhrPutFile();
  const photos = createLazyConverter(logger);
  const { thumbs, notes } = thumbNotes();
  const scanFirstPages = new WeakMap<object, ThumbSource>();
  const queues = new Map<string, UploadFlow>();
  const { inspect, checksDone } = trackedChecks(photos.inspect);
  const send = (flow: UploadFlow) => {
    const { queue } = flow.getState();
    // The client has no Upload button: what is added goes at once, unless a photo awaits their choice.
    if (queue.some(awaitsChoice)) return;
    void flow.send({ type: 'upload' });
  };
  const queue = (docType: string) => {
    let flow = queues.get(docType);
    if (!flow) {
      flow = rowQueue(docType, {
        api: linkUploadApi(api, notes),
        putFile,
        photos,
        inspect,
        onStored,
        journal,
      });
      // The queue sends its files one by one: the one being sent is the one the next stored key is of.
      flow.subscribe((state) => {
        const current = state.queue.find((item) => item.progress.status === 'uploading');
        if (current) notes.sending(thumbOf(current, scanFirstPages));
      });
      queues.set(docType, flow);
    }
    return flow;
  };
  let scanning: string | null = null;
  const add = (docType: string, files: readonly FileLike[], camera: boolean) => {
    const flow = queue(docType);
    void flow
      .addFiles(files, { camera })
      .ready.then(checksDone)
      .then(() => send(flow));
  };
  const scanFlow = createScanFlow({
    build: photos.buildScan,
    canUse: photos.canUse,
    inspect: photos.inspect,
    platform: { confirm: async (message) => window.confirm(message) },
    clock: browserClock,
    texts: () => clientScanTexts(language()),
    onScanned: (file) => {
      const [first] = scanFlow.getState().pages;
      if (first) scanFirstPages.set(file, { file: first.file, rotate: first.rotate });
      if (scanning !== null) add(scanning, [file], false);
    },
  });
  void kept?.kept.then((files) => restoreKept(files, queue, send));
  return {
    add,
    answer(docType, id, file) {
      const flow = queue(docType);
      void flow
        .send(file ? { type: 'replace', id, file } : { type: 'keep', id })
        .then(checksDone)
        .then(() => send(flow));
    },
    scan(docType) {
      scanning = docType;
      void scanFlow.send({ type: 'open' });
    },
    queue,
    thumb: (key) => thumbs.get(key),
    scanFlow,
    dispose() {
      for (const flow of queues.values()) flow.dispose();
      photos.dispose();
    },
  };
}

/** The files of one row still on their way (converting, uploading, failed with Try again, awaiting a choice). */
export function RowQueue({
  capture,
  docType,
  language,
}: {
  capture: LinkCapture;
  docType: string;
  language: ClientLinkLanguage;
}) {
  const [flow] = useState(() => capture.queue(docType));
  const state = useFlow(flow);
  const t = { ...CLIENT_LINK_TEXTS[language], ...CLIENT_CAPTURE_TEXTS[language] };
  const pending = state.queue.filter((item) => item.progress.status !== 'done');
  if (pending.length === 0) return null;
  return (
    <ul className="link-files link-files--queue">
      {pending.map((item) => {
        const failed = item.progress.status === 'failed';
        const choose = awaitsChoice(item);
        const name = item.file.name;
        return (
          <li key={item.id} className="link-file">
            <RowThumb item={item} label={clientCaptureText(language, 'preview', { name })} />
            <span className="link-file__name">{name}</span>
            <Notices item={item} language={language} />
            {choose ? (
              item.warnings.filter(isQualityFault).map((warning) => (
                <span key={warning} className="queue__warning">
                  {clientQualityWarning(language, warning)}
                </span>
              ))
            ) : (
              <span className={failed ? 'status status--error' : 'status'}>
                {failed
                  ? t.uploadFailed
                  : item.progress.status === 'waiting'
                    ? t.waitingForConnection
                    : t.uploading}
              </span>
            )}
            {choose && (
              <>
                <FilePicker
                  label={t.retake}
                  ariaLabel={`${t.retake} ${name}`}
                  accept={PHOTO_ACCEPT}
                  capture="environment"
                  className="button--small"
                  onFiles={([file]) => file && capture.answer(docType, item.id, file)}
                />
                <button
                  type="button"
                  className="button button--small"
                  aria-label={`${t.keepAnyway} ${name}`}
                  onClick={() => capture.answer(docType, item.id)}
                >
                  {t.keepAnyway}
                </button>
              </>
            )}
            {item.rotate !== null && choose && (
              <RowCorners flow={flow} item={item} language={language} status={state.status} />
            )}
            {failed && (
              <button
                type="button"
                className="button button--small"
                onClick={() => void flow.send({ type: 'retry', id: item.id })}
              >
                {t.retry}
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** `Ajustar esquinas` of a converted photo still waiting on this page (the others go at once). */
function RowCorners({
  flow,
  item,
  language,
  status,
}: {
  flow: UploadFlow;
  item: QueuedFile;
  language: ClientLinkLanguage;
  status: UploadState['status'];
}) {
  return (
    <Suspense>
      <AdjustCorners
        file={item.original}
        name={item.file.name}
        crop={item.crop}
        language={language}
        disabled={!canChangeFile(status, item.progress)}
        onSave={(crop) => void flow.send({ type: 'crop', id: item.id, crop })}
      />
    </Suspense>
  );
}

/** The Scan pages dialog of the product, for the row it was opened from, in the client's language. */
export function ScanHost({ capture, language }: { capture: LinkCapture; language: ClientLinkLanguage }) {
  return <ScanDialog flow={capture.scanFlow} texts={clientScanTexts(language)} />;
}

/** The thumbnail of a file stored through this page (null for one stored before it was loaded). */
export function StoredThumb({
  capture,
  fileKey,
  filename,
  language,
}: {
  capture: LinkCapture;
  fileKey: string;
  filename: string;
  language: ClientLinkLanguage;
}) {
  const source = capture.thumb(fileKey);
  const label = clientCaptureText(language, 'preview', { name: filename });
  return source ? <FileThumb source={source} label={label} /> : null;
}
