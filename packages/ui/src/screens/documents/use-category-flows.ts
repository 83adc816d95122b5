import {
  createFileListFlow,
  createFileViewerFlow,
  createRenameFlow,
  createRetakeFlow,
  createScanFlow,
  scanFileName,
} from '@vita-docs/core';
import type { FileLike, UploadTarget } from '@vita-docs/core';
import { useEffect, useRef, useState } from 'react';
import { useServices } from '../../app/services';
import { useUploadQueues } from '../../app/upload-queues';
import { useFlowInstance } from '../../hooks/use-flow';

/**
 * The category screen's flows, wired to each other and to the host's services: the upload queue and
 * retake refresh the list; a rename updates the entry in place; a finished scan joins the queue. One
 * set per client and category (the screen is keyed by both). The upload queue is the app's
 * (`useUploadQueues`): it outlives the screen, so uploads go on elsewhere and come back with it.
 */
export function useCategoryFlows(target: UploadTarget, clientName: string | null) {
  const { api, platform, localStorage, clock } = useServices();
  const queues = useUploadQueues();
  const { photos } = queues;
  const list = useFlowInstance(() => createFileListFlow({ api, platform, target }));
  const refresh = () => list.send({ type: 'refresh' });
  const [upload] = useState(() => queues.queueFor(target));
  const { clientId, docType } = target;
  // The queue keeps the client's name with each file it keeps (for the resume offer and the tray).
  const name = useRef(clientName);
  useEffect(() => {
    name.current = clientName;
  }, [clientName]);
  useEffect(
    () =>
      queues.attach(
        { clientId, docType },
        {
          refresh: () => list.send({ type: 'refresh' }),
          uploadedNames: () => list.getState().items.map((item) => item.filename),
          clientName: () => name.current ?? undefined,
        },
      ),
    [queues, list, clientId, docType],
  );
  const scan = useFlowInstance(() =>
    createScanFlow({
      build: photos.buildScan,
      canUse: photos.canUse,
      inspect: photos.inspect,
      platform,
      clock,
      onScanned: (file) => upload.send({ type: 'add', files: [file] }),
    }),
  );
  const retake = useFlowInstance(() =>
    createRetakeFlow({
      api,
      putFile: platform.putFile,
      convert: photos.convert,
      inspect: photos.inspect,
      storage: localStorage,
      platform,
      target,
      refresh,
    }),
  );
  /** The key of the file just renamed: its row takes the focus back from the dialog. */
  const [renamedKey] = useState<{ current: string | null }>(() => ({ current: null }));
  const rename = useFlowInstance(() =>
    createRenameFlow({
      api,
      platform,
      onRenamed: (change) => {
        renamedKey.current = change.newKey;
        return list.send({ type: 'renamed', ...change });
      },
    }),
  );
  const viewer = useFlowInstance(() => createFileViewerFlow({ api, platform }));
  useEffect(() => {
    void list.send({ type: 'refresh' });
  }, [list]);
  // Each file the queue stores shows in the list as it lands, not only when the whole queue is done.
  useEffect(
    () =>
      queues.onStored((stored) => {
        // A refresh clears a selection: a person choosing files to delete keeps their choice until the round ends.
        const mine = stored.clientId === clientId && stored.docType === docType;
        if (mine && list.getState().selected.length === 0) void list.send({ type: 'refresh' });
      }),
    [queues, list, clientId, docType],
  );
  /** A desk scanner's one-file-per-page scans made into one PDF (the Scanner inbox's Combine). */
  const combine = (files: readonly FileLike[]) =>
    photos.buildScan(
      files.map((file) => ({ file })),
      scanFileName(new Date(clock.now())),
    );
  return { list, upload, scan, retake, rename, viewer, combine, renamedKey };
}

/** What the Uploaded list drives. */
export type CategoryFlows = Pick<
  ReturnType<typeof useCategoryFlows>,
  'list' | 'upload' | 'retake' | 'rename' | 'viewer'
> &
  Partial<Pick<ReturnType<typeof useCategoryFlows>, 'renamedKey'>>;
