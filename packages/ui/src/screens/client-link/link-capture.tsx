/**
 * The client page's capture parts, loaded when first used (client-link-page.tsx): core's capture
 * (`createLinkCapture`: a row's upload queue, the answers to a photo's warnings, Scan pages, the kept
 * files, the thumbnails) on the browser's ports — XHR uploads, the photo worker, the IndexedDB journal —
 * and the rows' queues, the Scan pages dialog and the thumbnails it draws, in the client's language.
 */
import {
  CLIENT_CAPTURE_TEXTS,
  CLIENT_LINK_TEXTS,
  awaitsQualityChoice,
  canChangeFile,
  clientCaptureText,
  clientQualityWarning,
  clientScanTexts,
  createLinkCapture as createCapture,
  errorMessage,
  isQualityFault,
  READING_TEXTS,
  verdictText,
  type ApiClient,
  type ClientLinkLanguage,
  type DocumentReader,
  type LinkCapture,
  type LinkCapturePage,
  type LinkFileRef,
  type Logger,
  type QueuedFile,
  type UploadFlow,
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
import { FileThumb } from './link-thumb';
import '../../styles/documents.css';

interface LinkCaptureOptions extends LinkCapturePage {
  api: Pick<ApiClient, 'linkPresign' | 'linkComplete' | 'linkMove' | 'linkJournalKey'>;
  logger: Logger;
  /** Where the host serves the reader's files (OCR code and data); absent: nothing is read. */
  readerFolder?: string | undefined;
}

/**
 * The client page's reader, or none: the one place reading on /u is switched on or off. The reader's
 * code loads on the first file read (never with the page or these parts), and its worker starts then.
 */
function linkReader(folder: string | undefined): DocumentReader | undefined {
  if (!folder) return undefined;
  let reader: Promise<DocumentReader> | undefined;
  const load = () =>
    (reader ??= import('../documents/reader-loader').then((m) =>
      m.createWorkerReader({ assets: m.readerAssetsIn(folder) }),
    ));
  return {
    readDocument: async (bytes) => (await load()).readDocument(bytes),
    close: async () => {
      if (reader) await (await reader).close();
    },
  };
}

/** Core's capture of the client page on the browser's ports. */
export function createLinkCapture({ api, logger, readerFolder, ...page }: LinkCaptureOptions): LinkCapture {
  const reader = linkReader(readerFolder);
  return createCapture(
    {
      api,
      putFile: createXhrPutFile(),
      photos: createLazyConverter(logger),
      storage: window.localStorage,
      platform: {
        alert: async (message) => window.alert(message),
        confirm: async (message) => window.confirm(message),
      },
      clock: browserClock,
      connectivity: browserConnectivity,
      newId: () => globalThis.crypto.randomUUID(),
      // Queued files are kept on the phone (sealed under the link's key) until stored: a reload loses none.
      ...(typeof indexedDB !== 'undefined' && { journal: openLinkJournal(api) }),
      ...(reader && { reader }),
    },
    page,
  );
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
        const choose = awaitsQualityChoice(item);
        const name = item.file.name;
        return (
          <li key={item.id} className="link-file">
            <RowThumb item={item} label={clientCaptureText(language, 'preview', { name })} />
            <span className="link-file__name">{name}</span>
            <Notices item={item} language={language} />
            <FileReading capture={capture} file={{ id: item.id }} language={language} />
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

/**
 * What the device read about a file, on its row, in the client's language: another form (`Mover a
 * {form}` when the page has that row, and `Dejar aquí`), another tax year, an expired ID.
 */
export function FileReading({
  capture,
  file,
  language,
}: {
  capture: LinkCapture;
  file: LinkFileRef;
  language: ClientLinkLanguage;
}) {
  const note = useFlow(capture.readings).note(file);
  const [moving, setMoving] = useState(false);
  if (!note) return null;
  const t = READING_TEXTS[language];
  const { verdict, moveTo } = note;
  const move = () => {
    setMoving(true);
    void capture
      .move(file)
      .catch((error: unknown) => window.alert(errorMessage(error)))
      .finally(() => setMoving(false));
  };
  return (
    <div className="reading-note" role="status">
      <span className="reading-note__text">{verdictText(t, verdict, note.category)}</span>
      {verdict.kind === 'other-form' && (
        <span className="actions actions--tight">
          {moveTo !== undefined && (
            <button type="button" className="button button--small" disabled={moving} onClick={move}>
              {t.move(verdict.form)}
            </button>
          )}
          <button
            type="button"
            className="button button--small"
            disabled={moving}
            onClick={() => capture.keep(file)}
          >
            {t.keep}
          </button>
        </span>
      )}
    </div>
  );
}
