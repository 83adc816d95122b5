import {
  canChangeFile,
  filesUploadedMessage,
  formatMegabytes,
  isPhotoFile,
  isQualityFault,
  messages,
  qualityWarningMessage,
} from '@vita-docs/core';
import type { FileLike, QueuedFile, UploadEvent, UploadFlow, UploadState } from '@vita-docs/core';
import { Suspense, useEffect, useId, useRef, useState } from 'react';
import { useFlow } from '../../hooks/use-flow';
import { progressLabel, texts } from '../../texts';
import { FilePicker, PHOTO_ACCEPT, UPLOAD_ACCEPT } from './file-picker';
import { AdjustCorners, RowThumb } from './corner-parts';
import { RetryRemoveButtons } from '../../components/queue-item-actions';
import { ReadingNote } from './reading-note';
import { dismissVerdict, useQueuedVerdict } from './readings';

interface UploadQueueProps {
  flow: UploadFlow;
  /** Adds files after the screen's checks (only PDF and images); `camera` for Take Photo. */
  onAdd: (files: readonly FileLike[], camera?: boolean) => void;
  /** Files are being dragged over the window. */
  dragging: boolean;
  /** Opens the Scan pages dialog. */
  onScan: () => void;
  /** The category, and the move of a queued file another form than it (what the device read). */
  reading?: { category: string; move: (item: QueuedFile, form: string) => Promise<void> };
}

/** The add-files part of the category screen: pickers, the convert toggle, the queue, Upload. */
export function UploadQueue({ flow, onAdd, dragging, onScan, reading }: UploadQueueProps) {
  const state = useFlow(flow);
  const headingId = useId();
  const busy = state.status === 'uploading' || state.status === 'refreshing';
  const count = state.queue.length;
  // Upload counts what it can send: not a file refused for good (over the size limit, a refused type).
  const sendable = state.queue.filter(
    ({ progress }) => !(progress.status === 'failed' && !progress.retryable),
  ).length;
  const said = useUploadedLine(flow, state, sendable, busy);
  return (
    <section
      className={`panel drop-target${dragging ? ' drop-target--active' : ''}`}
      aria-labelledby={headingId}
    >
      <h2 className="panel__title" id={headingId}>
        {texts.addFiles}
      </h2>
      <div className="actions actions--tight">
        <FilePicker label="Upload files" accept={UPLOAD_ACCEPT} multiple onFiles={(files) => onAdd(files)} />
        <FilePicker
          label="Take Photo"
          accept={PHOTO_ACCEPT}
          capture="environment"
          multiple
          onFiles={(files) => onAdd(files, true)}
        />
        <button type="button" className="button" onClick={onScan}>
          Scan pages
        </button>
      </div>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={state.convertToPdf}
          onChange={(event) =>
            void flow.send({ type: 'setConvertToPdf', enabled: event.currentTarget.checked })
          }
        />
        Convert images to PDF (fit to Letter)
      </label>
      <p className="hint drop-hint">
        {dragging ? 'Drop the files to add them.' : 'You can also drop files onto this page.'}
      </p>
      {count > 0 && (
        <ul className="queue" aria-label="Queued files">
          {state.queue.map((item) => (
            <QueueItem key={item.id} item={item} status={state.status} flow={flow} reading={reading} />
          ))}
        </ul>
      )}
      {/* Stays in view at the screen's bottom while the queue is taller than the screen (a phone). */}
      <div className="actions actions--tight queue__footer">
        <button
          type="button"
          className="button button--primary"
          disabled={sendable === 0 || busy}
          onClick={() => {
            said.pressed();
            void flow.send({ type: 'upload' });
          }}
        >
          {`Upload (${sendable})`}
        </button>
        {/* Always in the page, so screen readers announce what appears in it. */}
        <span className="status" role="status" tabIndex={-1} ref={said.line}>
          {state.status === 'converting' ? 'Converting images…' : said.text}
        </span>
      </div>
    </section>
  );
}

/** The queues whose `{n} files uploaded.` the person has moved on from. */
const clearedLines = new WeakSet<UploadFlow>();

/**
 * `{n} files uploaded.` after a round: the focus goes to it when the round came from `Upload (n)`
 * (the button is disabled then, and the focus would fall to the page), and it goes at the person's
 * next action — a press or a change anywhere — or once something new can be sent, so it never
 * speaks of an earlier round.
 */
function useUploadedLine(flow: UploadFlow, state: UploadState, sendable: number, busy: boolean) {
  const line = useRef<HTMLSpanElement>(null);
  const pressedUpload = useRef(false);
  // Kept with the queue (it outlives the screen): back on the screen, a line cleared stays cleared.
  const [cleared, setCleared] = useState(() => clearedLines.has(flow));
  const text =
    !cleared && state.status === 'idle' && state.lastUploaded > 0 && sendable === 0
      ? filesUploadedMessage(state.lastUploaded)
      : '';
  // Each round says its own line again.
  useEffect(() => {
    if (!busy) return;
    clearedLines.delete(flow);
    setCleared(false);
  }, [busy, flow]);
  useEffect(() => {
    if (busy) return;
    if (pressedUpload.current && text) line.current?.focus({ preventScroll: true });
    pressedUpload.current = false;
  }, [busy, text]);
  useEffect(() => {
    if (!text) return;
    const clear = () => {
      clearedLines.add(flow);
      setCleared(true);
    };
    // Bubbling, after the page's own handlers: a render in the middle of a click on a controlled
    // checkbox would put it back before React saw it change.
    document.addEventListener('click', clear);
    document.addEventListener('change', clear);
    return () => {
      document.removeEventListener('click', clear);
      document.removeEventListener('change', clear);
    };
  }, [text, flow]);
  return {
    line,
    text,
    pressed: () => {
      pressedUpload.current = true;
    },
  };
}

