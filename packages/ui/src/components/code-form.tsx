import { CODE_LENGTH } from '@vita-docs/core';
import type { ResendFlow } from '@vita-docs/core';
import { CodeField } from './field';
import { submitted } from './form';
import { ResendButton } from './resend-button';

interface CodeFormProps {
  /** Disables Submit while the code is being checked. */
  busy: boolean;
  resend: ResendFlow;
  onCode: (code: string) => void;
}

/** The emailed code with Submit and Resend code: the login and forgot-password verify pages. */
export function CodeForm({ busy, resend, onCode }: CodeFormProps) {
  return (
    <form className="form" aria-busy={busy} onSubmit={(event) => onCode(submitted(event)('code'))}>
      <CodeField length={CODE_LENGTH} />
      <div className="actions">
        <button className="button button--primary" type="submit" disabled={busy}>
          Submit
        </button>
        <ResendButton flow={resend} />
      </div>
    </form>
  );
}
