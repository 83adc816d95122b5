import {
  canSendLinkRequest,
  formatDateTime,
  LINK_MESSAGE_MAX,
  LINK_DAYS_MAX,
  messages,
  requestLine,
  type Client,
  type ClientDocsState,
  type ClientLinkLanguage,
  type CreateLinkResponse,
  type LinkRequestFlow,
  type LinkRequestForm,
} from '@vita-docs/core';
import { lazy, Suspense, useId, useState } from 'react';
import { FormModal, Modal } from '../../components/modal';
import { useFlow } from '../../hooks/use-flow';
import { linkTexts as T } from '../../texts';
import type { useLinkStatus } from './link-status';

// The QR code's encoder loads when a link has been sent: the documents screens show without it.
const QrCode = lazy(async () => ({ default: (await import('./qr-code')).QrCode }));

const when = (iso: string) => formatDateTime(iso);

/**
 * `Request documents from client` on the Client Documents page: the dialog that sends the link, the
 * link as a QR code with Copy, and the open request (locked or not) with `Revoke link`.
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
  const { flow } = link;
  const { status, form, sent, revoked } = useFlow(flow);
  const canRequest = Boolean(client.email) || client.hasPin;
  const line = requestLine(status);
  return (
    <section className="panel client-link" aria-label={T.request}>
      <div className="actions">
        <button
          type="button"
          className="button"
          disabled={!canRequest}
          onClick={() => void flow.send({ type: 'openDialog', categories: state.categories })}
        >
          {T.request}
        </button>
        {line.kind === 'open' && (
          <button
            type="button"
            className="button button--danger"
            onClick={() => void flow.send({ type: 'revoke' })}
          >
            {T.revoke}
          </button>
        )}
      </div>
      {!canRequest && <p className="status">{T.noWayToProve}</p>}
      {/* Always in the page, so screen readers announce the revoke when it lands. */}
      <p className="status status--ok" role="status">
        {revoked ? messages.linkRevoked : ''}
      </p>
      {line.kind === 'open' && (
        <p className="status">{T.openRequest(when(line.sentAt), line.opened, line.filesIn)}</p>
      )}
      {line.kind === 'open' && line.lockedUntil && (
        <p className="status status--error">{T.lockedUntil(when(line.lockedUntil))}</p>
      )}
      {line.kind === 'lockedForGood' && <p className="status status--error">{T.lockedForGood}</p>}
      {line.kind === 'done' && (
        <p className="status status--ok">{T.doneRequest(when(line.doneAt), line.filesIn)}</p>
      )}
      {form && <RequestDialog flow={flow} form={form} state={state} />}
      {sent && <SentDialog sent={sent} onClose={() => void flow.send({ type: 'closeSent' })} />}
    </section>
  );
}

function RequestDialog({
  flow,
  form,
  state,
}: {
  flow: LinkRequestFlow;
  form: LinkRequestForm;
  state: ClientDocsState;
}) {
  return (
    <FormModal
      title={T.dialogTitle}
      submitLabel={T.send}
      saving={form.saving}
      canSubmit={canSendLinkRequest(form)}
      onCancel={() => void flow.send({ type: 'closeDialog' })}
      onSubmit={() => void flow.send({ type: 'send' })}
    >
      <fieldset className="field">
        <legend className="field__label">{T.categories}</legend>
        {state.categories.map((category) => (
          <label key={category.name} className="checkbox">
            <input
              type="checkbox"
              checked={form.chosen.includes(category.name)}
              onChange={() => void flow.send({ type: 'toggle', name: category.name })}
            />
            {category.name}
          </label>
        ))}
      </fieldset>
      <RequestFields
        message={form.message}
        days={form.days}
        language={form.language}
        onMessage={(message) => void flow.send({ type: 'setMessage', message })}
        onDays={(days) => void flow.send({ type: 'setDays', days })}
        onLanguage={(language) => void flow.send({ type: 'setLanguage', language })}
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
      <Suspense fallback={null}>
        <QrCode text={sent.url} label={T.qrLabel} />
      </Suspense>
      <div className="actions actions--tight">
        <input className="field__input client-link__url" readOnly value={sent.url} aria-label="Link" />
        <button type="button" className="button" onClick={() => void copy()}>
          {copied ? T.copied : T.copy}
        </button>
      </div>
    </Modal>
  );
}
