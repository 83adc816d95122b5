import { isApiError, messages, passkeyMessages } from '@vita-docs/core';
import type { PasskeyList } from '@vita-docs/core';
import { useCallback, useEffect, useId, useState } from 'react';
import { Link } from '../app/router';
import { createPasskey } from '../adapters/passkeys';
import { paths } from '../app/paths';
import { useServices } from '../app/services';
import { useSession } from '../app/session';
import { Loading, Page } from '../components/page';

const TITLE = 'Account';

/** The browser's refusal when the person cancels or lets the prompt time out: nothing to say. */
const cancelled = (error: unknown) =>
  error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');

const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString() : 'Never');

/** The signed-in person's passkeys, loaded and reloaded; `error` is the load's failure. */
export function usePasskeys() {
  const { api } = useServices();
  const [list, setList] = useState<PasskeyList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      setList(await api.listPasskeys());
      setError(null);
    } catch (e) {
      setError(isApiError(e) ? e.message : String(e));
    }
  }, [api]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { list, error, reload };
}

/** Runs the create ceremony; alerts what went wrong unless the person cancelled. True when made. */
export function useCreatePasskey() {
  const { api, platform } = useServices();
  return useCallback(async () => {
    try {
      await createPasskey(api);
      return true;
    } catch (error) {
      if (!cancelled(error))
        await platform.alert(isApiError(error) ? error.message : passkeyMessages.createFailed);
      return false;
    }
  }, [api, platform]);
}

/** `/account` (docs/behaviour.md#account-screen): the person's passkeys, `Remove` and `Add a passkey`. */
export function AccountScreen() {
  const session = useSession();
  if (session.status === 'checking') {
    return (
      <Page title={TITLE}>
        <Loading />
      </Page>
    );
  }
  if (session.status === 'signedOut') {
    return (
      <Page title={TITLE}>
        <p>{messages.pleaseSignIn}</p>
        <Link to={`${paths.login}?next=${paths.account}`}>Login</Link>
      </Page>
    );
  }
  return <Passkeys />;
}

function Passkeys() {
  const { api, platform } = useServices();
  const { list, error, reload } = usePasskeys();
  const create = useCreatePasskey();
  const [busy, setBusy] = useState(false);
  const headingId = useId();

  const add = async () => {
    setBusy(true);
    if (await create()) await reload();
    setBusy(false);
  };
  const remove = async (id: string) => {
    setBusy(true);
    try {
      await api.deletePasskey({ params: { id } });
    } catch (e) {
      await platform.alert(isApiError(e) ? e.message : String(e));
    }
    await reload();
    setBusy(false);
  };

  return (
    <Page title={TITLE}>
      {list?.required && (
        <p className="status status--error" role="alert">
          {passkeyMessages.required}
        </p>
      )}
      <section className="section" aria-labelledby={headingId}>
        <h2 className="section__title" id={headingId}>
          Passkeys
        </h2>
        {!list && !error && <Loading />}
        {error && <p className="status status--error">{error}</p>}
        {list && list.passkeys.length === 0 && <p className="status">No passkeys yet.</p>}
        {list && list.passkeys.length > 0 && (
          <ul className="client-list">
            {list.passkeys.map((p) => (
              <li key={p.id} className="client-list__item">
                <article aria-label={p.name}>
                  <strong>{p.name}</strong>
                  <p>
                    Created {day(p.createdAt)} · Last used {day(p.lastUsedAt)}
                  </p>
                  <button className="button" type="button" disabled={busy} onClick={() => void remove(p.id)}>
                    {passkeyMessages.remove}
                  </button>
                </article>
              </li>
            ))}
          </ul>
        )}
        <div className="actions">
          <button className="button button--primary" type="button" disabled={busy} onClick={() => void add()}>
            {passkeyMessages.add}
          </button>
          {!list?.required && <Link to={paths.home}>Home</Link>}
        </div>
      </section>
    </Page>
  );
}
