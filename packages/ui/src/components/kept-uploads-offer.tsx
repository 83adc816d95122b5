import {
  discardKeptConfirm,
  filesDeletedForOtherMessage,
  filesLostMessage,
  filesWaitingMessage,
} from '@vita-docs/core';
import { useUploadQueues } from '../app/upload-queues';
import { useServices } from '../app/services';
import { useSession } from '../app/session';
import { useFlow } from '../hooks/use-flow';
import { FilePicker, UPLOAD_ACCEPT } from '../screens/documents/file-picker';

/**
 * After signing in on a device that kept this person's queued files (docs/behaviour.md#kept-uploads):
 * `You have N files waiting to upload.` with Resume and Discard; files whose bytes could not be
 * restored, by name, each with `Choose file again`; and, once, how many of their files someone else's
 * sign-in on this device deleted.
 */
export function KeptUploadsOffer() {
  const session = useSession();
  const queues = useUploadQueues();
  const { platform } = useServices();
  const { files, lost, deletedForOthers } = useFlow(queues.offer);
  // Photos taken of a client's papers may exist nowhere else: asked first.
  const discard = async () => {
    if (await platform.confirm(discardKeptConfirm(files.length + lost.length))) await queues.discard();
  };
  if (session.status !== 'signedIn' || (files.length === 0 && lost.length === 0 && deletedForOthers === 0))
    return null;
  return (
    <section className="kept-offer" aria-label="Files waiting to upload">
      {files.length > 0 && (
        <div className="kept-offer__part">
          <p className="kept-offer__text">{filesWaitingMessage(files.length)}</p>
          <ul className="kept-offer__list">
            {files.map(({ entry }) => (
              <li key={entry.id}>
                {entry.name}{' '}
                <span className="hint">
                  ({entry.clientName ?? 'Client'} · {entry.target.docType})
                </span>
              </li>
            ))}
          </ul>
          <div className="actions actions--tight">
            <button type="button" className="button button--primary" onClick={() => queues.resume()}>
              Resume
            </button>
            <button type="button" className="button" onClick={() => void discard()}>
              Discard
            </button>
          </div>
        </div>
      )}
      {lost.length > 0 && (
        <div className="kept-offer__part">
          <p className="kept-offer__text">{filesLostMessage(lost.length)}</p>
          <ul className="kept-offer__list">
            {lost.map((entry) => (
              <li key={entry.id} className="kept-offer__lost">
                <span>
                  {entry.name}{' '}
                  <span className="hint">
                    ({entry.clientName ?? 'Client'} · {entry.target.docType})
                  </span>
                </span>
                <FilePicker
                  label="Choose file again"
                  accept={UPLOAD_ACCEPT}
                  className="button--small"
                  onFiles={([file]) => file && queues.chooseAgain(entry, file)}
                />
              </li>
            ))}
          </ul>
          {files.length === 0 && (
            <button type="button" className="button" onClick={() => void discard()}>
              Discard
            </button>
          )}
        </div>
      )}
      {deletedForOthers > 0 && (
        <div className="kept-offer__part">
          <p className="kept-offer__text">{filesDeletedForOtherMessage(deletedForOthers)}</p>
          <button type="button" className="button" onClick={() => queues.dismissDeleted()}>
            OK
          </button>
        </div>
      )}
    </section>
  );
}
