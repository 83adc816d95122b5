import { isApiError, passkeyMessages, removePasskeysConfirm } from '@vita-docs/core';
import { useCallback, useEffect, useId, useState } from 'react';
import { useServices } from '../app/services';

/**
 * On /admin/users/{email}: how many passkeys the person has, and `Remove all passkeys` (a lost phone;
 * the server audits it and mails the person).
 */
export function UserPasskeys({ email, name }: { email: string; name: string }) {
  const { api, platform } = useServices();
  const [count, setCount] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const headingId = useId();
  const load = useCallback(async () => {
    try {
      setCount((await api.userPasskeys({ params: { email } })).count);
    } catch {
      setCount(null);
    }
  }, [api, email]);
  useEffect(() => {
    void load();
  }, [load]);

  const removeAll = async () => {
    if (!(await platform.confirm(removePasskeysConfirm(name)))) return;
    setBusy(true);
    try {
      await api.removeUserPasskeys({ params: { email } });
      await platform.alert(passkeyMessages.removed);
    } catch (e) {
      await platform.alert(isApiError(e) ? e.message : String(e));
    }
    await load();
    setBusy(false);
  };

  if (count === null) return null;
  return (
    <section className="section" aria-labelledby={headingId}>
      <h2 className="section__title" id={headingId}>
        Passkeys
      </h2>
      <p>{count === 0 ? 'No passkeys' : count === 1 ? '1 passkey' : `${count} passkeys`}</p>
      {count > 0 && (
        <div className="actions">
          <button type="button" className="button" disabled={busy} onClick={() => void removeAll()}>
            Remove all passkeys
          </button>
        </div>
      )}
    </section>
  );
}
