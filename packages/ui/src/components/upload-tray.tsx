import { formatMegabytes, messages, uploadingTrayLabel, waitingTrayLabel } from '@vita-docs/core';
import type { QueuesSummary, TrayItem } from '@vita-docs/core';
import { useId, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { useUploadQueues } from '../app/upload-queues';
import { useFlow } from '../hooks/use-flow';
import { progressLabel } from '../texts';
import { RetryRemoveButtons } from './queue-item-actions';

/** What the tray's button says, and how far the files it counts have gone (0–1). */
function overview({ items, finished, finishedBytes }: QueuesSummary): { label: string; done: number } {
  const uploading = items.some((item) => item.progress.status === 'uploading');
  const total = finishedBytes + items.reduce((sum, item) => sum + item.size, 0);
  const sent =
    finishedBytes +
    items.reduce((sum, item) => sum + (item.progress.status === 'uploading' ? item.progress.loaded : 0), 0);
  const done = total > 0 ? sent / total : 0;
  if (uploading) return { label: uploadingTrayLabel(finished + 1, finished + items.length), done };
  if (items.some((item) => item.progress.status === 'waiting'))
    return { label: messages.waitingForConnection, done };
  return { label: waitingTrayLabel(items.length), done };
}

/**
 * The upload tray in the header (docs/behaviour.md#upload-tray): while any queue of the app holds
 * files, `Uploading 2 of 5` (or what they wait for) with the overall progress; it opens the list of
 * every file — client, category, name, progress, state — with Retry and Remove.
 */
export function UploadTray() {
  const queues = useUploadQueues();
  const summary = useFlow(queues.summary);
  const [open, setOpen] = useState(false);
  const listId = useId();
  const button = useRef<HTMLButtonElement>(null);
  if (summary.items.length === 0) return null;
  const { label, done } = overview(summary);
  // Escape closes the open list, as a disclosure's popup does, and gives the focus back to its button.
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    event.stopPropagation();
    setOpen(false);
    button.current?.focus();
  };
  return (
    <div className="upload-tray" onKeyDown={closeOnEscape}>
      <button
        ref={button}
        type="button"
        className="upload-tray__button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((was) => !was)}
      >
        <span className="upload-tray__label">{label}</span>
        <progress
          className="upload-tray__progress"
          aria-label="Overall upload progress"
          max={1}
          value={done}
        />
      </button>
      {open && (
        <section id={listId} className="upload-tray__panel" aria-label="Uploads">
          <ul className="upload-tray__list">
            {summary.items.map((item) => (
              <TrayLine key={item.id} item={item} />
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function TrayLine({ item }: { item: TrayItem }) {
  const nameId = useId();
  const { progress, flow } = item;
  return (
    <li className="upload-tray__item" aria-labelledby={nameId}>
      <span className="upload-tray__where">
        {item.clientName ?? 'Client'} · {item.target.docType}
      </span>
      <span className="upload-tray__name" id={nameId}>
        {item.name} <span className="hint">{formatMegabytes(item.size)}</span>
      </span>
      <span className="upload-tray__state">
        <progress
          aria-label={`Upload progress of ${item.name}`}
          max={progress.status === 'uploading' ? Math.max(progress.total, 1) : 1}
          value={progress.status === 'uploading' ? progress.loaded : 0}
        />{' '}
        {progressLabel(progress)}
      </span>
      {progress.status === 'failed' && <span className="status status--error">{progress.error}</span>}
      <span className="upload-tray__actions">
        <RetryRemoveButtons id={item.id} progress={progress} flow={flow} />
      </span>
    </li>
  );
}
