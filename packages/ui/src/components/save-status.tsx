import type { SaveOutcome } from '@vita-docs/core';

/** A Settings form's status line: `Saved.`, or the server's refusal, announced as it changes. */
export function SaveStatus({ outcome }: { outcome: SaveOutcome | null }) {
  return (
    <p className={`status${outcome?.saved === false ? ' status--error' : ''}`} role="status">
      {outcome ? (outcome.saved ? 'Saved.' : outcome.error) : ''}
    </p>
  );
}
