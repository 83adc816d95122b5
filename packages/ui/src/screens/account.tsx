import {
  CODE_LENGTH,
  formatDate,
  isApiError,
  messages,
  passkeyConfirmSent,
  passkeyMessages,
} from '@vita-docs/core';
import type { PasskeyList } from '@vita-docs/core';
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Link } from '../app/router';
import { passkeysOffered } from '../adapters/passkey-sign-in';
import { paths } from '../app/paths';
import { useServices } from '../app/services';
import { useSession } from '../app/session';
import { Field } from '../components/field';
import { submitted } from '../components/form';
import { Loading, Page } from '../components/page';
import { OwnReadingForm } from './account-reading';
import { useCreatePasskey, usePasskeys } from './passkey-hooks';

const TITLE = 'Account';

const day = (iso: string | null) => (iso ? formatDate(iso) : 'Never');

/**
 * Whether passkeys can be made here (the server has a `PUBLIC_URL` and the browser WebAuthn); null
 * until known. Without them `Add a passkey` would only fail.
 */
function usePasskeysOffered(): boolean | null {
  const { api } = useServices();
  const [offered, setOffered] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    void passkeysOffered(api).then((on) => live && setOffered(on));
    return () => {
      live = false;
    };
  }, [api]);
  return offered;
}

/**
 * `/account` (docs/behaviour.md#account-screen): the person's passkeys, `Remove`, `Remove all
 * passkeys` and `Add a passkey`; under the passkey rule, the mailed code before the first one. Then
 * `Check documents on this device`.
 */
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
  const session = useSession();
  const { list, error, reload } = usePasskeys();
  const offered = usePasskeysOffered();
  const { busy, add, removeAll, remove } = usePasskeyActions(reload);
  const headingId = useId();

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
        <PasskeyNotes none={list?.passkeys.length === 0} offered={offered} />
        {list && list.passkeys.length > 0 && (
          <PasskeyItems passkeys={list.passkeys} busy={busy} onRemove={(id) => void remove(id)} />
        )}
        {list?.required ? (
          <ConfirmThenCreate
            email={session.status === 'signedIn' ? session.user.email : ''}
            onCreated={() => void reload()}
          />
        ) : (
          <div className="actions">
            {offered && (
              <button
                className="button button--primary"
                type="button"
                disabled={busy}
                onClick={() => void add()}
              >
                {passkeyMessages.add}
              </button>
            )}
            {list && list.passkeys.length > 0 && (
              <button className="button" type="button" disabled={busy} onClick={() => void removeAll()}>
                {passkeyMessages.removeAll}
              </button>
            )}
            <Link to={paths.home}>Home</Link>
          </div>
        )}
      </section>
      {list && !list.required && <OwnReadingForm />}
    </Page>
  );
}

/** Adding and removing passkeys, one at a time (`busy` meanwhile), each followed by a fresh list. */
function usePasskeyActions(reload: () => Promise<void>) {
  const { api, platform } = useServices();
  const create = useCreatePasskey();
  const [busy, setBusy] = useState(false);

  const add = async () => {
    setBusy(true);
    if (await create()) await reload();
    setBusy(false);
  };
  const removeAll = async () => {
    if (!(await platform.confirm(passkeyMessages.removeAllConfirm))) return;
    setBusy(true);
    try {
      await api.removeOwnPasskeys();
    } catch (e) {
      await platform.alert(isApiError(e) ? e.message : String(e));
    }
    await reload();
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

  return { busy, add, removeAll, remove };
}

/** `No passkeys yet.`, and where passkeys cannot be made here, that they are not offered. */
function PasskeyNotes({ none, offered }: { none: boolean; offered: boolean | null }) {
  return (
    <>
      {none && <p className="status">No passkeys yet.</p>}
      {offered === false && <p className="status">{passkeyMessages.notOffered}</p>}
    </>
  );
}

/**
 * Under the passkey rule, the first passkey of a PIN + code sign-in: a code mailed to the account
 * first (`Email me a code`), then the code and `Create a passkey`.
 */
function ConfirmThenCreate({ email, onCreated }: { email: string; onCreated: () => void }) {
  const { api, platform } = useServices();
  const create = useCreatePasskey();
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);

  const emailCode = async () => {
    setBusy(true);
    try {
      const { emailSent } = await api.passkeyConfirmationRequest();
      if (emailSent) setSent(true);
      else await platform.alert(passkeyMessages.confirmNotSent);
    } catch (e) {
      await platform.alert(isApiError(e) ? e.message : String(e));
    }
    setBusy(false);
  };
  const confirmAndCreate = async (event: FormEvent<HTMLFormElement>) => {
    const code = submitted(event)('code');
    setBusy(true);
    try {
      await api.passkeyConfirm({ body: { code } });
    } catch (e) {
      await platform.alert(isApiError(e) ? e.message : String(e));
      setBusy(false);
      return;
    }
    if (await create()) onCreated();
    setBusy(false);
  };

  return (
    <>
      <p>{passkeyMessages.confirmIntro}</p>
      <div className="actions">
        <button
          className={sent ? 'button' : 'button button--primary'}
          type="button"
          disabled={busy}
          onClick={() => void emailCode()}
        >
          {passkeyMessages.emailCode}
        </button>
      </div>
      {sent && (
        <form className="form" aria-busy={busy} onSubmit={(e) => void confirmAndCreate(e)}>
          <p className="status" role="status">
            {passkeyConfirmSent(email)}
          </p>
          <Field
            label={passkeyMessages.confirmCode}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={CODE_LENGTH}
            required
          />
          <div className="actions">
            <button className="button button--primary" type="submit" disabled={busy}>
              {passkeyMessages.create}
            </button>
          </div>
        </form>
      )}
    </>
  );
}

/** Each passkey with its days and `Remove`. */
function PasskeyItems({
  passkeys,
  busy,
  onRemove,
}: {
  passkeys: PasskeyList['passkeys'];
  busy: boolean;
  onRemove: (id: string) => void;
}) {
  return (
    <ul className="client-list">
      {passkeys.map((p) => (
        <li key={p.id} className="client-list__item">
          <article aria-label={p.name}>
            <strong>{p.name}</strong>
            <p>
              Created {day(p.createdAt)} · Last used {day(p.lastUsedAt)}
            </p>
            <button className="button" type="button" disabled={busy} onClick={() => onRemove(p.id)}>
              {passkeyMessages.remove}
            </button>
          </article>
        </li>
      ))}
    </ul>
  );
}
