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
import { createLinkReadings, type LinkFileRef, type LinkReadings } from './readings.js';
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
  readings: LinkReadings | undefined,
) {
  const { photos, clock, journal } = ports;
  const { thumbs, notes } = thumbNotes(readings && ((id, key) => readings.stored(id, key)));
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
        if (current) notes.sending(thumbOf(current, scanFirstPages), current.id);
        // Each file is read as it is queued (added, scanned, restored, retaken), beside its upload.
        for (const item of state.queue) readings?.queued(item.id, item.original, docType);
      });
      queues.set(docType, flow);
    }
    return flow;
  };
  return { queue, queues, thumbs, checksDone };
}

/**
 * What a page that reads nothing has to say: nothing. One state object, always the same: a store whose
 * state changes on every read makes React render for ever.
 */
const NO_NOTES: ReturnType<LinkCapture['readings']['getState']> = { note: () => undefined };
const NO_READINGS: LinkCapture['readings'] = {
  getState: () => NO_NOTES,
  subscribe: () => () => undefined,
};

/** Resolves once the queued file `id` is no longer being sent. */
function sentOrFailed(flow: UploadFlow, id: string): Promise<void> {
  return new Promise((resolve) => {
    const sending = () =>
      flow.getState().queue.find((item) => item.id === id)?.progress.status === 'uploading';
    if (!sending()) return resolve();
    const stop = flow.subscribe(() => {
      if (sending()) return;
      stop();
      resolve();
    });
  });
}

/**
 * `Mover a {form}`: a stored file is moved by the server (the link's own move), a file not sent yet
 * leaves its row's queue for the other row's, and one being sent is moved once it is stored.
 */
function linkMove(deps: {
  ports: LinkCapturePorts;
  page: LinkCapturePage;
  readings: LinkReadings;
  queue: (docType: string) => UploadFlow;
  thumbs: Map<string, CaptureThumb>;
  add: (docType: string, files: readonly FileLike[], camera: boolean) => void;
}) {
  const { ports, page, readings, queue, thumbs, add } = deps;
  const move = async (ref: LinkFileRef): Promise<void> => {
    const note = readings.getState().note(ref);
    const id = readings.idOf(ref);
    if (!note?.moveTo || id === undefined) return;
    const from = queue(note.category);
    const item = from.getState().queue.find((queued) => queued.id === id);
    if (item?.progress.status === 'uploading') {
      await sentOrFailed(from, id);
      return move(ref);
    }
    const key = readings.keyOf(id);
    if (!item || item.progress.status === 'done') {
      if (key === undefined) return;
      const moved = await ports.api.linkMove({ body: { key, docType: note.moveTo } });
      const thumb = thumbs.get(key);
      if (thumb) thumbs.set(moved.newKey, thumb);
      readings.dismiss({ id });
      page.onStored();
      return;
    }
    readings.dismiss({ id });
    await from.send({ type: 'remove', id });
    add(note.moveTo, [item.original], false);
  };
  return move;
}

/** Creates the client page's capture on the host's ports. */
export function createLinkCapture(ports: LinkCapturePorts, page: LinkCapturePage): LinkCapture {
  const { photos, reader } = ports;
  const scanFirstPages = new WeakMap<object, CaptureThumb>();
  const readings =
    reader && createLinkReadings({ reader, now: () => new Date(ports.clock.now()), rows: page.rows });
  const { queue, queues, thumbs, checksDone } = rowQueues(ports, page, scanFirstPages, readings);
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
  const move = readings ? linkMove({ ports, page, readings, queue, thumbs, add }) : () => Promise.resolve();
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
    readings: readings ?? NO_READINGS,
    move,
    keep: (ref) => readings?.dismiss(ref),
    dispose() {
      for (const flow of queues.values()) flow.dispose();
      photos.dispose?.();
      void reader?.close();
    },
  };
}
