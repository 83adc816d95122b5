import { qualityWarningMessage } from '@vita-docs/core';
import type { DocItem, QualityWarning, ReadingVerdict, RetakeState } from '@vita-docs/core';
import { useServices } from '../../app/services';
import { ReadingNote } from './reading-note';
import { dismissVerdict, useUploadedVerdict } from './readings';
import type { CategoryFlows } from './use-category-flows';

/**
 * What an Uploaded row says once something happened to it on this page: how a retake of it goes, what
 * the device read of it when it was queued here, a retake's warnings. Loaded apart from the list
 * (category-parts.tsx): all of them come only after the upload part is here, so the category page's
 * first load does not carry them.
 */
export function RowNotes({
  item,
  flows,
  retake,
}: {
  item: DocItem;
  flows: CategoryFlows;
  retake: RetakeState;
}) {
  return (
    <>
      <RetakeStatus state={retake} fileKey={item.key} />
      <UploadedReading item={item} flows={flows} />
      {retake.status === 'warned' && retake.key === item.key && (
        <RetakeWarning retake={flows.retake} warnings={retake.warnings} filename={item.filename} />
      )}
    </>
  );
}

/** What the device read about an uploaded file when it was queued here: `Move to` moves it on the server. */
function UploadedReading({ item, flows }: { item: DocItem; flows: CategoryFlows }) {
  const verdict = useUploadedVerdict(item.sha256);
  return verdict ? <UploadedVerdict item={item} flows={flows} verdict={verdict} /> : null;
}

function UploadedVerdict({
  item,
  flows,
  verdict,
}: {
  item: DocItem;
  flows: CategoryFlows;
  verdict: ReadingVerdict;
}) {
  const { api } = useServices();
  const move = async (form: string) => {
    await api.moveDoc({ body: { key: item.key, docType: form } });
    if (item.sha256) dismissVerdict(item.sha256);
    await flows.list.send({ type: 'refresh' });
  };
  const keep = () => {
    if (item.sha256) dismissVerdict(item.sha256);
  };
  return <ReadingNote verdict={verdict} category={item.docType} onMove={move} onKeep={keep} />;
}

/**
 * The retake's photo looks bad (docs/behaviour.md#retake): its warnings, Keep anyway (replace with it
 * all the same) and Cancel (keep the old file); the row's Retake menu picks another photo.
 */
function RetakeWarning({
  retake,
  warnings,
  filename,
}: {
  retake: CategoryFlows['retake'];
  warnings: readonly QualityWarning[];
  filename: string;
}) {
  return (
    <div className="file-row__warning">
      {/* Announced as it appears: the person chose the photo, then waits for what the check says. */}
      <div role="status">
        <ul className="queue__notes">
          {warnings.map((warning) => (
            <li key={warning} className="queue__warning">
              {qualityWarningMessage(warning)}
            </li>
          ))}
        </ul>
      </div>
      <div className="actions actions--tight">
        <button
          type="button"
          className="button button--small"
          aria-label={`Keep anyway: replace ${filename}`}
          onClick={() => void retake.send({ type: 'keep' })}
        >
          Keep anyway
        </button>
        <button
          type="button"
          className="button button--small"
          aria-label={`Cancel the retake of ${filename}`}
          onClick={() => void retake.send({ type: 'cancel' })}
        >
          Cancel
        </button>
      </div>
    </div>
  );
}

/** What a running retake of this file is doing. */
function RetakeStatus({ state, fileKey }: { state: RetakeState; fileKey: string }) {
  if (!('key' in state) || state.key !== fileKey || state.status === 'failed' || state.status === 'warned')
    return null;
  const label =
    state.status === 'checking'
      ? 'Checking the photo…'
      : state.status === 'converting'
        ? 'Converting the replacement…'
        : state.status === 'uploading'
          ? `Uploading the replacement… ${state.total ? Math.floor((state.loaded / state.total) * 100) : 0}%`
          : 'Replacing…';
  return (
    <span className="status file-row__status" role="status">
      {label}
    </span>
  );
}
