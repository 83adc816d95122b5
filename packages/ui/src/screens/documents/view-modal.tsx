import { messages } from '@vita-docs/core';
import type { FileViewerFlow, FileViewerState } from '@vita-docs/core';
import { Modal } from '../../components/modal';
import { Loading } from '../../components/page';
import { useFlow } from '../../hooks/use-flow';

/**
 * The View modal (docs/behaviour.md#view-modal): about 84vw × 80vh (at most 1100px wide). Images are
 * drawn, PDFs open in the browser's viewer fitted to the page, anything else gets the download link.
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
      <Preview state={state} />
    </Modal>
  );
}

function Preview({ state }: { state: Exclude<FileViewerState, { status: 'closed' }> }) {
  if (state.status === 'loading') return <Loading />;
  const { item, kind, url } = state;
  if (kind === 'image') return <img className="viewer__image" src={url} alt={item.filename} />;
  // `view=Fit` asks Chromium's and Firefox's viewers for the whole page in view.
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
