import { createPasskeyPolicyFlow } from '@vita-docs/core';
import { useId } from 'react';
import { useServices } from '../app/services';
import { SaveStatus } from '../components/save-status';
import { useLoadedFlow } from '../hooks/use-flow';

/**
 * On /admin/settings: "Require passkeys for admins and officers" (docs/behaviour.md#passkeys). Saved
 * as it is ticked: it takes effect at their next PIN + code sign-in.
 */
export function PasskeyPolicyForm() {
  const { api } = useServices();
  const [flow, form] = useLoadedFlow(() => createPasskeyPolicyFlow({ api }));
  const id = useId();
  if (form.status !== 'ready') return null;

  return (
    <form className="form" aria-labelledby={`${id}-title`} onSubmit={(e) => e.preventDefault()}>
      <h2 id={`${id}-title`} className="panel__title">
        Passkeys
      </h2>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={form.requireForStaff}
          disabled={form.saving}
          onChange={(e) => void flow.send({ type: 'set', requireForStaff: e.currentTarget.checked })}
        />
        Require passkeys for admins and officers
      </label>
      <p className="field__hint">
        An admin or officer who signs in with Password PIN and code must then create a passkey before anything
        else.
      </p>
      <SaveStatus outcome={form.outcome} />
    </form>
  );
}
