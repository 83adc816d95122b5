import { createSubmissionFlow, documentsDeletedOnText, submittedOnText } from '@vita-docs/core';
import { useEffect } from 'react';
import { useServices } from '../../app/services';
import { useFlow, useFlowInstance } from '../../hooks/use-flow';

/**
 * `Mark as submitted` / `Submitted on <date>` with `Undo submitted`, and the retention rule's day
 * (docs/behaviour.md#client-documents-screen).
 */
export function SubmissionLine({ clientId, clientName }: { clientId: string; clientName: string }) {
  const { api, platform } = useServices();
  const flow = useFlowInstance(() => createSubmissionFlow({ api, platform, clientId }));
  const state = useFlow(flow);
  useEffect(() => {
    void flow.send({ type: 'load' });
  }, [flow]);
  if (state.status !== 'ready') return null;
  const { submission, busy } = state;
  return (
    <section className="submission" aria-label="Submission">
      {submission.submittedAt ? (
        <>
          <p className="submission__when">{submittedOnText(submission.submittedAt)}</p>
          {submission.deleteOn && (
            <p className="submission__when">{documentsDeletedOnText(submission.deleteOn)}</p>
          )}
          {submission.canUndo && (
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => void flow.send({ type: 'undo' })}
            >
              Undo submitted
            </button>
          )}
        </>
      ) : (
        <button
          type="button"
          className="button"
          disabled={busy}
          onClick={() => void flow.send({ type: 'submit', clientName })}
        >
          Mark as submitted
        </button>
      )}
    </section>
  );
}
