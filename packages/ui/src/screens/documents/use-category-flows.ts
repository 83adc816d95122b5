import {
  createFileListFlow,
  createRenameFlow,
  createRetakeFlow,
  createScanFlow,
  createUploadFlow,
  scanFileName,
} from '@vita-docs/core';
import type { FileLike, UploadTarget } from '@vita-docs/core';
import { useEffect, useRef } from 'react';
import type { RefObject } from 'react';
import { createFileViewerFlow } from '../../adapters/file-viewer';
import { useServices } from '../../app/services';
import { useFlowInstance } from '../../hooks/use-flow';
import { createLazyConverter } from './lazy-converter';

/**
 * The category screen's flows, wired to each other and to the host's services: the upload queue and
 * retake refresh the list; a rename updates the entry in place; a finished scan joins the queue. One
 * set per client and category (the screen is keyed by both).
 */
export function useCategoryFlows(target: UploadTarget) {
  const { api, platform, localStorage, clock } = useServices();
  // useFlowInstance calls dispose on unmount: the converter's worker stops with the screen.
  const photos = useFlowInstance(() => createLazyConverter(console));
  const list = useFlowInstance(() => createFileListFlow({ api, platform, target }));
  const refresh = () => list.send({ type: 'refresh' });
  const common = {
    api,
    putFile: platform.putFile,
    convert: photos.convert,
    storage: localStorage,
    platform,
    target,
    refresh,
  };
  const limit = useUploadLimit();
  const upload = useFlowInstance(() =>
    createUploadFlow({
      ...common,
      inspect: photos.inspect,
      uploadedNames: () => list.getState().items.map((item) => item.filename),
      maxUploadBytes: () => limit.current,
    }),
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
  const retake = useFlowInstance(() => createRetakeFlow(common));
  const rename = useFlowInstance(() =>
    createRenameFlow({ api, platform, onRenamed: (change) => list.send({ type: 'renamed', ...change }) }),
  );
  const viewer = useFlowInstance(() => createFileViewerFlow({ api, platform }));
  useEffect(() => {
    void list.send({ type: 'refresh' });
  }, [list]);
  /** A desk scanner's one-file-per-page scans made into one PDF (the Scanner inbox's Combine). */
  const combine = (files: readonly FileLike[]) =>
    photos.buildScan(
      files.map((file) => ({ file })),
      scanFileName(new Date(clock.now())),
    );
  return { list, upload, scan, retake, rename, viewer, combine };
}

/** What the Uploaded list drives. */
export type CategoryFlows = Pick<ReturnType<typeof useCategoryFlows>, 'list' | 'upload' | 'retake' | 'rename' | 'viewer'>;

/**
 * The server's upload limit (`GET /config`), asked once per screen; null until it answers (the server
 * still refuses a file over it then).
 */
function useUploadLimit(): RefObject<number | null> {
  const { api } = useServices();
  const limit = useRef<number | null>(null);
  useEffect(() => {
    let live = true;
    api.config().then(
      ({ maxUploadBytes }) => live && (limit.current = maxUploadBytes),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api]);
  return limit;
}
