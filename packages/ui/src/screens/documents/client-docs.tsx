import { canReassignClients, createClientDocsFlow, createDownloadAllFlow, fullName } from '@vita-docs/core';
import type { Client, ClientDocsFlow, User } from '@vita-docs/core';
import { Suspense, useEffect, useState } from 'react';
import { Link, useParams } from '../../app/router';
import { paths } from '../../app/paths';
import { useServices } from '../../app/services';
import { useSession } from '../../app/session';
import { useUploadQueues } from '../../app/upload-queues';
import { Page } from '../../components/page';
import { lazyPart } from '../../components/lazy-part';
import { useFlow, useFlowInstance } from '../../hooks/use-flow';
import { useMedia } from '../../hooks/use-media';
import { AddTypeDialog } from './add-type-dialog';
import { ClientLinkPanel } from './client-link-panel';
import { useLinkStatus } from './link-status';
import { DownloadDialog } from './download-dialog';
import { RequiredDocuments } from './required-documents';
import { SubmissionLine } from './submission-line';
import '../../styles/documents.css';

// Reassigning is an officer's occasional act: its dialog is fetched when opened, not with the page.
const reassignDialog = lazyPart(() =>
  import('../../components/reassign-dialog').then((m) => m.ReassignDialog),
);
const ReassignDialog = reassignDialog.Part;

/** Below this width (documents.css's breakpoint) the page is laid out for a phone. */
const PHONE_WIDTH = '(max-width: 39.99rem)';

/** `/clients/{clientId}/docs`: the Client Documents page (docs/behaviour.md#client-documents-screen). */
export function ClientDocsScreen() {
  const { clientId = '' } = useParams();
  const session = useSession();
  // The route sits behind RequireSession: a user is always there.
  if (session.status !== 'signedIn') return null;
  return <ClientDocs key={`${clientId}|${session.user.email}`} clientId={clientId} user={session.user} />;
}

function ClientDocs({ clientId, user }: { clientId: string; user: User }) {
  const { api, platform } = useServices();
  const flow = useFlowInstance(() => createClientDocsFlow({ api, platform, clientId, actor: user }));
  const download = useFlowInstance(() => createDownloadAllFlow({ api, platform, clientId }));
  const state = useFlow(flow);
  const [reassigning, setReassigning] = useState(false);
  const link = useLinkStatus(clientId, state.status);
  useEffect(() => {
    void flow.send({ type: 'refresh' });
  }, [flow]);
  useRowsFollowUploads(flow, clientId);

  const ready = state.status === 'ready';
  const { client } = state;
  const anyFiles = state.categories.some((category) => category.hasFiles);
  const phone = useMedia(PHONE_WIDTH);
  const requiredDocuments = (
    <RequiredDocuments flow={flow} state={state} clientId={clientId} link={link.status} />
  );
  return (
    <Page title="Client Documents" width="wide">
      {client && <ClientFacts client={client} />}
      {/* On a phone the categories come first: they are what the person came for. */}
      {phone && requiredDocuments}
      <div className="toolbar">
        <div className="actions">
          <button
            type="button"
            // The page's main action only once there is something to download.
            className={`button${anyFiles ? ' button--primary' : ''}`}
            disabled={!ready}
            onClick={() => void download.send({ type: 'open', choices: state.categories })}
          >
            Download All Documents
          </button>
          {canReassignClients(user) && (
            <button type="button" className="button" disabled={!ready} onClick={() => setReassigning(true)}>
              Reassign Client
            </button>
          )}
          {/* Not disabled by the reload after an Add: the dialog gives the focus back to it. */}
          <button
            type="button"
            className="button"
            disabled={state.categories.length === 0}
            onClick={() => void flow.send({ type: 'openAdd' })}
          >
            Add document type
          </button>
        </div>
        <div className="actions">
          <button type="button" className="button" onClick={() => void flow.send({ type: 'refresh' })}>
            Refresh
          </button>
          <Link className="button" to={paths.clients}>
            Client List
          </Link>
        </div>
      </div>
      {/* Once the client is known: the confirm names them. */}
      {client && <SubmissionLine clientId={clientId} clientName={fullName(client)} />}
      {client && <ClientLinkPanel client={client} state={state} link={link} />}
      {!phone && requiredDocuments}
      <AddTypeDialog flow={flow} state={state} />
      <DownloadDialog flow={download} />
      {reassigning && (
        <Suspense fallback={null}>
          <ReassignDialog
            clientId={clientId}
            clientName={client ? fullName(client) : 'this client'}
            {...(client ? { clientEmail: client.email } : {})}
            onClose={() => setReassigning(false)}
            onReassigned={(email) => {
              setReassigning(false);
              void flow.send({ type: 'reassigned', email });
            }}
          />
        </Suspense>
      )}
    </Page>
  );
}

/** Whose documents these are, and whose client. */
function ClientFacts({ client }: { client: Client }) {
  return (
    <div className="client-facts">
      <p className="lead">
        {fullName(client)} · {client.email}
      </p>
      <p className="client-facts__owner">Volunteer: {client.createdBy ?? 'unknown (needs reassignment)'}</p>
    </div>
  );
}

/** Uploads still going on from the category screens: each row turns Ready as its file lands. */
function useRowsFollowUploads(flow: ClientDocsFlow, clientId: string): void {
  const queues = useUploadQueues();
  useEffect(
    () =>
      queues.onStored((target) => {
        if (target.clientId === clientId) void flow.send({ type: 'stored', docType: target.docType });
      }),
    [queues, flow, clientId],
  );
}
