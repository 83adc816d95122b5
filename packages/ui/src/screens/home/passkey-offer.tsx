import { passkeyMessages } from '@vita-docs/core';
import { useEffect, useId, useState } from 'react';
import { Navigate } from '../../app/router';
import { hasPlatformAuthenticator } from '../../adapters/passkeys';
import { paths } from '../../app/paths';
import { useServices } from '../../app/services';
import { useCreatePasskey, usePasskeys } from '../passkey-hooks';

/**
 * The dashboard's offer (docs/behaviour.md#passkeys): shown to someone without a passkey, on a device
 * with a platform authenticator, unless they answered `Not now` in the last 30 days (kept per person
 * on the server, so another device does not ask again either). Where the passkey rule applies, the
 * person goes to /account first.
 */
export function PasskeyOffer() {
  const { api } = useServices();
  const { list, reload } = usePasskeys();
  const create = useCreatePasskey();
  const [platformReady, setPlatformReady] = useState(false);
  const [answered, setAnswered] = useState(false);
  const [created, setCreated] = useState(false);
  const headingId = useId();
  useEffect(() => {
    let live = true;
    void hasPlatformAuthenticator().then((ok) => live && setPlatformReady(ok));
    return () => {
      live = false;
    };
  }, []);

  if (list?.required) return <Navigate to={paths.account} replace />;
  if (created) {
    return (
      <p className="status status--ok" role="status">
        {passkeyMessages.created}
      </p>
    );
  }
  if (!list?.offer || !platformReady || answered) return null;

  const createNow = async () => {
    if (await create()) {
      setCreated(true);
      await reload();
    }
  };
  const notNow = async () => {
    setAnswered(true);
    await api.passkeyNotNow();
  };
  return (
    <section className="section passkey-offer" aria-labelledby={headingId}>
      <h2 className="section__title" id={headingId}>
        {passkeyMessages.offer}
      </h2>
      <div className="actions">
        <button className="button button--primary" type="button" onClick={() => void createNow()}>
          {passkeyMessages.create}
        </button>
        <button className="button" type="button" onClick={() => void notNow()}>
          {passkeyMessages.notNow}
        </button>
      </div>
    </section>
  );
}
