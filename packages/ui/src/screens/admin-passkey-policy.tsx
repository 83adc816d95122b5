import { isApiError } from '@vita-docs/core';
import { useEffect, useId, useState } from 'react';
import { useServices } from '../app/services';

/**
 * On /admin/settings: "Require passkeys for admins and officers" (docs/behaviour.md#passkeys). Saved
 * as it is ticked: it takes effect at their next PIN + code sign-in.
 */
export function PasskeyPolicyForm() {
  const { api } = useServices();
  const [on, setOn] = useState<boolean | null>(null);
  const [status, setStatus] = useState('');
  const id = useId();
  useEffect(() => {
    void api.getPasskeyPolicy().then(
      (p) => setOn(p.requireForStaff),
      () => setOn(null),
    );
  }, [api]);
  if (on === null) return null;

  const change = async (value: boolean) => {
    setOn(value);
    try {
      setOn((await api.setPasskeyPolicy({ body: { requireForStaff: value } })).requireForStaff);
      setStatus('Saved.');
    } catch (e) {
      setOn(!value);
      setStatus(isApiError(e) ? e.message : String(e));
    }
  };
  return (
    <form className="form" aria-labelledby={`${id}-title`} onSubmit={(e) => e.preventDefault()}>
      <h2 id={`${id}-title`} className="panel__title">
        Passkeys
      </h2>
      <label className="checkbox">
        <input type="checkbox" checked={on} onChange={(e) => void change(e.currentTarget.checked)} />
        Require passkeys for admins and officers
      </label>
      <p className="field__hint">
        An admin or officer who signs in with Password PIN and code must then create a passkey before anything
        else.
      </p>
      <p className="status" role="status">
        {status}
      </p>
    </form>
  );
}
