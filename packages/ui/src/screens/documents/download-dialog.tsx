import { useId } from 'react';
import { Modal } from '../../components/modal';
import { useFlow } from '../../hooks/use-flow';
import { canDownload, downloadPercent, formatBytes } from '@vita-docs/core';
import type { DownloadAllFlow } from '@vita-docs/core';

/**
 * "Choose types to include" (docs/behaviour.md#download-all): a checkbox per category labelled Has
 * files or Empty, in a list that scrolls at 300px; Select All, Cancel, Download. While the archive
 * streams in, a progress bar.
 */
export function DownloadDialog({ flow }: { flow: DownloadAllFlow }) {
  const state = useFlow(flow);
  const legendId = useId();
  if (state.status === 'closed') return null;
  const downloading = state.status === 'downloading';
  const cancel = () => void flow.send({ type: 'cancel' });
  const percent = downloadPercent(state);
  return (
    <Modal
      title="Choose types to include"
      onClose={cancel}
      actions={
        <>
          <button
            type="button"
            className="button"
            disabled={downloading}
            onClick={() => void flow.send({ type: 'selectAll' })}
          >
            Select All
          </button>
          <button type="button" className="button" onClick={cancel}>
            Cancel
          </button>
          <button
            type="button"
            className="button button--primary"
            disabled={!canDownload(state)}
            onClick={() => void flow.send({ type: 'download' })}
          >
            Download
          </button>
        </>
      }
    >
      <fieldset className="choice-list" aria-labelledby={legendId} disabled={downloading}>
        <legend className="visually-hidden" id={legendId}>
          Document types
        </legend>
        {state.choices.map((choice) => (
          <label key={choice.name} className="checkbox choice">
            <input
              type="checkbox"
              checked={state.selected.includes(choice.name)}
              onChange={() => void flow.send({ type: 'toggle', name: choice.name })}
            />
            <span className="choice__name">{choice.name}</span>
            <span className={`choice__state choice__state--${choice.hasFiles ? 'ready' : 'missing'}`}>
              {choice.hasFiles ? 'Has files' : 'Empty'}
            </span>
          </label>
        ))}
      </fieldset>
      {downloading && (
        <div className="download-progress">
          <progress aria-label="Download progress" max={100} value={percent ?? undefined} />
          <p className="status" role="status">
            {percent === null
              ? `Downloading… ${formatBytes(state.received)}`
              : `Downloading… ${percent}% (${formatBytes(state.received)})`}
          </p>
        </div>
      )}
    </Modal>
  );
}
