import { deleteCategory, errorMessage, findClientCard, fullName, isFixedCategory } from '@vita-docs/core';
import type { FileLike, UploadFlow } from '@vita-docs/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from '../../app/router';
import { paths } from '../../app/paths';
import { useServices } from '../../app/services';
import { useSession } from '../../app/session';
import { useFlow } from '../../hooks/use-flow';
import { Page } from '../../components/page';
import { notUploadableMessage } from '../../texts';
import { useLeaveGuard } from '../../hooks/use-leave-guard';
import type { LeaveTarget } from '../../hooks/use-leave-guard';
import { LeaveDialog, RenameDialog, ScanDialog, ScannerInboxPanel, ViewModal } from './category-parts';
import type { LeaveChoice } from './leave-dialog';
import { UploadQueue } from './upload-queue';
import { UploadedList } from './uploaded-list';
import { isUploadable } from './uploadable';
import { useCategoryFlows } from './use-category-flows';
import { useLinkStatus } from './link-status';
import { linkTexts } from '../../texts';
import { useFileDrop } from './use-file-drop';
import type { Dropped } from './use-file-drop';
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
  const { platform } = useServices();
  const clientName = useClientName(clientId);
  const flows = useCategoryFlows({ clientId, docType }, clientName);
  const { lastUploaded } = useFlow(flows.upload);
  const { waiting, leavingTo, leave } = useLeaveWithQueued(flows.upload);
  // After a batch went up, the Uploaded list comes into view with the new files.
  const uploaded = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (lastUploaded > 0) uploaded.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [lastUploaded]);
  const { add, dragging } = useAddFiles(flows);
  // Read again with the list (an upload, Refresh): the marks of what the client sent.
  const link = useLinkStatus(clientId, useFlow(flows.list).status);
  const fromClient = new Set(link.status?.fromClient ?? []);
  const answer = link.status?.answers.find((a) => a.docType === docType);
  const openScan = () => void flows.scan.send({ type: 'open' });

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
        {platform.scannerInbox ? (
          <div>
            <UploadQueue flow={flows.upload} onAdd={add} dragging={dragging} onScan={openScan} />
            <ScannerInboxPanel
              inbox={platform.scannerInbox}
              upload={flows.upload}
              target={{ clientId, docType }}
              combine={flows.combine}
            />
          </div>
        ) : (
          <UploadQueue flow={flows.upload} onAdd={add} dragging={dragging} onScan={openScan} />
        )}
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
      <ScanDialog flow={flows.scan} />
      {leavingTo !== null && <LeaveDialog count={waiting.length} onChoose={leave} />}
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

/**
 * Leaving with files not sent yet asks first (they would wait in the queue, easily forgotten). Files
 * an upload under way will send, and files waiting for the connection, go by themselves.
 */
function useLeaveWithQueued(upload: UploadFlow) {
  const navigate = useNavigate();
  const { queue, status } = useFlow(upload);
  const sending = status === 'uploading' || status === 'refreshing';
  const waiting = sending
    ? []
    : queue.filter((item) => item.progress.status !== 'done' && item.progress.status !== 'waiting');
  const [leavingTo, setLeavingTo] = useState<LeaveTarget | null>(null);
  const guard = useLeaveGuard(waiting.length > 0, setLeavingTo);
  const leave = (choice: LeaveChoice) => {
    const to = leavingTo;
    setLeavingTo(null);
    if (choice === 'stay' || to === null) return;
    if (choice === 'discard') for (const item of waiting) void upload.send({ type: 'remove', id: item.id });
    else void upload.send({ type: 'upload' });
    guard.leave(to, navigate);
  };
  return { waiting, leavingTo, leave };
}

/** Adding files: picked, photographed or dropped (only PDFs and images; the others are named in an alert). */
function useAddFiles(flows: Pick<ReturnType<typeof useCategoryFlows>, 'upload' | 'scan'>) {
  const { platform } = useServices();
  const add = (files: readonly FileLike[], camera = false) => {
    const accepted = files.filter(isUploadable);
    const refused = files.filter((f) => !isUploadable(f)).map((f) => f.name);
    if (accepted.length) void flows.upload.send({ type: 'add', files: accepted, camera });
    if (refused.length) void platform.alert(notUploadableMessage(refused));
  };
  // A host that can open folders (the desktop) gets everything dropped; a browser page only files.
  const drop = ({ files, all }: Dropped) => {
    if (!platform.expandDrop) {
      if (files.length) add(files);
      return;
    }
    platform.expandDrop(all).then(
      (expanded) => {
        if (expanded.files.length) add(expanded.files);
        if (expanded.skipped.length) void platform.alert(notUploadableMessage(expanded.skipped));
      },
      (error: unknown) => void platform.alert(errorMessage(error)),
    );
  };
  const dragging = useFileDrop((dropped) => {
    // While Scan pages is open, a drop belongs to it (it takes its own drops).
    if (flows.scan.getState().status === 'closed') drop(dropped);
  });
  return { add, dragging };
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
