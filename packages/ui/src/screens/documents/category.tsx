import { deleteCategory, findClientCard, fullName, isFixedCategory } from '@vita-docs/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from '../../app/router';
import { paths } from '../../app/paths';
import { useServices } from '../../app/services';
import { useSession } from '../../app/session';
import { useFlow } from '../../hooks/use-flow';
import { Page } from '../../components/page';
import { CategoryUpload, RenameDialog, ViewModal } from './category-parts';
import { UploadedList } from './uploaded-list';
import { useCategoryFlows } from './use-category-flows';
import { useLinkStatus } from './link-status';
import { linkTexts } from '../../texts';
import '../../styles/documents.css';

/**
 * `/clients/{clientId}/docs/{docType}` (docs/behaviour.md#category-screen): one set of flows per
 * client and category.
 */
export function CategoryScreen() {
  const { clientId = '', docType = '' } = useParams();
  // Opened with no connection, it is made again once the server vouches for the session: the list,
  // the client's name and the link's marks load then (the queue is kept: it is not the screen's).
  const session = useSession();
  const trusted = session.status === 'signedIn' && session.offline === true;
  return (
    <Category
      key={`${clientId}/${docType}/${trusted ? 'offline' : 'live'}`}
      clientId={clientId}
      docType={docType}
      offline={trusted}
    />
  );
}

function Category({ clientId, docType, offline }: { clientId: string; docType: string; offline: boolean }) {
  const clientName = useClientName(clientId);
  const flows = useCategoryFlows({ clientId, docType }, { offline });
  const uploaded = useRef<HTMLDivElement>(null);
  // Read again with the list (an upload, Refresh): the marks of what the client sent.
  const link = useLinkStatus(clientId, useFlow(flows.list).status);
  const fromClient = new Set(link.status?.fromClient ?? []);
  const answer = link.status?.answers.find((a) => a.docType === docType);

  return (
    <Page title={docType} width="wide">
      {/* Whose documents these are, so nobody photographs into the wrong client. */}
      {clientName && <p className="lead category__client">{clientName}</p>}
      <CategoryActions
        clientId={clientId}
        docType={docType}
        onRefresh={() => void flows.list.send({ type: 'refresh' })}
      />
      <div className="category">
        <CategoryUpload
          target={{ clientId, docType }}
          list={flows.list}
          clientName={clientName}
          uploadedList={uploaded}
        />
        <div ref={uploaded}>
          {answer && (
            <p className="status category__client-answer">
              {linkTexts.clientDontHave}
              {answer.note ? ` — ${answer.note}` : ''}
            </p>
          )}
          <UploadedList flows={flows} fromClient={fromClient} offline={offline} />
        </div>
      </div>
      <ViewModal flow={flows.viewer} />
      <RenameDialog flow={flows.rename} />
    </Page>
  );
}

/** Delete Category (custom categories only; then back to the client's documents), Refresh and Done. */
function CategoryActions({
  clientId,
  docType,
  onRefresh,
}: {
  clientId: string;
  docType: string;
  onRefresh: () => void;
}) {
  const { api, platform } = useServices();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);
  const removeCategory = async () => {
    setDeleting(true);
    const deleted = await deleteCategory(api, platform, clientId, docType);
    setDeleting(false);
    if (deleted) await navigate(paths.clientDocs(clientId));
  };
  return (
    <div className="actions">
      {!isFixedCategory(docType) && (
        <button
          type="button"
          className="button button--danger"
          disabled={deleting}
          onClick={() => void removeCategory()}
        >
          Delete Category
        </button>
      )}
      <button type="button" className="button" onClick={onRefresh}>
        Refresh
      </button>
      <Link className="button button--primary" to={paths.clientDocs(clientId)}>
        Done
      </Link>
    </div>
  );
}

/** The client's full name once known (null while loading or when it cannot be found). */
function useClientName(clientId: string): string | null {
  const { api } = useServices();
  const session = useSession();
  const actor = session.status === 'signedIn' ? session.user : null;
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    if (!actor) return;
    let live = true;
    void findClientCard(api, actor, clientId).then(
      (client) => live && setName(client ? fullName(client) : null),
    );
    return () => {
      live = false;
    };
  }, [api, actor, clientId]);
  return name;
}
