import { STAFF_SCAN_TEXTS } from '@vita-docs/core';
import type { ScanFlow, ScanPageItem, ScanTexts } from '@vita-docs/core';
import { useEffect, useId, useRef } from 'react';
import type { DragEvent } from 'react';
import { Modal } from '../../components/modal';
import { useFlow } from '../../hooks/use-flow';
import { FilePicker, PHOTO_ACCEPT } from './file-picker';
import { PhotoThumb } from './photo-thumb';

/**
 * The Scan pages dialog (docs/behaviour.md#scan-pages): Add page takes a photo (or files are picked or
 * dropped here); each page can be turned, moved and removed; Done makes one PDF for the upload queue.
 */
export function ScanDialog({ flow, texts = STAFF_SCAN_TEXTS }: { flow: ScanFlow; texts?: ScanTexts }) {
  const state = useFlow(flow);
  if (state.status === 'closed') return null;
  const building = state.status === 'building';
  const count = state.pages.length;
  // Dropped here, files are pages; the category screen behind must not queue them too.
  const drop = (event: DragEvent) => {
    event.preventDefault();
    event.stopPropagation();
    const files = Array.from(event.dataTransfer.files);
    if (files.length) void flow.send({ type: 'add', files });
  };
  return (
    <Modal
      title={texts.title}
      className="scan-dialog"
      onClose={() => void flow.send({ type: 'cancel' })}
      actions={
        <>
          <button
            type="button"
            className="button"
            disabled={building}
            onClick={() => void flow.send({ type: 'cancel' })}
          >
            {texts.cancel}
          </button>
          <button
            type="button"
            className="button button--primary"
            disabled={count === 0 || building}
            onClick={() => void flow.send({ type: 'done' })}
          >
            {texts.done(count)}
          </button>
        </>
      }
    >
      <div className="scan-dialog__body" onDragOver={(event) => event.preventDefault()} onDrop={drop}>
        <div className="actions actions--tight">
          <FilePicker
            label={texts.addPage}
            accept={PHOTO_ACCEPT}
            capture="environment"
            multiple
            disabled={building}
            onFiles={(files) => void flow.send({ type: 'add', files })}
          />
        </div>
        <p className="hint">{texts.hint}</p>
        {state.error && (
          <p className="status status--error" role="alert">
            {state.error}
          </p>
        )}
        {count > 0 && (
          <ol className="scan-pages" aria-label={texts.pagesLabel}>
            {state.pages.map((page, index) => (
              <ScanPageRow
                key={page.id}
                page={page}
                number={index + 1}
                last={index === count - 1}
                flow={flow}
                disabled={building}
                texts={texts}
              />
            ))}
          </ol>
        )}
        <p className="status" role="status">
          {building ? texts.making : ''}
        </p>
      </div>
    </Modal>
  );
}

interface ScanPageRowProps {
  page: ScanPageItem;
  number: number;
  last: boolean;
  flow: ScanFlow;
  disabled: boolean;
  texts: ScanTexts;
}

function ScanPageRow({ page, number, last, flow, disabled, texts }: ScanPageRowProps) {
  const label = texts.page(number);
  const labelId = useId();
  const send = (event: Parameters<ScanFlow['send']>[0]) => void flow.send(event);
  const { up, down, move } = useMoveFocus(number);
  return (
    <li className="scan-page" aria-labelledby={labelId}>
      <PhotoThumb file={page.file} rotate={page.rotate} label={label} />
      <div className="scan-page__text">
        <span className="scan-page__number" id={labelId}>
          {label}
        </span>
        {page.warnings.map((warning) => (
          <span key={warning} className="queue__warning">
            {texts.warning(warning)}
          </span>
        ))}
      </div>
      {/* Each button names its page for screen readers: `Rotate left Page 2`. */}
      <div className="scan-page__actions">
        <FilePicker
          label={texts.retake}
          ariaLabel={`${texts.retake} ${label}`}
          accept={PHOTO_ACCEPT}
          capture="environment"
          disabled={disabled}
          className="button--small"
          onFiles={([file]) => file && send({ type: 'replace', id: page.id, file })}
        />
        <button
          type="button"
          className="button button--small"
          aria-label={`${texts.rotateLeft} ${label}`}
          disabled={disabled}
          onClick={() => send({ type: 'rotate', id: page.id, by: -90 })}
        >
          {texts.rotateLeft}
        </button>
        <button
          type="button"
          className="button button--small"
          aria-label={`${texts.rotateRight} ${label}`}
          disabled={disabled}
          onClick={() => send({ type: 'rotate', id: page.id, by: 90 })}
        >
          {texts.rotateRight}
        </button>
        <button
          ref={up}
          type="button"
          className="button button--small"
          aria-label={`${texts.moveUp} ${label}`}
          disabled={disabled || number === 1}
          onClick={() => move(() => send({ type: 'move', id: page.id, by: -1 }), -1)}
        >
          {texts.moveUp}
        </button>
        <button
          ref={down}
          type="button"
          className="button button--small"
          aria-label={`${texts.moveDown} ${label}`}
          disabled={disabled || last}
          onClick={() => move(() => send({ type: 'move', id: page.id, by: 1 }), 1)}
        >
          {texts.moveDown}
        </button>
        <button
          type="button"
          className="button button--small"
          aria-label={`${texts.remove} ${label}`}
          disabled={disabled}
          onClick={() => send({ type: 'remove', id: page.id })}
        >
          {texts.remove}
        </button>
      </div>
    </li>
  );
}

/**
 * Keeps the focus on a moved page's Move button (the row is moved in the list, which drops the focus
 * to the page's body), or on the other one when the page reached the end it moved to.
 */
function useMoveFocus(number: number) {
  const up = useRef<HTMLButtonElement>(null);
  const down = useRef<HTMLButtonElement>(null);
  const pending = useRef<-1 | 1 | null>(null);
  useEffect(() => {
    const by = pending.current;
    if (by === null) return;
    pending.current = null;
    const [same, other] = by === -1 ? [up.current, down.current] : [down.current, up.current];
    (same && !same.disabled ? same : other)?.focus();
  }, [number]);
  const move = (act: () => void, by: -1 | 1) => {
    pending.current = by;
    act();
  };
  return { up, down, move };
}
