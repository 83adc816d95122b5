import { errorMessage, seasonClosePhrase, zipFileName } from '@vita-docs/core';
import type { Client, SeasonSummary } from '@vita-docs/core';
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { paths } from '../app/paths';
import { useServices } from '../app/services';
import { AdminOnly } from '../components/admin-only';
import { Loading, Page } from '../components/page';
import { fullName } from '../texts';
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
  const [summary, setSummary] = useState<SeasonSummary | null>(null);
  const [clients, setClients] = useState<readonly Client[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const [closing, setClosing] = useState(false);
  const [downloading, setDownloading] = useState<string | null>(null);
  const id = useId();
  useEffect(() => {
    let live = true;
    Promise.all([api.seasonSummary(), api.listAllClients()]).then(
      ([season, list]) => {
        if (!live) return;
        setSummary(season);
        setClients(list.items);
      },
      (failure: unknown) => live && setError(errorMessage(failure)),
    );
    return () => {
      live = false;
    };
  }, [api]);

  if (error && !summary) {
    return (
      <Page title={TITLE}>
        <p className="status status--error" role="alert">
          {error}
        </p>
      </Page>
    );
  }
  if (!summary) {
    return (
      <Page title={TITLE}>
        <Loading />
      </Page>
    );
  }

  const phrase = seasonClosePhrase(summary.year);
  const download = async (client: Client) => {
    setDownloading(client.clientId);
    try {
      const response = await api.downloadAll({ params: { id: client.clientId } });
      await platform.saveFile(zipFileName(client.clientId), await response.blob());
    } catch (failure) {
      await platform.alert(errorMessage(failure));
    } finally {
      setDownloading(null);
    }
  };
  const close = async (event: FormEvent) => {
    event.preventDefault();
    if (typed !== phrase) return;
    setClosing(true);
    setError(null);
    try {
      setSummary(await api.closeSeason({ body: { confirm: typed } }));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setClosing(false);
    }
  };

  return (
    <Page title={TITLE} heading={`Close the ${summary.year} season`}>
      <p className="lead" role="status">
        {summaryText(summary)}
      </p>
      {!summary.closedAt && (
        <>
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
                      onClick={() => void download(client)}
                    >
                      {downloading === client.clientId ? 'Downloading…' : 'Download ZIP'}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <form className="form panel" aria-labelledby={`${id}-close`} onSubmit={(e) => void close(e)}>
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
                value={typed}
                onChange={(e) => setTyped(e.currentTarget.value)}
              />
            </div>
            {error && (
              <p className="status status--error" role="alert">
                {error}
              </p>
            )}
            <div className="actions">
              <Link className="button" to={paths.home}>
                Back
              </Link>
              <button type="submit" className="button button--danger" disabled={typed !== phrase || closing}>
                {closing ? 'Closing…' : 'Close season'}
              </button>
            </div>
          </form>
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
