import { notUploadedYetMessage } from '@vita-docs/core';
import { Modal } from '../../components/modal';
import { leaveQueueBody } from '../../texts';

export type LeaveChoice = 'upload' | 'discard' | 'stay';

/** Asked before leaving a category whose queue still holds files not uploaded. */
export function LeaveDialog({ count, onChoose }: { count: number; onChoose: (choice: LeaveChoice) => void }) {
  return (
    <Modal
      title={notUploadedYetMessage(count)}
      onClose={() => onChoose('stay')}
      actions={
        <>
          <button type="button" className="button" autoFocus onClick={() => onChoose('stay')}>
            Stay
          </button>
          <button type="button" className="button button--danger" onClick={() => onChoose('discard')}>
            Discard
          </button>
          <button type="button" className="button button--primary" onClick={() => onChoose('upload')}>
            Upload now
          </button>
        </>
      }
    >
      <p>{leaveQueueBody(count)}</p>
    </Modal>
  );
}
