import { createFileListFlow, createRenameFlow, createRetakeFlow, createUploadFlow } from '@vita-docs/core';
import type { UploadTarget } from '@vita-docs/core';
import { useEffect } from 'react';
import { createFileViewerFlow } from '../../adapters/file-viewer';
import { useServices } from '../../app/services';
import { useFlowInstance } from '../../hooks/use-flow';
import { createLazyConverter } from './lazy-converter';

/**
 * The category screen's flows, wired to each other and to the host's services: the upload queue and
 * retake refresh the list; a rename updates the entry in place. One set per client and category
 * (the screen is keyed by both).
 */
export function useCategoryFlows(target: UploadTarget) {
  const { api, platform, localStorage } = useServices();
  // useFlowInstance calls dispose on unmount: the converter's worker stops with the screen.
  const converter = useFlowInstance(() => createLazyConverter(console));
  const list = useFlowInstance(() => createFileListFlow({ api, platform, target }));
  const refresh = () => list.send({ type: 'refresh' });
  const common = {
    api,
    putFile: platform.putFile,
    convert: converter.convert,
    storage: localStorage,
    platform,
    target,
    refresh,
  };
  const upload = useFlowInstance(() => createUploadFlow(common));
  const retake = useFlowInstance(() => createRetakeFlow(common));
  const rename = useFlowInstance(() =>
    createRenameFlow({ api, platform, onRenamed: (change) => list.send({ type: 'renamed', ...change }) }),
  );
  const viewer = useFlowInstance(() => createFileViewerFlow({ api, platform }));
  useEffect(() => {
    void list.send({ type: 'refresh' });
  }, [list]);
  return { list, upload, retake, rename, viewer };
}

export type CategoryFlows = ReturnType<typeof useCategoryFlows>;
