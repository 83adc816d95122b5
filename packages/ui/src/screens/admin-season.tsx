import { canCloseSeason, createSeasonFlow, fullName, seasonClosePhrase } from '@vita-docs/core';
import type { SeasonFlow, SeasonState, SeasonSummary } from '@vita-docs/core';
import { useEffect, useId } from 'react';
import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { paths } from '../app/paths';
import { useServices } from '../app/services';
import { AdminOnly } from '../components/admin-only';
import { Loading, Page } from '../components/page';
import { useFlow, useFlowInstance } from '../hooks/use-flow';
import '../styles/season.css';

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

/** What the close does (or did), in one sentence. */
function summaryText({ users, clients, documents, closedAt, year }: SeasonSummary): string {
  const what = `${plural(documents, 'document', 'documents')} of ${plural(clients, 'client', 'clients')}`;
  const who = plural(users, 'account', 'accounts');
  return closedAt
    ? `The ${year} season is closed: ${what} deleted, ${who} suspended.`
    : `Closing the ${year} season deletes all ${what} and suspends ${who} (everyone but admins); they must be approved again next season. Clients and the audit log stay.`;
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
      <p className="lead" role="status">
        {summaryText(summary)}
      </p>
      {!summary.closedAt && (
        <>
          <DownloadFirst state={state} flow={flow} />
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

/** "Download first": every client with its Download ZIP, one download at a time. */
function DownloadFirst({ state, flow }: { state: Ready; flow: SeasonFlow }) {
  const id = useId();
  const { clients, downloading } = state;
  return (
    <section className="panel" aria-labelledby={`${id}-zips`}>
      <h2 className="panel__title" id={`${id}-zips`}>
        Download first
      </h2>
      <p>Each client’s documents as one ZIP, to keep where the programme keeps its records.</p>
      {clients.length === 0 ? (
        <p>No clients yet.</p>
      ) : (
        <ul className="season-clients">
          {clients.map((client) => (
            <li key={client.clientId} className="season-clients__item">
              <span>{fullName(client)}</span>
              <button
                type="button"
                className="button button--small"
                disabled={downloading !== null}
                aria-label={`Download ZIP of ${fullName(client)}`}
                onClick={() => void flow.send({ type: 'download', clientId: client.clientId })}
              >
                {downloading === client.clientId ? 'Downloading…' : 'Download ZIP'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
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
