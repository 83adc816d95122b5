import { isApiError, messages } from '@vita-docs/core';
import type { User } from '@vita-docs/core';
import { useEffect, useState } from 'react';
import { useServices } from '../app/services';
import { passkeysOffered, signInWithPasskey } from '../adapters/passkey-sign-in';

/**
 * Runs `task` at the browser's next idle moment (at most 2 s away); where the browser has no idle
 * callbacks (Safari), after the next task. Returns its cancel.
 */
function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout: 2000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = setTimeout(task, 0);
  return () => clearTimeout(id);
}

/** The browser's refusal when the person cancels or lets the prompt time out: nothing to say. */
const cancelled = (error: unknown) =>
  error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');

/**
 * `Sign in with a passkey` (docs/behaviour.md#passkeys): shown only where the server offers passkeys
 * and the browser has WebAuthn, so a kiosk without them shows the PIN path alone, never a dead button.
 */
export function PasskeySignIn({ onSignedIn }: { onSignedIn: (user: User) => void }) {
  const { api, platform } = useServices();
  const [offered, setOffered] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    // Asked once the browser is first idle, after the form has painted: on a slow phone the question
    // would otherwise compete with the page's own files and its first paint (Lighthouse's mobile score).
    const cancel = whenIdle(() => void passkeysOffered(api).then((on) => live && setOffered(on)));
    return () => {
      live = false;
      cancel();
    };
  }, [api]);
  if (!offered) return null;

  const signIn = async () => {
    setBusy(true);
    try {
      onSignedIn(await signInWithPasskey(api));
    } catch (error) {
      if (!cancelled(error)) await platform.alert(isApiError(error) ? error.message : messages.passkeyFailed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="actions passkey-sign-in">
      <button className="button button--primary" type="button" disabled={busy} onClick={() => void signIn()}>
        {messages.passkeySignIn}
      </button>
    </div>
  );
}
