import { createScanFlow, errorMessage, scanFileName } from '@vita-docs/core';
import type { FileLike, FileListFlow, QueuedFile, ScanFlow, UploadFlow, UploadTarget } from '@vita-docs/core';
import { useEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { useNavigate } from '../../app/router';
import { useServices } from '../../app/services';
import { useUploadQueues } from '../../app/upload-queues';
import { useFlow, useFlowInstance } from '../../hooks/use-flow';
import { useLeaveGuard } from '../../hooks/use-leave-guard';
import type { LeaveTarget } from '../../hooks/use-leave-guard';
import { notUploadableMessage } from '../../texts';
import { LeaveDialog, ScanDialog, ScannerInboxPanel } from './category-parts';
import type { LeaveChoice } from './leave-dialog';
import { UploadQueue } from './upload-queue';
import { ensureCategory } from './reading-note';
import { dismissVerdict, noteUploadedBytes } from './readings';
import { readQueued } from './read-queued';
import { isUploadable } from './uploadable';
import { useFileDrop } from './use-file-drop';
import type { Dropped } from './use-file-drop';

export interface CategoryUploadProps {
  target: UploadTarget;
  /** The screen's Uploaded list: the queue refreshes it and checks new names against it. */
  list: FileListFlow;
  /** The client's full name once known: the queue keeps it with each file (the offer, the tray). */
  clientName: string | null;
  /** The screen's Uploaded list: brought into view with the new files after a batch went up. */
  uploadedList: RefObject<HTMLElement | null>;
}

/**
 * The category screen's adding of files — pickers, camera, drops, Scan pages, the queue and Upload —
 * with the upload queues' code, in a chunk of its own: the screen and its Uploaded list show without
 * waiting for it (category-parts.tsx loads it once the screen's code is there).
 */
export function CategoryUpload({ target, list, clientName, uploadedList }: CategoryUploadProps) {
  const { platform } = useServices();
  const { upload, scan, combine } = useUploadFlows(target, list, clientName);
  const { lastUploaded } = useFlow(upload);
  useEffect(() => {
    if (lastUploaded > 0) uploadedList.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [lastUploaded, uploadedList]);
  const { waiting, leavingTo, leave } = useLeaveWithQueued(upload);
  const { add, dragging } = useAddFiles(upload, scan);
  const reading = useReadQueued(upload, target);
  return (
    <div>
      <UploadQueue
        flow={upload}
        onAdd={add}
        dragging={dragging}
        onScan={() => void scan.send({ type: 'open' })}
        reading={reading}
      />
      {platform.scannerInbox && (
        <ScannerInboxPanel inbox={platform.scannerInbox} upload={upload} target={target} combine={combine} />
      )}
      <ScanDialog flow={scan} />
      {leavingTo !== null && <LeaveDialog count={waiting.length} onChoose={leave} />}
    </div>
  );
}

/**
 * The category's queue (the app's, `useUploadQueues`: it outlives the screen, so uploads go on
 * elsewhere and come back with it), lent the screen's list, and Scan pages feeding it.
 */
function useUploadFlows(target: UploadTarget, list: FileListFlow, clientName: string | null) {
  const { platform, clock } = useServices();
  const queues = useUploadQueues();
  const { photos } = queues;
  const [upload] = useState(() => queues.queueFor(target));
  const { clientId, docType } = target;
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
  /** A desk scanner's one-file-per-page scans made into one PDF (the Scanner inbox's Combine). */
  const combine = (files: readonly FileLike[]) =>
    photos.buildScan(
      files.map((file) => ({ file })),
      scanFileName(new Date(clock.now())),
    );
  return { upload, scan, combine };
}

/**
 * Each file queued here is read on the device (in a worker; the upload never waits for it) while
 * reading is on (useReadingOn), and a queued file another form than this category can be moved: it
 * goes to that category's queue (the category added first if the client lacks it) and is sent from
 * there.
 */
function useReadQueued(upload: UploadFlow, target: UploadTarget) {
  const { platform, clock, api } = useServices();
  const queues = useUploadQueues();
  const { queue } = useFlow(upload);
  const assets = useReadingOn(platform.readerFolder !== undefined) ? platform.readerFolder : undefined;
  const { clientId, docType } = target;
  useEffect(() => {
    if (!assets) return;
    for (const item of queue) {
      readQueued(item.id, item.original, docType, assets, () => new Date(clock.now()));
      const converted = item.progress.status !== 'converting' && item.progress.status !== 'saving';
      if (converted) noteUploadedBytes(item.id, item.file);
    }
  }, [queue, assets, docType, clock]);
  if (!assets) return undefined;
  const move = async (item: QueuedFile, form: string) => {
    await ensureCategory(api, clientId, form);
    const other = queues.queueFor({ clientId, docType: form });
    await other.send({ type: 'add', files: [item.original] });
    void other.send({ type: 'upload' });
    dismissVerdict(item.id);
    await upload.send({ type: 'remove', id: item.id });
  };
  return { category: docType, move };
}

/** The last answer this page had to whether documents are read (see useReadingOn). */
let readingWas = false;

/**
 * Whether documents are read here: only while the person's own switch (Account) and the programme's
 * (Settings) are both on. Asked each time the screen opens, so a change made elsewhere holds at once;
 * nothing is read until the answer comes (then the queue is read in order). With no answer (no
 * connection) the last one this page had holds, else nothing is read: reading only helps, an upload
 * never needs it.
 */
function useReadingOn(canRead: boolean): boolean {
  const { api } = useServices();
  const [on, setOn] = useState(false);
  useEffect(() => {
    if (!canRead) return;
    let live = true;
    void api
      .myReading()
      .then(
        ({ mine, programme }) => mine && programme,
        () => readingWas,
      )
      .then((answer) => {
        readingWas = answer;
        if (live) setOn(answer);
      });
    return () => {
      live = false;
    };
  }, [api, canRead]);
  return on;
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
function useAddFiles(upload: UploadFlow, scan: ScanFlow) {
  const { platform } = useServices();
  const add = (files: readonly FileLike[], camera = false) => {
    const accepted = files.filter(isUploadable);
    const refused = files.filter((f) => !isUploadable(f)).map((f) => f.name);
    if (accepted.length) void upload.send({ type: 'add', files: accepted, camera });
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
    if (scan.getState().status === 'closed') drop(dropped);
  });
  return { add, dragging };
}
