import {
  createFileListFlow,
  createFileViewerFlow,
  createRenameFlow,
  createRetakeFlow,
} from '@vita-docs/core';
import type { UploadTarget } from '@vita-docs/core';
import { useEffect, useState } from 'react';
import { useServices } from '../../app/services';
import { useUploadQueues } from '../../app/upload-queues';
import { useFlowInstance } from '../../hooks/use-flow';

/**
 * The category screen's flows for its Uploaded list, wired to each other and to the host's services:
 * retake refreshes the list; a rename updates the entry in place; each file the app's upload queue
 * stores for this category refreshes it. One set per client and category (the screen is keyed by
 * both). The adding of files has its own (category-upload.tsx). `offline`: the session is taken on
 * trust with no connection, the list is not asked for (it would only fail, and say so in an alert
 * over a screen that already says it needs a connection); the screen is made again once live.
 */
export function useCategoryFlows(target: UploadTarget, { offline = false }: { offline?: boolean } = {}) {
  const { api, platform, localStorage } = useServices();
  const queues = useUploadQueues();
  const list = useFlowInstance(() => createFileListFlow({ api, platform, target }));
  const refresh = () => list.send({ type: 'refresh' });
  const { clientId, docType } = target;
  const retake = useFlowInstance(() =>
    createRetakeFlow({
      api,
      putFile: platform.putFile,
      convert: queues.photos.convert,
      inspect: queues.photos.inspect,
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
    if (!offline) void list.send({ type: 'refresh' });
  }, [list, offline]);
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
  return { list, retake, rename, viewer, renamedKey };
}

/** What the Uploaded list drives. */
export type CategoryFlows = Pick<
  ReturnType<typeof useCategoryFlows>,
  'list' | 'retake' | 'rename' | 'viewer'
> &
  Partial<Pick<ReturnType<typeof useCategoryFlows>, 'renamedKey'>>;
