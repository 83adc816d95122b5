import {
  CLIENT_LINK_TEXTS,
  categoryHint,
  clientLinkText,
  createClientLinkFlow,
  formatBytes,
  type ClientLinkFlow,
  type LinkApi,
  type ClientLinkLanguage,
  type ClientLinkState,
  type LinkChecklist,
  type WhoAsks,
} from '@vita-docs/core/client-link';
import type { FileLike, LinkCapture, Logger } from '@vita-docs/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useFlow, useFlowInstance } from '../../hooks/use-flow';
import { FilePicker, PHOTO_ACCEPT, UPLOAD_ACCEPT } from '../documents/file-picker';
import type * as CaptureParts from './link-capture';
import { forgetKept, LINK_KEPT_FLAG } from './link-kept';
import '../../styles/base.css';
import '../../styles/forms.css';
import '../../styles/client-link.css';

/** What the client page needs from its host: the link API and a logger. */
export interface ClientLinkPageProps {
  api: LinkApi;
  logger: Logger;
  /** The token from the link's fragment (null when the page was opened without one). */
  token: string | null;
  /**
   * Where the host serves the document reader's files: each file added is then read on the phone
   * (docs/behaviour.md#reading-documents). Absent: nothing is read.
   */
  readerFolder?: string;
}

/**
 * `/u#<token>`: the client hands in documents (docs/behaviour.md#requesting-documents-from-a-client). Phone
 * first; driven by core's client-link flow. The capture parts (PDF conversion, scan, upload queue) load
 * when first used, so the page's first download stays small.
 */
export function ClientLinkPage({ api, logger, token, readerFolder }: ClientLinkPageProps) {
  const flow = useFlowInstance(() => createClientLinkFlow({ api, token }));
  const state = useFlow(flow);
  useEffect(() => {
    void flow.send({ type: 'start' });
  }, [flow]);
  const t = CLIENT_LINK_TEXTS[state.language];
  useEffect(() => {
    document.documentElement.lang = state.language;
  }, [state.language]);
  useEffect(() => {
    if (state.status === 'gone' || state.status === 'done') forgetKept();
  }, [state.status]);
  const other: ClientLinkLanguage = state.language === 'en' ? 'es' : 'en';
  return (
    <main className="link-page">
      <div className="link-page__top">
        <button
          type="button"
          className="button button--small"
          lang={other}
          onClick={() => void flow.send({ type: 'language', language: other })}
        >
          {t.language}
        </button>
      </div>
      <LinkBody flow={flow} state={state} capture={{ api, logger, readerFolder }} />
    </main>
  );
}

type CapturePorts = Pick<ClientLinkPageProps, 'api' | 'logger'> & { readerFolder: string | undefined };

/**
 * Who is asking, on every screen: the programme's name (the page's h1 unless `heading` is false, as on
 * the checklist, whose h1 greets the client) and `{volunteer} from {programme} asked for your tax documents.`
 */
function WhoHeader({
  who,
  language,
  heading = true,
}: {
  who: WhoAsks;
  language: ClientLinkLanguage;
  heading?: boolean;
}) {
  const line = clientLinkText(language, 'whoAsked', { ...who });
  return (
    <header className="link-who">
      {heading ? (
        <h1 className="link-page__title">{who.programme}</h1>
      ) : (
        <p className="link-who__programme">{who.programme}</p>
      )}
      <p className="link-who__line">{line}</p>
    </header>
  );
}

/** A screen that only says something: who asked (when known) and the one text. */
function Notice({
  who,
  language,
  text,
  tone,
}: {
  who: WhoAsks | null;
  language: ClientLinkLanguage;
  text: string;
  tone?: 'error' | 'ok';
}) {
  const className = `status${tone ? ` status--${tone}` : ''}`;
  // A link nobody knows names nobody: its one text is the heading.
  if (!who) return <h1 className={`link-page__title ${className}`}>{text}</h1>;
  return (
    <>
      <WhoHeader who={who} language={language} />
      <p className={className}>{text}</p>
    </>
  );
}

