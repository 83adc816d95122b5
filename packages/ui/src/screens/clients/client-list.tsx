import { canManageAllClients, createVisibleClientsFlow, fullName } from '@vita-docs/core';
import type { User } from '@vita-docs/core';
import { useEffect, useId } from 'react';
import { Link } from '../../app/router';
import { paths } from '../../app/paths';
import { useServices } from '../../app/services';
import { useSession } from '../../app/session';
import { Loading, Page } from '../../components/page';
import { useFlow, useFlowInstance } from '../../hooks/use-flow';
import { texts } from '../../texts';
import '../../styles/documents.css';

/**
 * `/clients` (docs/behaviour.md#client-list-screen): the Client List; each entry opens the client's
 * documents.
 */
export function ClientListScreen() {
  const session = useSession();
  if (session.status !== 'signedIn') return null;
  return <ClientList key={session.user.email} user={session.user} />;
}

function ClientList({ user }: { user: User }) {
  const { api, platform } = useServices();
  const flow = useFlowInstance(() => createVisibleClientsFlow({ api, platform, actor: user }));
  const state = useFlow(flow);
  const headingId = useId();
  useEffect(() => {
    void flow.send({ type: 'load' });
  }, [flow]);
  const admin = canManageAllClients(user);

  let body;
  if (state.items.length > 0) {
    body = (
      <ul className="client-list">
        {state.items.map((client) => (
          <li key={client.clientId} className="client-list__item">
            <Link className="client-list__link" to={paths.clientDocs(client.clientId)}>
              {fullName(client)}
            </Link>
            <span className="client-list__meta">
              {client.email} · {client.phone}
            </span>
            {admin && (
              <span className="client-list__meta">
                Created by: {client.createdBy ?? client.previousCreatedBy ?? 'unknown'}
              </span>
            )}
          </li>
        ))}
      </ul>
    );
  } else if (state.status === 'loading') body = <Loading />;
  else if (state.status === 'error') body = <p className="status status--error">{state.error}</p>;
  else body = <p className="status">{texts.noClients}</p>;

  return (
    <Page title="Client List" width="wide">
      <div className="actions">
        <Link className="button button--primary" to={paths.newClient}>
          Add New Client
        </Link>
        <button type="button" className="button" onClick={() => void flow.send({ type: 'load' })}>
          Refresh
        </button>
      </div>
      <section className="panel" aria-labelledby={headingId} aria-busy={state.status === 'loading'}>
        <h2 className="panel__title" id={headingId}>
          {admin ? 'All clients' : 'Your clients'}
        </h2>
        {body}
      </section>
    </Page>
  );
}
