import { allSelected, duplicateNote, formatBytes, messages } from '@vita-docs/core';
import type { DocItem, RetakeState } from '@vita-docs/core';
import { useEffect, useId, useState } from 'react';
import { Loading } from '../../components/page';
import { useFlow } from '../../hooks/use-flow';
import { linkTexts, texts } from '../../texts';
import { RetakeMenu } from './retake-menu';
import { RowNotes } from './category-parts';
import '../../styles/section.css';
import type { CategoryFlows } from './use-category-flows';

/** The "Uploaded" list of the category screen: selection, Delete Selected, and per-file actions. */
export function UploadedList({
  flows,
  fromClient,
  offline = false,
}: {
  flows: CategoryFlows;
  /** Keys of the files that came through a request link (marked `From client`). */
  fromClient?: ReadonlySet<string>;
  /** Opened with no connection: the list cannot be had, and says so. */
  offline?: boolean;
}) {
  const { list } = flows;
  const state = useFlow(list);
  const retake = useFlow(flows.retake);
  const replaced = useRecentlyReplaced(retake);
  useFocusAfterRename(flows);
  const headingId = useId();
  const every = allSelected(state);
  const ready = state.status === 'ready';
  return (
    <section className="panel" aria-labelledby={headingId} aria-busy={state.status === 'loading'}>
      <div className="panel__head">
        <h2 className="panel__title" id={headingId}>
          Uploaded
        </h2>
        <div className="actions actions--tight">
          <button
            type="button"
            className="button button--small"
            disabled={!ready || state.items.length === 0}
            onClick={() => void list.send({ type: every ? 'clearSelection' : 'selectAll' })}
          >
            {every ? 'Clear Selection' : 'Select All'}
          </button>
          <button
            type="button"
            className="button button--small button--danger"
            disabled={!ready || state.selected.length === 0}
            onClick={() => void list.send({ type: 'deleteSelected' })}
          >
            Delete Selected
          </button>
        </div>
      </div>
      {state.items.length === 0 ? (
        <EmptyList status={offline ? 'offline' : state.status} error={state.error} />
      ) : (
        <ul className="file-list">
          {state.items.map((item) => (
            <FileRow
              key={item.key}
              item={item}
              flows={flows}
              selected={state.selected.includes(item.key)}
              busy={!ready}
              retake={retake}
              replaced={item.key === replaced}
              fromClient={fromClient?.has(item.key) ?? false}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function EmptyList({ status, error }: { status: string; error: string | null }) {
  if (status === 'offline') return <p className="status">{texts.needsConnection}</p>;
  if (status === 'loading') return <Loading />;
  if (status === 'error') return <p className="status status--error">{error}</p>;
  return <p className="status">{messages.noFilesYet}</p>;
}

/**
 * After Rename → Save the renamed row's Rename button has the focus (the row is new: its key changed,
 * so the dialog cannot give the focus back to the button that opened it).
 */
function useFocusAfterRename({ rename, renamedKey }: CategoryFlows): void {
  const { status } = useFlow(rename);
  useEffect(() => {
    const key = renamedKey?.current;
    if (status !== 'closed' || !key) return;
    renamedKey.current = null;
    document.querySelector<HTMLElement>(`[data-rename-key="${CSS.escape(key)}"]`)?.focus();
  }, [status, renamedKey]);
}

/** How long a retaken file shows `Replaced`. */
const REPLACED_MS = 5000;

/** The key of the file a retake stored, for a few seconds after it did. */
function useRecentlyReplaced(retake: RetakeState): string | null {
  const latest = retake.status === 'idle' ? (retake.replaced ?? null) : null;
  const [shown, setShown] = useState<string | null>(null);
  useEffect(() => {
    if (!latest) return;
    setShown(latest);
    const timer = setTimeout(() => setShown(null), REPLACED_MS);
    return () => clearTimeout(timer);
  }, [latest]);
  return shown;
}

interface FileRowProps {
  item: DocItem;
  flows: CategoryFlows;
  selected: boolean;
  busy: boolean;
  retake: RetakeState;
  /** Just put here by a retake. */
  replaced: boolean;
  /** Came through a request link. */
  fromClient?: boolean;
}

function FileRow({ item, flows, selected, busy, retake, replaced, fromClient }: FileRowProps) {
  const nameId = useId();
  // A warned pick may be retaken again (another photo), and only this row's.
  const retakeIdle =
    retake.status === 'idle' ||
    retake.status === 'failed' ||
    (retake.status === 'warned' && retake.key === item.key);
  return (
    <li className="file-row" aria-labelledby={nameId}>
      <label className="checkbox file-row__select">
        <input
          type="checkbox"
          checked={selected}
          disabled={busy}
          onChange={() => void flows.list.send({ type: 'toggle', key: item.key })}
        />
        Select<span className="visually-hidden"> {item.filename}</span>
      </label>
      <div className="file-row__info">
        <span className="file-row__name" id={nameId}>
          {item.filename}
        </span>
        {fromClient && <span className="tag file-row__from-client">{linkTexts.fromClient}</span>}
        {replaced && (
          <span className="tag tag--strong file-row__replaced" role="status">
            Replaced
          </span>
        )}
        {item.duplicateOf && <span className="file-row__duplicate">{duplicateNote(item.duplicateOf)}</span>}
        <span className="file-row__size">{formatBytes(item.size)}</span>
      </div>
      <RowNotes item={item} flows={flows} retake={retake} />
      <div className="file-row__actions">
        <button
          type="button"
          className="button button--small"
          aria-label={`View ${item.filename}`}
          onClick={() => void flows.viewer.send({ type: 'open', item })}
        >
          View
        </button>
        <button
          type="button"
          className="button button--small"
          aria-label={`Rename ${item.filename}`}
          data-rename-key={item.key}
          disabled={busy}
          onClick={() => void flows.rename.send({ type: 'open', item })}
        >
          Rename
        </button>
        <RetakeMenu
          filename={item.filename}
          disabled={busy || !retakeIdle}
          onFile={(file) =>
            void flows.retake.send({ type: 'retake', key: item.key, filename: item.filename, file })
          }
        />
        {/* Apart from the others (at the row's end), so a quick tap on View or Rename never lands here. */}
        <button
          type="button"
          className="button button--small button--danger file-row__delete"
          aria-label={`Delete ${item.filename}`}
          disabled={busy}
          onClick={() => void flows.list.send({ type: 'deleteFile', key: item.key })}
        >
          Delete
        </button>
      </div>
    </li>
  );
}
