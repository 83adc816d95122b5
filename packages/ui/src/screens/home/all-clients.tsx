import { fullName, searchFold } from '@vita-docs/core';
import type { Client, OptimisticListFlow } from '@vita-docs/core';
import { useId, useState } from 'react';
import { Link } from '../../app/router';
import { paths } from '../../app/paths';
import { ConfirmModal } from '../../components/modal';
import { Card, Section } from '../../components/section';
import { useFlow } from '../../hooks/use-flow';
import { deleteClientBody, texts } from '../../texts';

/** All Clients: cards with clientId, Created by, Phone; Delete Client and Open Docs. */
export function AllClients({ flow }: { flow: OptimisticListFlow<Client> }) {
  const state = useFlow(flow);
  const [deleting, setDeleting] = useState<Client | null>(null);
  const [search, setSearch] = useState('');
  const searchId = useId();
  const wanted = searchFold(search);
  // Name, id, email or phone, without regard to case or accents (the list is already all loaded).
  const shown = wanted
    ? state.items.filter((c) =>
        searchFold(`${fullName(c)} ${c.clientId} ${c.email} ${c.phone}`).includes(wanted),
      )
    : state.items;
  return (
    <Section
      title="All Clients"
      status={state.status}
      count={state.items.length}
      empty={texts.noClients}
      error={state.error}
    >
      {state.items.length > 0 && (
        <div className="field">
          <label className="field__label" htmlFor={searchId}>
            Search clients
          </label>
          <input
            id={searchId}
            className="field__input"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
          />
        </div>
      )}
      {shown.length === 0 && state.items.length > 0 && <p>No clients match.</p>}
      <ul className="card-list">
        {shown.map((client) => (
          <Card
            key={client.clientId}
            title={fullName(client)}
            actions={
              <>
                <button
                  type="button"
                  className="button button--danger"
                  aria-label={`Delete Client ${fullName(client)}`}
                  onClick={() => setDeleting(client)}
                >
                  Delete Client
                </button>
                <Link className="button" to={paths.clientDocs(client.clientId)}>
                  Open Docs
                </Link>
              </>
            }
          >
            <p className="card__line">Client ID: {client.clientId}</p>
            <p className="card__line">
              Created by: {client.createdBy ?? client.previousCreatedBy ?? 'unknown'}
            </p>
            <p className="card__line">Phone: {client.phone}</p>
          </Card>
        ))}
      </ul>
      {deleting && (
        <ConfirmModal
          title={texts.deleteClientTitle}
          message={deleteClientBody(fullName(deleting))}
          confirmLabel="Delete Client"
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            setDeleting(null);
            // The card goes at once; the flow reloads the list (and alerts) if the server refuses.
            void flow.send({ type: 'delete', id: deleting.clientId });
          }}
        />
      )}
    </Section>
  );
}
