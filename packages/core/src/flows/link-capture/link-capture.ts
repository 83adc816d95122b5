/**
 * The client page's capture (docs/behaviour.md#requesting-documents-from-a-client): the product's
 * upload queue for each checklist row (PDF conversion, quality checks, retries, never stored twice),
 * wired to the link session's own upload calls instead of the staff ones; the answers to a photo's
 * warnings; the Scan pages dialog for the row it was opened from; the files the phone kept before a
 * reload, sent again; and the thumbnail of each file stored through the page. Headless: the host
 * gives the ports (the browser's XHR, worker, IndexedDB journal in the web app; fakes in tests) and
 * renders the rows.
 */
import { clientScanTexts } from '../../client-link/capture-texts.js';
import type { FileLike } from '../../ports.js';
import type { KeptFile } from '../upload/journal.js';
import { createScanFlow } from '../scan/scan.js';
import { createUploadFlow } from '../upload/upload.js';
import type { UploadFlow } from '../upload/upload.js';
import { awaitsQualityChoice, linkUploadApi, thumbNotes, thumbOf, trackedChecks } from './parts.js';
import type { CaptureThumb, LinkCapture, LinkCapturePage, LinkCapturePorts } from './types.js';

/**
 * Queues the files kept before a reload again, each in its row's queue, and sends them once their
 * PDFs are made and their photos checked again: a photo whose warnings were unanswered waits again.
 */
function restoreKept(
  files: readonly KeptFile[],
  queue: (docType: string) => UploadFlow,
  checksDone: () => Promise<void>,
  send: (flow: UploadFlow) => void,
): void {
  const byType = new Map<string, KeptFile[]>();
  for (const file of files)
    byType.set(file.entry.target.docType, [...(byType.get(file.entry.target.docType) ?? []), file]);
  for (const [docType, group] of byType) {
    const flow = queue(docType);
    void flow
      .send({ type: 'restore', files: group })
      .then(checksDone)
      .then(() => send(flow));
  }
}

/** The row queues of the page, made on first use, each noting the thumbnail of the file it sends. */
function rowQueues(
  ports: LinkCapturePorts,
  page: LinkCapturePage,
  scanFirstPages: WeakMap<object, CaptureThumb>,
) {
  const { photos, clock, journal } = ports;
  const { thumbs, notes } = thumbNotes();
  const { inspect, checksDone } = trackedChecks(photos.inspect, clock);
  const queues = new Map<string, UploadFlow>();
  const queue = (docType: string) => {
    let flow = queues.get(docType);
    if (!flow) {
      flow = createUploadFlow({
        api: linkUploadApi(ports.api, notes),
        putFile: ports.putFile,
        convert: photos.convert,
        inspect,
        storage: ports.storage,
        platform: ports.platform,
        target: { clientId: 'link', docType },
        refresh: page.onStored,
        clock,
        newId: ports.newId,
        ...(ports.connectivity && { connectivity: ports.connectivity }),
        ...(journal && { journal: journal.journal }),
      });
      // The queue sends its files one by one: the one being sent is the one the next stored key is of.
      flow.subscribe((state) => {
        const current = state.queue.find((item) => item.progress.status === 'uploading');
        if (current) notes.sending(thumbOf(current, scanFirstPages));
      });
      queues.set(docType, flow);
    }
    return flow;
  };
  return { queue, queues, thumbs, checksDone };
}

/** Creates the client page's capture on the host's ports. */
export function createLinkCapture(ports: LinkCapturePorts, page: LinkCapturePage): LinkCapture {
  const { photos } = ports;
  const scanFirstPages = new WeakMap<object, CaptureThumb>();
  const { queue, queues, thumbs, checksDone } = rowQueues(ports, page, scanFirstPages);
  const send = (flow: UploadFlow) => {
    // The client has no Upload button: what is added goes at once, unless a photo awaits their choice.
    if (flow.getState().queue.some(awaitsQualityChoice)) return;
    void flow.send({ type: 'upload' });
  };
  let scanning: string | null = null;
  const add = (docType: string, files: readonly FileLike[], camera: boolean) => {
    const flow = queue(docType);
    void flow
      .addFiles(files, { camera })
      .ready.then(checksDone)
      .then(() => send(flow));
  };
  const scanFlow = createScanFlow({
    build: photos.buildScan,
    canUse: photos.canUse,
    inspect: photos.inspect,
    platform: ports.platform,
    clock: ports.clock,
    texts: () => clientScanTexts(page.language()),
    onScanned: (file) => {
      const [first] = scanFlow.getState().pages;
      if (first) scanFirstPages.set(file, { file: first.file, rotate: first.rotate });
      if (scanning !== null) add(scanning, [file], false);
    },
  });
  void ports.journal?.kept.then((files) => restoreKept(files, queue, checksDone, send));
  return {
    add,
    answer(docType, id, file) {
      const flow = queue(docType);
      void flow
        .send(file ? { type: 'replace', id, file } : { type: 'keep', id })
        .then(checksDone)
        .then(() => send(flow));
    },
    scan(docType) {
      scanning = docType;
      void scanFlow.send({ type: 'open' });
    },
    queue,
    thumb: (key) => thumbs.get(key),
    wouldLose: () =>
      [...queues.values()].some((flow) =>
        flow.getState().queue.some((item) => item.progress.status !== 'done' && !item.saved),
      ),
    scanFlow,
    dispose() {
      for (const flow of queues.values()) flow.dispose();
      photos.dispose?.();
    },
  };
}
