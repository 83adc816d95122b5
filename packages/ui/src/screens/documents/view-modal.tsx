import { messages } from '@vita-docs/core';
import type { FileViewerFlow, FileViewerState } from '@vita-docs/core';
import { useCallback, useState } from 'react';
import { Modal } from '../../components/modal';
import { Loading } from '../../components/page';
import { useFlow } from '../../hooks/use-flow';
import { PdfPages } from './pdf-pages';

/**
 * The View modal (docs/behaviour.md#view-modal): about 84vw × 80vh (at most 1100px wide). Images are
 * drawn, PDFs drawn page by page fitted to the viewer (pdf.js, loaded when first needed), anything
 * else gets the download link.
 */
export function ViewModal({ flow }: { flow: FileViewerFlow }) {
  const state = useFlow(flow);
  if (state.status === 'closed') return null;
  const close = () => void flow.send({ type: 'close' });
  return (
    <Modal
      title={state.item.filename}
      className="modal--viewer"
      onClose={close}
      actions={
        <button type="button" className="button" onClick={close}>
          Close
        </button>
      }
    >
      <Preview key={state.item.key} state={state} />
    </Modal>
  );
}

function Preview({ state }: { state: Exclude<FileViewerState, { status: 'closed' }> }) {
  const [unreadable, setUnreadable] = useState(false);
  const failed = useCallback(() => setUnreadable(true), []);
  if (state.status === 'loading') return <Loading />;
  const { item, kind, url } = state;
  if (kind === 'image') return <img className="viewer__image" src={url} alt={item.filename} />;
  if (kind === 'pdf' && !unreadable) return <PdfPages url={url} title={item.filename} onError={failed} />;
  // What pdf.js cannot fetch (the desk's page may only reach its server through main) or read goes to
  // the browser's own viewer, which `view=Fit` asks for the whole page in view.
  if (kind === 'pdf')
    return <iframe className="viewer__frame" src={`${url}#view=Fit`} title={item.filename} />;
  return (
    <div className="viewer__none">
      <p>{messages.previewNotAvailable}</p>
      <a className="button button--primary" href={url} download={item.filename}>
        Download
      </a>
    </div>
  );
}
