/**
 * The client page's capture parts, loaded when first used (client-link-page.tsx): the product's upload
 * queue (PDF conversion, retries, never stored twice), its photo converter and the Scan pages dialog,
 * wired to the link session's own upload calls instead of the staff ones.
 */
import {
  CLIENT_LINK_TEXTS,
  createScanFlow,
  createUploadFlow,
  type ApiClient,
  type ClientLinkLanguage,
  type FileLike,
  type Logger,
  type ScanFlow,
  type UploadFlow,
} from '@vita-docs/core';
import { useState } from 'react';
import { browserClock, browserConnectivity } from '../../host';
import { createXhrPutFile } from '../../transport/xhr-put-file';
import { useFlow } from '../../hooks/use-flow';
import { createLazyConverter } from '../documents/lazy-converter';
import { PhotoThumb } from '../documents/photo-thumb';
import { ScanDialog } from '../documents/scan-dialog';
import '../../styles/documents.css';

type LinkApi = Pick<ApiClient, 'linkPresign' | 'linkComplete'>;

/** The upload queue's two calls, answered by the link session's: it may only add to its own categories. */
function linkUploadApi(api: LinkApi): Pick<ApiClient, 'presignUpload' | 'completeUpload'> {
  return {
    presignUpload: ({ body }) =>
      api.linkPresign({
        body: {
          docType: body.docType,
          filename: body.filename,
          contentType: body.contentType,
          size: body.size ?? 0,
          sha256: body.sha256 ?? '',
        },
      }),
    completeUpload: async ({ body }) => {
      const { file } = await api.linkComplete({ body });
      return {
        ok: true as const,
        item: { ...file, docType: '', lastModified: new Date().toISOString() },
      };
    },
  };
}

export interface LinkCapture {
  add(docType: string, files: readonly FileLike[], camera: boolean): void;
  scan(docType: string): void;
  queue(docType: string): UploadFlow;
  scanFlow: ScanFlow;
  dispose(): void;
}

export function createLinkCapture({
  api,
  logger,
  onStored,
}: {
  api: LinkApi;
  logger: Logger;
  onStored: () => void;
}): LinkCapture {
  const putFile = createXhrPutFile();
  const photos = createLazyConverter(logger);
  const uploadApi = linkUploadApi(api);
  const queues = new Map<string, UploadFlow>();
  const queue = (docType: string) => {
    let flow = queues.get(docType);
    if (!flow) {
      flow = createUploadFlow({
        api: uploadApi,
        putFile,
        convert: photos.convert,
        storage: window.localStorage,
        platform: { alert: async (message) => window.alert(message) },
        target: { clientId: 'link', docType },
        refresh: onStored,
        clock: browserClock,
        connectivity: browserConnectivity,
      });
      queues.set(docType, flow);
    }
    return flow;
  };
  let scanning: string | null = null;
  const add = (docType: string, files: readonly FileLike[], camera: boolean) => {
    const flow = queue(docType);
    // The client has no Upload button: what is added goes at once.
    void flow.addFiles(files, { camera }).ready.then(() => flow.send({ type: 'upload' }));
  };
  const scanFlow = createScanFlow({
    build: photos.buildScan,
    canUse: photos.canUse,
    inspect: photos.inspect,
    platform: { confirm: async (message) => window.confirm(message) },
    clock: browserClock,
    onScanned: (file) => scanning !== null && add(scanning, [file], false),
  });
  return {
    add,
    scan(docType) {
      scanning = docType;
      void scanFlow.send({ type: 'open' });
    },
    queue,
    scanFlow,
    dispose() {
      for (const flow of queues.values()) flow.dispose();
      photos.dispose();
    },
  };
}

/** The files of one row still on their way (converting, uploading, failed with Try again). */
export function RowQueue({
  capture,
  docType,
  language,
}: {
  capture: LinkCapture;
  docType: string;
  language: ClientLinkLanguage;
}) {
  const [flow] = useState(() => capture.queue(docType));
  const state = useFlow(flow);
  const t = CLIENT_LINK_TEXTS[language];
  const pending = state.queue.filter((item) => item.progress.status !== 'done');
  if (pending.length === 0) return null;
  return (
    <ul className="link-files link-files--queue">
      {pending.map((item) => {
        const failed = item.progress.status === 'failed';
        return (
          <li key={item.id} className="link-file">
            <PhotoThumb file={item.original} label={item.file.name} />
            <span className="link-file__name">{item.file.name}</span>
            <span className={failed ? 'status status--error' : 'status'}>
              {failed ? t.uploadFailed : t.uploading}
            </span>
            {failed && (
              <button
                type="button"
                className="button button--small"
                onClick={() => void flow.send({ type: 'retry', id: item.id })}
              >
                {t.retry}
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The Scan pages dialog of the product, for the row it was opened from. */
export function ScanHost({ capture }: { capture: LinkCapture }) {
  return <ScanDialog flow={capture.scanFlow} />;
}
