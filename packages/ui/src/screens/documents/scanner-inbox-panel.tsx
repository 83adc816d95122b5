import {
  canAddScan,
  createInboxQueue,
  fileExtension,
  formatBytes,
  formatDateTime,
  READING_TEXTS,
  readingVerdict,
  verdictText,
} from '@vita-docs/core';
import type { DocumentReading, FileLike, InboxQueueState, UploadFlow, UploadTarget } from '@vita-docs/core';
import { useEffect, useId, useState } from 'react';
import { useFlow, useFlowInstance } from '../../hooks/use-flow';
import type { InboxScanView, ScannerInbox } from '../../platform';
import '../../styles/scanner-inbox.css';

interface ScannerInboxPanelProps {
  inbox: ScannerInbox;
  upload: UploadFlow;
  target: UploadTarget;
  /** Makes one PDF of several scans, in order. */
  combine: (files: readonly FileLike[]) => Promise<FileLike>;
}

/**
 * The "Scanner inbox" of the category screen (desktop hosts only): scans the desk's scanner saved,
 * which the volunteer adds to this category's upload queue. The upload itself is the queue's.
 */
export function ScannerInboxPanel({ inbox, upload, target, combine }: ScannerInboxPanelProps) {
  const queue = useFlowInstance(() => createInboxQueue({ inbox, upload, target, combine }));
  const state = useFlow(queue);
  const headingId = useId();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const addable = state.scans.filter((scan) => canAddScan(state, scan));
  const chosen = addable.filter((scan) => selected.has(scan.id)).map((scan) => scan.id);
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const addSelected = async (type: 'add' | 'combine') => {
    await queue.send({ type, ids: chosen });
    setSelected(new Set());
  };

  return (
    <section className="panel scanner-inbox" aria-labelledby={headingId}>
      <h2 className="panel__title" id={headingId}>
        Scanner inbox
      </h2>
      <p className="hint">{state.folder ? `Watching ${state.folder}` : 'No scanner folder is set.'}</p>
      {state.watchError && (
        <p className="status status--error" role="alert">
          {state.watchError}
        </p>
      )}
      {state.problem && (
        <p className="status status--error scanner-inbox__problem" role="alert">
          {state.problem}
        </p>
      )}
      {state.scans.length === 0 ? (
        <p>No scans waiting.</p>
      ) : (
        <ul className="scanner-inbox__list" aria-label="Waiting scans">
          {state.scans.map((scan) => (
            <ScanRow
              key={scan.id}
              scan={scan}
              inbox={inbox}
              state={state}
              category={target.docType}
              checked={selected.has(scan.id)}
              onToggle={(on) => toggle(scan.id, on)}
            />
          ))}
        </ul>
      )}
      <InboxActions
        chosen={chosen.length}
        canAddAll={addable.some((scan) => !scan.duplicateOf)}
        adding={state.adding}
        onAdd={(type) => void addSelected(type)}
        onAddAll={() => void queue.send({ type: 'addAll' })}
      />
    </section>
  );
}

interface InboxActionsProps {
  /** How many scans are selected (and can be added). */
  chosen: number;
  canAddAll: boolean;
  adding: boolean;
  onAdd: (type: 'add' | 'combine') => void;
  onAddAll: () => void;
}

/** Add selected, Combine into one PDF (two or more selected) and Add all (duplicates left out). */
function InboxActions({ chosen, canAddAll, adding, onAdd, onAddAll }: InboxActionsProps) {
  return (
    <div className="actions actions--tight">
      <button type="button" className="button" disabled={chosen === 0 || adding} onClick={() => onAdd('add')}>
        {`Add selected to queue (${chosen})`}
      </button>
      <button
        type="button"
        className="button"
        disabled={chosen < 2 || adding}
        onClick={() => onAdd('combine')}
      >
        Combine into one PDF
      </button>
      <button type="button" className="button" disabled={!canAddAll || adding} onClick={onAddAll}>
        Add all to queue
      </button>
      {adding && (
        <span className="status" role="status">
          Adding scans…
        </span>
      )}
    </div>
  );
}

interface ScanRowProps {
  scan: InboxScanView;
  inbox: ScannerInbox;
  state: InboxQueueState;
  /** The category the panel is on: what the scan's reading is weighed against. */
  category: string;
  checked: boolean;
  onToggle: (on: boolean) => void;
}

/**
 * One waiting scan.
 * @internal Exported for its tests.
 */
export function ScanRow({ scan, inbox, state, category, checked, onToggle }: ScanRowProps) {
  const nameId = useId();
  const inQueue = state.queued[scan.id] !== undefined;
  // The snapshot names the form as a plain string (it has no imports); it is the reader's own name.
  const verdict = scan.reading && readingVerdict(scan.reading as DocumentReading, category, new Date());
  return (
    <li className="scanner-inbox__scan" aria-labelledby={nameId} data-status={scan.status}>
      <input
        type="checkbox"
        className="scanner-inbox__check"
        aria-label={`Select ${scan.relPath}`}
        checked={checked && canAddScan(state, scan)}
        disabled={!canAddScan(state, scan)}
        onChange={(event) => onToggle(event.currentTarget.checked)}
      />
      <Thumbnail inbox={inbox} scan={scan} />
      <div className="scanner-inbox__text">
        <span className="scanner-inbox__name" id={nameId}>
          {scan.relPath}
        </span>
        <span className="scanner-inbox__meta">
          {`${formatBytes(scan.size)} · ${formatDateTime(scan.mtimeMs)}`}
        </span>
        <span className="scanner-inbox__tags">
          {scan.duplicateOf && (
            <span className="tag tag--plain">
              {`Duplicate of ${scan.duplicateOf.name}${scan.duplicateOf.uploaded ? ' (uploaded)' : ''}`}
            </span>
          )}
          {inQueue && <span className="tag tag--strong">In queue</span>}
          {!inQueue && scan.status === 'uploading' && <span className="tag tag--plain">Uploading…</span>}
        </span>
        {scan.status === 'failed' && scan.error && (
          <span className="status status--error scanner-inbox__error">{`Upload failed: ${scan.error.replace(/^Upload failed:\s*/, '')}`}</span>
        )}
        {/* No Move button: the volunteer opens the right category and adds the scan there. */}
        {verdict && (
          <span className="reading-note__text scanner-inbox__reading" role="status">
            {verdictText(READING_TEXTS.en, verdict, category)}
          </span>
        )}
      </div>
    </li>
  );
}

/** The host's preview, or the file type while there is none. */
function Thumbnail({ inbox, scan }: { inbox: ScannerInbox; scan: InboxScanView }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    inbox.thumbnail(scan.id).then(
      (found) => live && setUrl(found),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [inbox, scan.id]);
  if (url) return <img className="scanner-inbox__thumb" src={url} alt="" />;
  return (
    <span className="scanner-inbox__thumb scanner-inbox__thumb--none" aria-hidden="true">
      {fileExtension(scan.name).replace('.', '').toUpperCase() || 'FILE'}
    </span>
  );
}
