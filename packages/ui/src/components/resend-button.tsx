import type { ResendFlow } from '@vita-docs/core';
import { useFlow } from '../hooks/use-flow';

/** The Resend code button: disabled for 30 s after a resend, counting down on its label. */
export function ResendButton({ flow }: { flow: ResendFlow }) {
  const state = useFlow(flow);
  return (
    <button
      type="button"
      className="button button--resend"
      disabled={state.status !== 'ready'}
      onClick={() => void flow.send({ type: 'resend' })}
    >
      {state.status === 'coolingDown' ? state.label : 'Resend code'}
    </button>
  );
}
