import { canCloseSeason, createSeasonFlow, seasonClosePhrase } from '@vita-docs/core';
import type { SeasonFlow, SeasonState, SeasonSummary } from '@vita-docs/core';
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Link } from '../app/router';
import { paths } from '../app/paths';
import { useServices } from '../app/services';
import { AdminOnly } from '../components/admin-only';
import { Loading, Page } from '../components/page';
import { useFlow, useFlowInstance } from '../hooks/use-flow';
import '../styles/season.css';

/** The season archive, on the web app's own API (the kiosk saves it through its host instead). */
const SEASON_DOWNLOAD_URL = '/api/admin/season/download';

const TITLE = 'Close season';

/** `/admin/season` (docs/behaviour.md#season-close): admins only. */
export function AdminSeasonScreen() {
  return (
    <AdminOnly title={TITLE}>
      <SeasonClose />
    </AdminOnly>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const documentsOf = ({ clients, documents }: SeasonSummary) =>
  `${plural(documents, 'document', 'documents')} of ${plural(clients, 'client', 'clients')}`;

/** The first, strongest line before a close: what goes, and that it cannot be undone. */
function seasonCloseWarning(summary: SeasonSummary): string {
  return `Closing the ${summary.year} season deletes all ${documentsOf(summary)}. This cannot be undone.`;
}

/** What else the close does, or (once closed) what it did. */
function summaryText(summary: SeasonSummary): string {
  const who = plural(summary.users, 'account', 'accounts');
  return summary.closedAt
    ? `The ${summary.year} season is closed: ${documentsOf(summary)} deleted, ${who} suspended.`
    : `It also suspends ${who} (everyone but admins); they must be approved again next season. Clients and the audit log stay.`;
}

function SeasonClose() {
  const { api, platform } = useServices();
  const flow = useFlowInstance(() => createSeasonFlow({ api, platform }));
  const state = useFlow(flow);
  useEffect(() => {
    void flow.send({ type: 'load' });
  }, [flow]);

  if (state.status === 'error') {
    return (
      <Page title={TITLE}>
        <p className="status status--error" role="alert">
          {state.error}
        </p>
      </Page>
    );
  }
  if (state.status === 'loading') {
    return (
      <Page title={TITLE}>
        <Loading />
      </Page>
    );
  }

  const { summary } = state;
  return (
    <Page title={TITLE} heading={`Close the ${summary.year} season`}>
      {summary.closedAt ? (
        <p className="lead" role="status">
          {summaryText(summary)}
        </p>
      ) : (
        <div className="season-warning" role="status">
          <p className="season-warning__title">{seasonCloseWarning(summary)}</p>
          <p>{summaryText(summary)}</p>
        </div>
      )}
      {!summary.closedAt && (
        <>
          <DownloadFirst year={summary.year} />
          <CloseForm state={state} flow={flow} />
        </>
      )}
      {summary.closedAt && (
        <div className="actions">
          <Link className="button" to={paths.home}>
            Back
          </Link>
        </div>
      )}
    </Page>
  );
}

type Ready = Extract<SeasonState, { status: 'ready' }>;

/**
 * "Download first": one link to every client's documents as one ZIP, a folder per client. A link,
 * not a fetched Blob: the browser writes the streamed archive straight to disk, whatever its size.
 */
function DownloadFirst({ year }: { year: number }) {
  const id = useId();
  const { platform } = useServices();
  const save = platform.saveSeasonArchive?.bind(platform);
  return (
    <section className="panel" aria-labelledby={`${id}-zips`}>
      <h2 className="panel__title" id={`${id}-zips`}>
        Download first
      </h2>
      <p>
        Every client’s documents as one ZIP, a folder per client, to keep where the programme keeps its
        records.
      </p>
      {save ? (
        <SaveThroughHost year={year} save={save} />
      ) : (
        <a
          className="button button--primary"
          href={SEASON_DOWNLOAD_URL}
          download={`season-${year}-all-documents.zip`}
        >
          Download all documents (ZIP)
        </a>
      )}
    </section>
  );
}

type Saving =
  { status: 'idle' | 'saving' } | { status: 'saved'; path: string } | { status: 'failed'; error: string };

/** The kiosk's download: the host asks where, streams the archive there, and this says how it went. */
function SaveThroughHost({ year, save }: { year: number; save: (year: number) => Promise<string | null> }) {
  const [saving, setSaving] = useState<Saving>({ status: 'idle' });
  const start = async () => {
    setSaving({ status: 'saving' });
    try {
      const path = await save(year);
      setSaving(path === null ? { status: 'idle' } : { status: 'saved', path });
    } catch (error) {
      setSaving({ status: 'failed', error: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <>
      <button
        type="button"
        className="button button--primary"
        disabled={saving.status === 'saving'}
        onClick={() => void start()}
      >
        Download all documents (ZIP)
      </button>
      <p role="status">
        {saving.status === 'saving' && 'Saving the ZIP…'}
        {saving.status === 'saved' && `Saved to ${saving.path}.`}
      </p>
      {saving.status === 'failed' && (
        <p className="status status--error" role="alert">
          The ZIP could not be saved: {saving.error}
        </p>
      )}
    </>
  );
}

/** "Close the season": the typed phrase, the server's refusal if any, Back and Close season. */
function CloseForm({ state, flow }: { state: Ready; flow: SeasonFlow }) {
  const id = useId();
  const phrase = seasonClosePhrase(state.summary.year);
  const close = (event: FormEvent) => {
    event.preventDefault();
    void flow.send({ type: 'close' });
  };
  return (
    <form className="form panel" aria-labelledby={`${id}-close`} onSubmit={close}>
      <h2 className="panel__title" id={`${id}-close`}>
        Close the season
      </h2>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-phrase`}>
          {`Type ${phrase} to confirm`}
        </label>
        <input
          id={`${id}-phrase`}
          className="field__input"
          autoComplete="off"
          spellCheck={false}
          value={state.typed}
          onChange={(e) => void flow.send({ type: 'type', text: e.currentTarget.value })}
        />
      </div>
      {state.error && (
        <p className="status status--error" role="alert">
          {state.error}
        </p>
      )}
      <div className="actions">
        <Link className="button" to={paths.home}>
          Back
        </Link>
        <button type="submit" className="button button--danger" disabled={!canCloseSeason(state)}>
          {state.closing ? 'Closing…' : 'Close season'}
        </button>
      </div>
    </form>
  );
}
