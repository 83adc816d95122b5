import { canRetryNow } from '@vita-docs/core';
import type { FileProgress, UploadFlow } from '@vita-docs/core';

/** `Retry` (when retrying can help now) and `Remove` (unless it is being sent) for a queued file. */
export function RetryRemoveButtons({
  id,
  progress,
  flow,
  disabled = false,
}: {
  id: string;
  progress: FileProgress;
  flow: UploadFlow;
  disabled?: boolean;
}) {
  return (
    <>
      {canRetryNow(progress) && (
        <button
          type="button"
          className="button button--small"
          disabled={disabled}
          onClick={() => void flow.send({ type: 'retry', id })}
        >
          Retry
        </button>
      )}
      {progress.status !== 'uploading' && (
        <button
          type="button"
          className="button button--small"
          disabled={disabled}
          onClick={() => void flow.send({ type: 'remove', id })}
        >
          Remove
        </button>
      )}
    </>
  );
}