function LinkBody({
  flow,
  state,
  capture,
}: {
  flow: ClientLinkFlow;
  state: ClientLinkState;
  capture: CapturePorts;
}) {
  const t = CLIENT_LINK_TEXTS[state.language];
  switch (state.status) {
    case 'opening':
      return <p className="status">{t.loading}</p>;
    case 'prove':
      return <ProveForm flow={flow} state={state} />;
    case 'locked':
      return <Notice who={null} language={state.language} text={t.locked} tone="error" />;
    case 'gone':
      return <Notice who={state.who} language={state.language} text={t.expired} />;
    case 'done':
      return <Notice who={state.who} language={state.language} text={t.thanks} tone="ok" />;
    case 'finished':
      return <Notice who={state.who} language={state.language} text={t.alreadySent} tone="ok" />;
    case 'consent':
      return (
        <ConsentForm
          flow={flow}
          language={state.language}
          who={{ programme: state.checklist.programme, volunteer: state.checklist.volunteer }}
          statement={state.checklist.consent[state.language]}
          busy={state.busy}
          error={state.error}
        />
      );
    case 'checklist':
      return <Checklist flow={flow} state={state} ports={capture} />;
  }
}

function ProveForm({
  flow,
  state,
}: {
  flow: ClientLinkFlow;
  state: Extract<ClientLinkState, { status: 'prove' }>;
}) {
  const t = CLIENT_LINK_TEXTS[state.language];
  const [code, setCode] = useState('');
  const [pin, setPin] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void flow.send({ type: 'prove', ...(state.codeSentTo && { code }), ...(state.needsPin && { pin }) });
  };
  return (
    <form className="link-form" onSubmit={submit}>
      <WhoHeader who={state.who} language={state.language} />
      {state.codeSentTo && <p>{clientLinkText(state.language, 'codeSent', { email: state.codeSentTo })}</p>}
      {state.codeSentTo && (
        <label className="field">
          <span className="field__label">{t.codeLabel}</span>
          <input
            className="field__input"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
          />
        </label>
      )}
      {state.needsPin && (
        <label className="field">
          <span className="field__label">{state.codeSentTo ? t.pinLabel : t.pinPrompt}</span>
          <input
            className="field__input"
            type="password"
            value={pin}
            onChange={(e) => setPin(e.currentTarget.value)}
          />
        </label>
      )}
      {state.error && (
        <p className="status status--error" role="alert">
          {state.error}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={state.busy}>
          {t.continue}
        </button>
        {state.codeSentTo && (
          <button
            type="button"
            className="button"
            disabled={state.busy}
            onClick={() => void flow.send({ type: 'resend' })}
          >
            {t.resendCode}
          </button>
        )}
      </div>
    </form>
  );
}

/**
 * The consent the client signs: the statement, their full name typed, `I agree` (usable once a name
 * is typed). The server files the signed record among the client's documents.
 */
function ConsentForm({
  flow,
  language,
  who,
  statement,
  busy,
  error,
}: {
  flow: ClientLinkFlow;
  language: ClientLinkLanguage;
  who: WhoAsks;
  /** The admin's statement from settings, or the default one (served with the checklist). */
  statement: string;
  busy: boolean;
  error: string | null;
}) {
  const t = CLIENT_LINK_TEXTS[language];
  const [ticked, setTicked] = useState(false);
  const [name, setName] = useState('');
  const named = name.trim() !== '';
  return (
    <form
      className="link-form"
      onSubmit={(event) => {
        event.preventDefault();
        void flow.send({ type: 'consent', name });
      }}
    >
      <WhoHeader who={who} language={language} />
      <p className="link-statement">{statement}</p>
      <label className="field">
        <span className="field__label">{t.signName}</span>
        <input
          className="field__input"
          autoComplete="name"
          maxLength={200}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
        />
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={ticked && named}
          disabled={!named}
          onChange={(e) => setTicked(e.currentTarget.checked)}
        />
        {t.consentAgree}
      </label>
      {error && (
        <p className="status status--error" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={!ticked || !named || busy}>
          {t.continue}
        </button>
      </div>
    </form>
  );
}

/** The capture parts' screens, once loaded. */
type Parts = Pick<typeof CaptureParts, 'RowQueue' | 'ScanHost' | 'StoredThumb' | 'FileReading'>;

/** Loads the capture parts once, on the first file, photo or scan. */
function useCapture(
  ports: CapturePorts,
  onStored: () => void,
  language: ClientLinkLanguage,
  rows: readonly string[],
) {
  const [capture, setCapture] = useState<LinkCapture | null>(null);
  const [module, setModule] = useState<Parts | null>(null);
  const current = useRef(language);
  current.current = language;
  const currentRows = useRef(rows);
  currentRows.current = rows;
  // One load, however many presses (or the resume of kept files) ask for it before it is done.
  const loading = useRef<Promise<{ capture: LinkCapture; module: Parts }> | null>(null);
  const load = () =>
    (loading.current ??= import('./link-capture').then(
      ({ createLinkCapture, RowQueue, ScanHost, StoredThumb, FileReading }) => {
        const made = createLinkCapture({
          ...ports,
          onStored,
          language: () => current.current,
          rows: () => currentRows.current,
        });
        const parts = { RowQueue, ScanHost, StoredThumb, FileReading };
        setModule(parts);
        setCapture(made);
        return { capture: made, module: parts };
      },
      (error: unknown) => {
        loading.current = null; // a chunk that could not load (offline) is tried again on the next press
        throw error;
      },
    ));
  useEffect(() => () => capture?.dispose(), [capture]);
  return { capture, module, load };
}

/**
 * Adds files to a row once the capture parts are loaded. Reloading or closing the page would lose a
 * file neither sent nor kept on the phone (one chosen while the parts load, or not kept yet): the
 * browser asks first then.
 */
function useAdd(load: ReturnType<typeof useCapture>['load'], capture: LinkCapture | null) {
  const choosing = useRef(0);
  useEffect(() => {
    const ask = (event: BeforeUnloadEvent) => {
      if (choosing.current > 0 || capture?.wouldLose()) event.preventDefault();
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [capture]);
  return async (docType: string, files: FileLike[], camera = false) => {
    choosing.current += 1;
    try {
      (await load()).capture.add(docType, files, camera);
    } finally {
      choosing.current -= 1;
    }
  };
}

function Checklist({
  flow,
  state,
  ports,
}: {
  flow: ClientLinkFlow;
  state: Extract<ClientLinkState, { status: 'checklist' }>;
  ports: CapturePorts;
}) {
  const { checklist, language } = state;
  const rows = checklist.rows.map((row) => row.docType);
  // The programme's switch (Settings) off: nothing is read here, and nothing of the reader fetched.
  const { capture, module, load } = useCapture(
    checklist.readDocuments ? ports : { ...ports, readerFolder: undefined },
    () => void flow.send({ type: 'refresh' }),
    language,
    rows,
  );
  const loadNow = useRef(load);
  loadNow.current = load;
  useEffect(() => {
    // Files kept before a reload: the capture parts load at once (when the checklist first shows) to send them.
    if (window.localStorage.getItem(LINK_KEPT_FLAG)) void loadNow.current();
  }, []);
  const add = useAdd(load, capture);
  return (
    <div className="link-checklist">
      <WhoHeader
        who={{ programme: checklist.programme, volunteer: checklist.volunteer }}
        language={language}
        heading={false}
      />
      <h1 className="link-page__title">
        {clientLinkText(language, 'greeting', { firstName: checklist.firstName })}
      </h1>
      {checklist.message && <p className="link-message">{checklist.message}</p>}
      <ul className="link-rows">
        {checklist.rows.map((row) => (
          <ChecklistRow
            key={row.docType}
            row={row}
            language={language}
            busy={state.busy}
            flow={flow}
            onFiles={(files, camera) => void add(row.docType, files, camera)}
            onScan={() => void load().then(({ capture: c }) => c.scan(row.docType))}
            stored={capture && module ? storedSlots(capture, module, language) : undefined}
            queue={
              capture && module ? (
                <module.RowQueue capture={capture} docType={row.docType} language={language} />
              ) : null
            }
          />
        ))}
      </ul>
      {state.error && (
        <p className="status status--error" role="alert">
          {state.error}
        </p>
      )}
      {capture && module && <module.ScanHost capture={capture} language={language} />}
      <FinishBar flow={flow} state={state} />
    </div>
  );
}

/** `I'm done`, or the question it asks while a requested row is neither added nor answered. */
function FinishBar({
  flow,
  state,
}: {
  flow: ClientLinkFlow;
  state: Extract<ClientLinkState, { status: 'checklist' }>;
}) {
  if (state.confirming) return <StillMissing flow={flow} language={state.language} />;
  return (
    <div className="actions">
      <button
        type="button"
        className="button button--primary"
        disabled={state.busy}
        onClick={() => void flow.send({ type: 'finish' })}
      >
        {CLIENT_LINK_TEXTS[state.language].done}
      </button>
    </div>
  );
}

/** `I'm done` while a requested row has neither a file nor an answer: send anyway, or go back. */
function StillMissing({ flow, language }: { flow: ClientLinkFlow; language: ClientLinkLanguage }) {
  const t = CLIENT_LINK_TEXTS[language];
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <div className="link-confirm" role="alertdialog" aria-labelledby="link-confirm-text">
      <p id="link-confirm-text">{t.stillMissing}</p>
      <div className="actions">
        <button
          ref={first}
          type="button"
          className="button"
          onClick={() => void flow.send({ type: 'goBack' })}
        >
          {t.goBack}
        </button>
        <button
          type="button"
          className="button button--primary"
          onClick={() => void flow.send({ type: 'sendAnyway' })}
        >
          {t.sendAnyway}
        </button>
      </div>
    </div>
  );
}

/** Under a row's name: what to bring, and a custom category's note as the volunteer wrote it. */
function RowHint({ row, language }: { row: LinkChecklist['rows'][number]; language: ClientLinkLanguage }) {
  const t = CLIENT_LINK_TEXTS[language];
  const { hint, note } = row.extra
    ? { hint: t.somethingElseHint, note: null }
    : categoryHint(language, row.docType);
  if (!hint && !note) return null;
  return (
    <p className="link-row__hint">
      {hint}
      {note && <span className="link-row__note"> {note}</span>}
    </p>
  );
}

function ChecklistRow({
  row,
  language,
  busy,
  flow,
  onFiles,
  onScan,
  queue,
  stored,
}: {
  row: LinkChecklist['rows'][number];
  language: ClientLinkLanguage;
  busy: boolean;
  flow: ClientLinkFlow;
  onFiles: (files: FileLike[], camera?: boolean) => void;
  onScan: () => void;
  queue: React.ReactNode;
  stored: StoredSlots | undefined;
}) {
  const t = CLIENT_LINK_TEXTS[language];
  const [asking, setAsking] = useState(false);
  return (
    <li className="link-row">
      <h2 className="link-row__title">{row.extra ? t.somethingElse : row.docType}</h2>
      <RowHint row={row} language={language} />
      <AddedFiles files={row.files} language={language} busy={busy} flow={flow} slots={stored} />
      {queue}
      {row.missing && !row.extra ? (
        <p className="link-row__missing">
          {t.dontHaveMarked}
          {row.missing.note && <span className="link-row__note"> {row.missing.note}</span>}{' '}
          <button
            type="button"
            className="button button--small"
            disabled={busy}
            onClick={() => void flow.send({ type: 'undoMissing', docType: row.docType })}
          >
            {t.undoDontHave}
          </button>
        </p>
      ) : (
        <div className="actions actions--tight">
          <FilePicker
            label={t.uploadFiles}
            accept={UPLOAD_ACCEPT}
            multiple
            onFiles={(files) => onFiles(files)}
          />
          <FilePicker
            label={t.takePhoto}
            accept={PHOTO_ACCEPT}
            capture="environment"
            multiple
            onFiles={(files) => onFiles(files, true)}
          />
          <button type="button" className="button" onClick={onScan}>
            {t.scanPages}
          </button>
          {!row.extra && (
            <button type="button" className="button" onClick={() => setAsking(true)}>
              {t.dontHave}
            </button>
          )}
        </div>
      )}
      {asking && !row.missing && (
        <MissingForm
          language={language}
          busy={busy}
          onSave={(note) => {
            setAsking(false);
            void flow.send({ type: 'missing', docType: row.docType, note });
          }}
        />
      )}
    </li>
  );
}

/** "I don't have this" with an optional note. */
function MissingForm({
  language,
  busy,
  onSave,
}: {
  language: ClientLinkLanguage;
  busy: boolean;
  onSave: (note: string) => void;
}) {
  const t = CLIENT_LINK_TEXTS[language];
  const [note, setNote] = useState('');
  return (
    <form
      className="link-form"
      onSubmit={(event) => {
        event.preventDefault();
        onSave(note);
      }}
    >
      <label className="field">
        <span className="field__label">{t.dontHaveNote}</span>
        <textarea
          className="field__input"
          maxLength={500}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
        />
      </label>
      <button type="submit" className="button button--primary" disabled={busy}>
        {t.dontHaveSave}
      </button>
    </form>
  );
}

/** What the capture parts draw on a stored file's row, once loaded. */
interface StoredSlots {
  /** The thumbnail of a file made on this phone (null when it was stored before a reload). */
  thumb: (key: string, filename: string) => React.ReactNode;
  /** What the device read of a file added on this page (null when nothing is said). */
  reading: (key: string) => React.ReactNode;
}

/** The capture parts' drawings on a stored file's row. */
function storedSlots(capture: LinkCapture, module: Parts, language: ClientLinkLanguage): StoredSlots {
  return {
    thumb: (key, filename) =>
      capture.thumb(key) ? (
        <module.StoredThumb capture={capture} fileKey={key} filename={filename} language={language} />
      ) : null,
    reading: (key) => <module.FileReading capture={capture} file={{ key }} language={language} />,
  };
}

/** The files added through this link, each with its thumbnail, name, size and Remove. */
function AddedFiles({
  files,
  language,
  busy,
  flow,
  slots,
}: {
  files: LinkChecklist['rows'][number]['files'];
  language: ClientLinkLanguage;
  busy: boolean;
  flow: ClientLinkFlow;
  slots: StoredSlots | undefined;
}) {
  const t = CLIENT_LINK_TEXTS[language];
  if (files.length === 0) return null;
  return (
    <ul className="link-files" aria-label={t.added}>
      {files.map((file) => (
        <li key={file.key} className="link-file">
          {slots?.thumb(file.key, file.filename) ?? <TypeBadge filename={file.filename} />}
          <span className="link-file__name">{file.filename}</span>
          <span className="link-file__size">{formatBytes(file.size)}</span>
          <button
            type="button"
            className="button button--small"
            disabled={busy}
            onClick={() => void flow.send({ type: 'remove', key: file.key })}
          >
            {t.remove}
          </button>
          {slots?.reading(file.key)}
        </li>
      ))}
    </ul>
  );
}

/**
 * A file stored before this page was loaded (a reload, another visit) has no picture: its bytes are not
 * on the phone any more, and no link-session route reads a stored file back (a link exposes nothing
 * stored, docs/security.md), so only its type is shown.
 */
function TypeBadge({ filename }: { filename: string }) {
  const type = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toUpperCase() ?? '';
  return (
    <span className="link-file__thumb" aria-hidden="true">
      {type}
    </span>
  );
}
