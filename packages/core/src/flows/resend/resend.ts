/** The Resend code button (docs/behaviour.md#resend-cooldown): disabled 30 s after a successful resend. */
import { RESEND_COOLDOWN_SECONDS } from '../../domain/constants.js';
import { messages, resendCountdownLabel } from '../../domain/messages.js';
import type { Clock, Dialogs } from '../../ports.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';

/** The button's state; while `coolingDown` it is disabled and shows `label` (`Resend in Ns`). */
export type ResendState =
  { status: 'ready' } | { status: 'sending' } | { status: 'coolingDown'; secondsLeft: number; label: string };

/** Pressing the button. */
export type ResendEvent = { type: 'resend' };

/** The ports of {@link createResendFlow}. */
export interface ResendFlowOptions {
  /** The call: `api.loginResend` or `api.forgotResend` with the email kept for the session. */
  resend: () => Promise<{ emailSent?: boolean }>;
  clock: Clock;
  platform: Pick<Dialogs, 'alert'>;
  /** Seconds of cooldown; {@link RESEND_COOLDOWN_SECONDS} by default. */
  cooldownSeconds?: number;
}

/** The resend flow; `dispose` stops its countdown timer. */
export interface ResendFlow extends Flow<ResendState, ResendEvent> {
  dispose(): void;
}

/** Creates the resend flow. */
export function createResendFlow({
  resend,
  clock,
  platform,
  cooldownSeconds = RESEND_COOLDOWN_SECONDS,
}: ResendFlowOptions): ResendFlow {
  const store = createStore<ResendState>({ status: 'ready' });
  let timer: unknown;
  let endsAt = 0;

  function tick(): void {
    const msLeft = endsAt - clock.now();
    if (msLeft <= 0) {
      timer = undefined;
      store.setState({ status: 'ready' });
      return;
    }
    const secondsLeft = Math.ceil(msLeft / 1000);
    store.setState({ status: 'coolingDown', secondsLeft, label: resendCountdownLabel(secondsLeft) });
    // Wake at the next whole-second boundary so the label never lags behind the real time.
    timer = clock.setTimeout(tick, msLeft - (secondsLeft - 1) * 1000);
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      if (event.type !== 'resend' || store.getState().status !== 'ready') return;
      store.setState({ status: 'sending' });
      let sent = false;
      try {
        sent = (await resend()).emailSent !== false;
      } catch {
        sent = false;
      }
      if (!sent) {
        store.setState({ status: 'ready' });
        await platform.alert(messages.resendFailed);
        return;
      }
      endsAt = clock.now() + cooldownSeconds * 1000;
      tick();
      await platform.alert(messages.resendSucceeded);
    },
    dispose() {
      if (timer !== undefined) clock.clearTimeout(timer);
      timer = undefined;
    },
  };
}
