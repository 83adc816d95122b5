import {
  LINK_DAYS_DEFAULT,
  LINK_DAYS_MAX,
  LINK_MESSAGE_MAX,
  errorMessage,
  type Client,
  type ClientDocsState,
  type ClientLinkLanguage,
  type CreateLinkResponse,
  type LinkStatusResponse,
} from '@vita-docs/core';
import { useCallback, useEffect, useId, useState } from 'react';
import { useServices } from '../../app/services';
import { FormModal, Modal } from '../../components/modal';
import { linkTexts as T } from '../../texts';
import { QrCode } from './qr-code';

const when = (iso: string) => new Date(iso).toLocaleString();

/**
 * The client's newest request as the documents pages show it: read again each time the page's own list
 * is (`loaded` turns `ready`: a load, Refresh, an upload), and by `reload` after an action.
 */
export function useLinkStatus(clientId: string, loaded = 'ready') {
  const { api } = useServices();
  const [status, setStatus] = useState<LinkStatusResponse | null>(null);
  const reload = useCallback(() => {
    api.clientLinkStatus({ params: { id: clientId } }).then(setStatus, () => setStatus(null));
  }, [api, clientId]);
  useEffect(() => {
    if (loaded === 'ready') reload();
  }, [reload, loaded]);
  return { status, reload };
}

/**
 * `Request documents from client` on the Client Documents page: the dialog that sends the link, the
 * link as a QR code with Copy, and the open request with `Revoke link`.
 */
export function ClientLinkPanel({
  client,
  state,
  link,
}: {
  client: Client;
  state: ClientDocsState;
  link: ReturnType<typeof useLinkStatus>;
}) {
  const { api, platform } = useServices();
  const [asking, setAsking] = useState(false);
  const [sent, setSent] = useState<CreateLinkResponse | null>(null);
  const canSend = Boolean(client.email) || client.hasPin;
  const request = link.status?.request;
  const revoke = async () => {
    try {
      await api.revokeClientLink({ params: { id: client.clientId } });
      setSent(null);
    } catch (error) {
      await platform.alert(errorMessage(error));
    }
    link.reload();
  };
  return (
    <section className="panel client-link" aria-label={T.request}>
      <div className="actions">
        <button type="button" className="button" disabled={!canSend} onClick={() => setAsking(true)}>
          {T.request}
        </button>
        {request?.state === 'open' && (
          <button type="button" className="button button--danger" onClick={() => void revoke()}>
            {T.revoke}
          </button>
        )}
      </div>
      {!canSend && <p className="status">{T.noWayToProve}</p>}
      {request?.state === 'open' && (
        <p className="status">
          {T.openRequest(when(request.sentAt), request.openedAt !== null, request.filesIn)}
        </p>
      )}
      {request?.state === 'done' && request.doneAt && (
        <p className="status status--ok">{T.doneRequest(when(request.doneAt), request.filesIn)}</p>
      )}
      {asking && (
        <RequestDialog
          client={client}
          state={state}
          onClose={() => setAsking(false)}
          onSent={(answer) => {
            setAsking(false);
            setSent(answer);
            link.reload();
          }}
        />
      )}
      {sent && <SentDialog sent={sent} onClose={() => setSent(null)} />}
    </section>
  );
}

function RequestDialog({
  client,
  state,
  onClose,
  onSent,
}: {
  client: Client;
  state: ClientDocsState;
  onClose: () => void;
  onSent: (answer: CreateLinkResponse) => void;
}) {
  const { api, platform } = useServices();
  // The Missing categories are ticked to start with.
  const [chosen, setChosen] = useState(
    () => new Set(state.categories.filter((c) => !c.hasFiles).map((c) => c.name)),
  );
  const [message, setMessage] = useState('');
  const [days, setDays] = useState(LINK_DAYS_DEFAULT);
  const [language, setLanguage] = useState<ClientLinkLanguage>('en');
  const [saving, setSaving] = useState(false);
  const toggle = (name: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });
  const submit = async () => {
    setSaving(true);
    try {
      const body = {
        categories: [...chosen],
        days,
        language,
        ...(message.trim() && { message: message.trim() }),
      };
      onSent(await api.createClientLink({ params: { id: client.clientId }, body }));
    } catch (error) {
      setSaving(false);
      await platform.alert(errorMessage(error));
    }
  };
  return (
    <FormModal
      title={T.dialogTitle}
      submitLabel={T.send}
      saving={saving}
      canSubmit={!saving && chosen.size > 0 && days >= 1 && days <= LINK_DAYS_MAX}
      onCancel={onClose}
      onSubmit={() => void submit()}
    >
      <fieldset className="field">
        <legend className="field__label">{T.categories}</legend>
        {state.categories.map((category) => (
          <label key={category.name} className="checkbox">
            <input
              type="checkbox"
              checked={chosen.has(category.name)}
              onChange={() => toggle(category.name)}
            />
            {category.name}
          </label>
        ))}
      </fieldset>
      <RequestFields
        message={message}
        days={days}
        language={language}
        onMessage={setMessage}
        onDays={setDays}
        onLanguage={setLanguage}
      />
    </FormModal>
  );
}

/** The message, how many days the link works and the client's language. */
function RequestFields(props: {
  message: string;
  days: number;
  language: ClientLinkLanguage;
  onMessage: (message: string) => void;
  onDays: (days: number) => void;
  onLanguage: (language: ClientLinkLanguage) => void;
}) {
  const { message, days, language } = props;
  const ids = { message: useId(), days: useId(), language: useId() };
  return (
    <>
      <div className="field">
        <label className="field__label" htmlFor={ids.message}>
          {T.message}
        </label>
        <textarea
          id={ids.message}
          className="field__input"
          maxLength={LINK_MESSAGE_MAX}
          value={message}
          onChange={(event) => props.onMessage(event.currentTarget.value)}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={ids.days}>
          {T.days}
        </label>
        <input
          id={ids.days}
          className="field__input"
          type="number"
          min={1}
          max={LINK_DAYS_MAX}
          value={days}
          onChange={(event) => props.onDays(Number(event.currentTarget.value))}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={ids.language}>
          {T.language}
        </label>
        <select
          id={ids.language}
          className="field__input"
          value={language}
          onChange={(event) => props.onLanguage(event.currentTarget.value === 'es' ? 'es' : 'en')}
        >
          <option value="en">English</option>
          <option value="es">Español</option>
        </select>
      </div>
    </>
  );
}

/** After sending: what was done, the QR code and the link with Copy. */
function SentDialog({ sent, onClose }: { sent: CreateLinkResponse; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(sent.url);
    setCopied(true);
  };
  return (
    <Modal
      title={T.dialogTitle}
      onClose={onClose}
      actions={
        <button type="button" className="button button--primary" onClick={onClose}>
          Close
        </button>
      }
    >
      <p className="status status--ok" role="status">
        {sent.emailedTo && sent.emailSent ? T.sent(sent.emailedTo, sent.days) : T.notMailed(sent.days)}
      </p>
      <QrCode text={sent.url} label={T.qrLabel} />
      <div className="actions actions--tight">
        <input className="field__input client-link__url" readOnly value={sent.url} aria-label="Link" />
        <button type="button" className="button" onClick={() => void copy()}>
          {copied ? T.copied : T.copy}
        </button>
      </div>
    </Modal>
  );
}
