// The alerts a screen raises when its call found the session ended: the login page says why, once.
import { messages } from '@vita-docs/core';
import type { SessionState } from '@vita-docs/core';
import { describe, expect, it } from 'vitest';
import { quietOnSessionEnd } from './session';

function quiet(state: SessionState) {
  const alerts: string[] = [];
  const platform = quietOnSessionEnd(
    { alert: (m: string) => void alerts.push(m) },
    { getState: () => state },
  );
  return { platform, alerts };
}

describe('alerts once the session ended under a screen', () => {
  it('drops the role change always, and Please sign in. once the session ended under the screen', () => {
    const { platform, alerts } = quiet({ status: 'signedOut', reason: 'role_changed' });
    void platform.alert(messages.roleChanged);
    void platform.alert(messages.pleaseSignIn);
    const expired = quiet({ status: 'signedOut', expired: true });
    void expired.platform.alert(messages.pleaseSignIn);
    expect([...alerts, ...expired.alerts]).toEqual([]);
  });

  it('keeps every other alert, and Please sign in. while no session ended', () => {
    const { platform, alerts } = quiet({ status: 'signedOut' });
    void platform.alert(messages.pleaseSignIn);
    const ended = quiet({ status: 'signedOut', expired: true });
    void ended.platform.alert('Delete failed: Server error');
    expect([...alerts, ...ended.alerts]).toEqual([messages.pleaseSignIn, 'Delete failed: Server error']);
  });
});