interface QueueItemProps {
  item: QueuedFile;
  reading?: UploadQueueProps['reading'];
  /** The queue's status: nothing changes while it is being sent. */
  status: UploadState['status'];
  flow: UploadFlow;
}

function QueueItem({ item, status, flow, reading }: QueueItemProps) {
  const nameId = useId();
  const verdict = useQueuedVerdict(item.id);
  const { progress, file, original } = item;
  const photo = isPhotoFile(original);
  const row = useRef<HTMLLIElement>(null);
  return (
    <li
      ref={row}
      tabIndex={-1}
      className={`queue__item${photo ? ' queue__item--photo' : ''}`}
      aria-labelledby={nameId}
    >
      {photo && <RowThumb item={item} label={`Preview of ${file.name}`} />}
      <div className="queue__line">
        <span className="queue__name" id={nameId}>
          {file.name}
        </span>
        <span className="queue__size">{formatMegabytes(file.size)}</span>
      </div>
      {progress.status === 'failed' ? (
        <p className="status status--error queue__error">
          {progress.error}
          {progress.retryAt !== undefined && ` ${messages.retryingByItself}`}
        </p>
      ) : (
        <div className="queue__progress">
          <progress
            aria-label={`Upload progress of ${file.name}`}
            max={progress.status === 'uploading' ? Math.max(progress.total, 1) : 1}
            value={progressValue(item)}
          />
          <span className="queue__state">{progressLabel(item.progress)}</span>
        </div>
      )}
      {(item.warnings.length > 0 || item.notice) && (
        <ul className="queue__notes">
          {item.warnings.map((warning) => (
            <li key={warning} className={isQualityFault(warning) ? 'queue__warning' : 'hint'}>
              {qualityWarningMessage(warning)}
            </li>
          ))}
          {item.notice && <li className="hint">{item.notice}</li>}
        </ul>
      )}
      {verdict && reading && item.progress.status !== 'done' && (
        <ReadingNote
          verdict={verdict}
          category={reading.category}
          onMove={(form) => reading.move(item, form)}
          onKeep={() => dismissVerdict(item.id)}
        />
      )}
      <QueueItemActions item={item} status={status} flow={flow} onRetaken={() => row.current?.focus()} />
    </li>
  );
}

/** Retake and Keep anyway (a photo with warnings), the turns (a converted photo), Retry and Remove. */
function QueueItemActions({
  item,
  status,
  flow,
  onRetaken,
}: QueueItemProps & {
  /** The Retake button goes with the warnings it answers: the focus moves to the item instead. */
  onRetaken: () => void;
}) {
  const changeable = canChangeFile(status, item.progress);
  const busy = status === 'uploading' || status === 'refreshing';
  const send = (event: UploadEvent) => void flow.send(event);
  return (
    <div className="queue__actions">
      {item.warnings.some(isQualityFault) && (
        <>
          <FilePicker
            label="Retake"
            accept={PHOTO_ACCEPT}
            capture="environment"
            disabled={!changeable}
            className="button--small"
            ariaLabel={`Retake ${item.file.name}`}
            onFiles={([retaken]) => {
              if (!retaken) return;
              send({ type: 'replace', id: item.id, file: retaken });
              onRetaken();
            }}
          />
          <button
            type="button"
            className="button button--small"
            aria-label={`Keep anyway ${item.file.name}`}
            onClick={() => {
              send({ type: 'keep', id: item.id });
              onRetaken();
            }}
          >
            Keep anyway
          </button>
        </>
      )}
      {item.rotate !== null && (
        <>
          <Suspense>
            <AdjustCorners
              file={item.original}
              name={item.file.name}
              crop={item.crop}
              disabled={!changeable}
              onSave={(crop) => send({ type: 'crop', id: item.id, crop })}
            />
          </Suspense>
          <button
            type="button"
            className="button button--small"
            aria-label={`Rotate left ${item.file.name}`}
            disabled={!changeable}
            onClick={() => send({ type: 'rotate', id: item.id, by: -90 })}
          >
            Rotate left
          </button>
          <button
            type="button"
            className="button button--small"
            aria-label={`Rotate right ${item.file.name}`}
            disabled={!changeable}
            onClick={() => send({ type: 'rotate', id: item.id, by: 90 })}
          >
            Rotate right
          </button>
        </>
      )}
      <RetryRemoveButtons id={item.id} progress={item.progress} flow={flow} disabled={busy} />
    </div>
  );
}

/** The bar's value; undefined while converting makes it an indeterminate (moving) bar. */
function progressValue({ progress }: QueuedFile): number | undefined {
  if (progress.status === 'converting' || progress.status === 'saving') return undefined;
  if (progress.status === 'uploading') return progress.loaded;
  return progress.status === 'done' ? 1 : 0;
}
