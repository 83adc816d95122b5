/**
 * The upload queue's rules as one pure function: `transition(machine, event, context)` gives the next
 * machine and the effects to perform (docs/behaviour.md#upload-queue). Chosen files are queued —
 * photos converted to PDF first when the toggle is on, checked for quality — and kept on the device
 * before they count as queued when there is a journal (docs/behaviour.md#kept-uploads); sending them
 * is `round.ts`.
 */
import { messages } from '../../domain/messages.js';
import { isHeicFile, isPhotoFile } from '../../pdf/convertible.js';
import { turnBy } from '../../pdf/raster.js';
import type { QuarterTurn } from '../../pdf/raster.js';
import type { PageCrop } from '../../straighten/page.js';
import type { FileLike } from '../../ports.js';
import type { KeptChoice, KeptFile } from './journal.js';
import { andThen, busy, findItem, forget, patchItem, readiness, setView, still, without } from './machine.js';
import type { Effect, MachineEvent, Step, TransitionContext, UploadMachine } from './machine.js';
import {
  finishRound,
  roundWaits,
  runByItself,
  startRound,
  stepRound,
  uploaded,
  uploadFailed,
} from './round.js';
import { canChangeFile, canRetryNow } from './upload-state.js';
import type { QueuedFile } from './upload-state.js';

/** A new queue entry: a photo is converted first when the toggle is on (its PDF is what counts). */
function newEntry(
  machine: UploadMachine,
  id: string,
  file: FileLike,
  keptByHost: boolean,
  context: TransitionContext,
): QueuedFile {
  const toConvert = machine.view.convertToPdf && isPhotoFile(file);
  return {
    id,
    file,
    original: file,
    progress: toConvert
      ? { status: 'converting' }
      : context.journal && !keptByHost
        ? { status: 'saving' }
        : readiness(file, context),
    rotate: toConvert ? 0 : null,
    warnings: [],
    saved: keptByHost,
    ...(keptByHost ? { keptByHost } : {}),
  };
}

/** Asks for the conversion of an entry's photo at its current turn; a newer one makes older ones void. */
function convertLater(machine: UploadMachine, item: QueuedFile): Step {
  const ticket = (machine.tickets[item.id] ?? 0) + 1;
  return {
    machine: { ...machine, tickets: { ...machine.tickets, [item.id]: ticket } },
    effects: [
      {
        type: 'convert',
        id: item.id,
        ticket,
        original: item.original,
        rotate: item.rotate ?? 0,
        ...(item.crop ? { crop: item.crop } : {}),
      },
    ],
  };
}

/** What a new or replaced entry needs: its quality check (photos), then its conversion or its keeping. */
function prepare(machine: UploadMachine, item: QueuedFile): Step {
  const checks: Effect[] = isPhotoFile(item.original)
    ? [{ type: 'inspect', id: item.id, original: item.original }]
    : [];
  const { status } = item.progress;
  if (status === 'converting') return andThen({ machine, effects: checks }, (m) => convertLater(m, item));
  if (status === 'saving')
    return {
      machine,
      effects: [...checks, { type: 'prepare', id: item.id, file: item.file, notice: item.notice }],
    };
  return { machine, effects: checks };
}

function add(
  machine: UploadMachine,
  files: readonly { id: string; file: FileLike }[],
  keptByHost: boolean,
  context: TransitionContext,
): Step {
  const added = files.map(({ id, file }) => newEntry(machine, id, file, keptByHost, context));
  let step = still(setView(machine, { queue: [...machine.view.queue, ...added] }));
  for (const item of added) step = andThen(step, (m) => prepare(m, item));
  return step;
}

/**
 * Kept files queued again as they were kept: the file itself, or a photo kept with the person's
 * choice (a turn, corners) whose PDF was still being made, made again with that choice.
 */
function restore(machine: UploadMachine, kept: readonly KeptFile[], context: TransitionContext): Step {
  const present = new Set(machine.view.queue.map((item) => item.id));
  const restored = kept
    .filter(({ entry }) => !present.has(entry.id))
    .map(({ entry, file }): QueuedFile => {
      const choice = entry.convert;
      return {
        id: entry.id,
        file,
        original: file,
        progress: choice ? { status: 'converting' } : readiness(file, context),
        rotate: choice ? choice.rotate : null,
        ...(choice?.crop ? { crop: choice.crop } : {}),
        warnings: [],
        saved: true,
      };
    });
  let step = still(setView(machine, { queue: [...machine.view.queue, ...restored] }));
  for (const item of restored)
    if (item.progress.status === 'converting') step = andThen(step, (m) => convertLater(m, item));
  return step;
}

/**
 * Settles a file that is ready to send: kept on the device first when there is a journal (it shows
 * as queued only then), so a reload cannot lose it.
 */
function settle(
  machine: UploadMachine,
  id: string,
  file: FileLike,
  notice: string | undefined,
  context: TransitionContext,
): Step {
  const ready = readiness(file, context);
  const byHost = findItem(machine, id)?.keptByHost === true;
  if (!context.journal || byHost || ready.status !== 'queued') {
    return still(patchItem(machine, id, { progress: ready, file, notice, saved: byHost }));
  }
  return {
    machine: patchItem(machine, id, { progress: { status: 'saving' }, file, notice, saved: false }),
    effects: [{ type: 'save', id, file, notice }],
  };
}

/** The journal has the file, or could not keep it: queued either way (with a note when not kept), rather than lost. */
function saved(machine: UploadMachine, event: Extract<MachineEvent, { type: 'saved' }>): Step {
  const item = findItem(machine, event.id);
  if (!item) return forget(machine, event.id); // removed while it was being kept
  if (event.ticket !== undefined) {
    // The photo kept with the person's choice: kept, as long as that choice is still being made.
    const current = isCurrentConversion(machine, event.id, event.ticket, event.file);
    return still(
      current && item.progress.status === 'converting'
        ? patchItem(machine, event.id, { saved: event.saved })
        : machine,
    );
  }
  // Turned or replaced while it was being kept: the newer version settles itself.
  if (item.file !== event.file || item.progress.status !== 'saving') return still(machine);
  const notice = event.saved ? event.notice : (event.notice ?? messages.notKeptOnDevice);
  return still(patchItem(machine, event.id, { progress: { status: 'queued' }, saved: event.saved, notice }));
}

/** Whether the conversion with this ticket is still the one wanted (not removed, replaced or turned again since). */
export function isCurrentConversion(
  machine: UploadMachine,
  id: string,
  ticket: number,
  original: FileLike,
): boolean {
  return machine.tickets[id] === ticket && findItem(machine, id)?.original === original;
}

function converted(
  machine: UploadMachine,
  event: Extract<MachineEvent, { type: 'converted' }>,
  context: TransitionContext,
): Step {
  const counted = { ...machine, converting: machine.converting - 1 };
  if (!isCurrentConversion(counted, event.id, event.ticket, event.original)) return still(counted);
  // The converter gives a file back unchanged when it cannot convert it; for HEIC the person is told.
  const asIs = event.file === event.original && isHeicFile(event.original);
  return settle(counted, event.id, event.file, asIs ? messages.heicUploadedAsIs : undefined, context);
}

/** Whether a file may be changed now: not while it is sent, nor while the queue is being sent. */
const changeable = (machine: UploadMachine, item: QueuedFile | undefined): item is QueuedFile =>
  item !== undefined && canChangeFile(machine.view.status, item.progress);

/**
 * A photo's PDF made again with the person's new choice. With a journal the photo is kept with that
 * choice at once (the PDF kept so far was made with the old one), so a reload or a closed tab before
 * the new PDF is kept makes it again with the choice instead of sending the old one; until then the
 * file does not count as kept.
 */
function convertAgain(
  machine: UploadMachine,
  item: QueuedFile,
  rotate: QuarterTurn,
  crop: PageCrop | undefined,
  context: TransitionContext,
): Step {
  const changed: QueuedFile = {
    ...item,
    rotate,
    ...(crop ? { crop } : {}),
    progress: { status: 'converting' },
  };
  const step = convertLater(patchItem(machine, item.id, changed), changed);
  if (!context.journal || item.keptByHost) return step;
  const convert: KeptChoice = { rotate, ...(crop ? { crop } : {}) };
  return {
    machine: patchItem(step.machine, item.id, { saved: false }),
    effects: [
      ...step.effects,
      {
        type: 'save',
        id: item.id,
        file: item.original,
        notice: item.notice,
        convert,
        ticket: step.machine.tickets[item.id],
      },
    ],
  };
}

function rotate(machine: UploadMachine, id: string, by: 90 | -90, context: TransitionContext): Step {
  const item = findItem(machine, id);
  if (!changeable(machine, item) || item.rotate === null) return still(machine);
  return convertAgain(machine, item, turnBy(item.rotate, by), item.crop, context);
}

/** `Adjust corners`: the photo's page is made again from the part the person chose. */
function crop(machine: UploadMachine, id: string, chosen: PageCrop, context: TransitionContext): Step {
  const item = findItem(machine, id);
  if (!changeable(machine, item) || item.rotate === null) return still(machine);
  return convertAgain(machine, item, item.rotate, chosen, context);
}

/** Retake: `file` (already named after what it replaces) takes the entry's place, checked and converted afresh. */
function replace(machine: UploadMachine, id: string, file: FileLike, context: TransitionContext): Step {
  const item = findItem(machine, id);
  if (!changeable(machine, item)) return still(machine);
  // The retake is a new file: the host (a scan's folder) does not keep it, the journal does.
  const replaced = newEntry(machine, id, file, false, context);
  const next = patchItem({ ...machine, attempts: without(machine.attempts, id) }, id, {
    ...replaced,
    notice: undefined,
    keptByHost: false,
  });
  return prepare(next, replaced);
}

function remove(machine: UploadMachine, id: string): Step {
  const item = findItem(machine, id);
  if (!item || item.progress.status === 'uploading') return still(machine);
  const removed = setView(
    { ...machine, tickets: without(machine.tickets, id) },
    { queue: machine.view.queue.filter((q) => q.id !== id) },
  );
  return forget(removed, id);
}

function upload(machine: UploadMachine, context: TransitionContext): Step {
  // Asked while an automatic round runs (Resume, say): a full round follows it.
  if (machine.round && busy(machine))
    return still({ ...machine, again: machine.again || machine.round.mode.kind !== 'manual' });
  return machine.view.queue.length ? startRound(machine, { kind: 'manual' }, context) : still(machine);
}

function retry(machine: UploadMachine, id: string, context: TransitionContext): Step {
  const item = findItem(machine, id);
  return !busy(machine) && item && canRetryNow(item.progress)
    ? startRound(machine, { kind: 'only', id }, context)
    : still(machine);
}

function inspected(machine: UploadMachine, event: Extract<MachineEvent, { type: 'inspected' }>): Step {
  const current = findItem(machine, event.id)?.original === event.original;
  return current && event.warnings.length
    ? still(patchItem(machine, event.id, { warnings: event.warnings }))
    : still(machine);
}

function progress(
  machine: UploadMachine,
  { id, loaded, total }: Extract<MachineEvent, { type: 'progress' }>,
): Step {
  if (findItem(machine, id)?.progress.status !== 'uploading') return still(machine);
  return still(patchItem(machine, id, { progress: { status: 'uploading', loaded, total } }));
}

/** Back online: every waiting file goes now, whatever pause it was in. */
function online(machine: UploadMachine, context: TransitionContext): Step {
  const attempts = Object.fromEntries(
    Object.entries(machine.attempts).filter(([id]) => findItem(machine, id)?.progress.status !== 'waiting'),
  );
  return runByItself({ ...machine, attempts }, context);
}

const conversionStarted = (machine: UploadMachine): Step =>
  still({
    ...setView(machine, machine.view.status === 'idle' ? { status: 'converting' } : {}),
    converting: machine.converting + 1,
  });

const conversionSettled = (machine: UploadMachine): Step =>
  still(
    machine.converting === 0 && machine.view.status === 'converting'
      ? setView(machine, { status: 'idle' })
      : machine,
  );

function handle(machine: UploadMachine, event: MachineEvent, context: TransitionContext): Step {
  switch (event.type) {
    // What the person does.
    case 'add':
      return add(machine, event.files, event.keptByHost, context);
    case 'remove':
      return remove(machine, event.id);
    case 'setConvertToPdf':
      return {
        machine: setView(machine, { convertToPdf: event.enabled }),
        effects: [{ type: 'writePreference', enabled: event.enabled }],
      };
    case 'upload':
      return upload(machine, context);
    case 'retry':
      return retry(machine, event.id, context);
    case 'rotate':
      return rotate(machine, event.id, event.by, context);
    case 'crop':
      return crop(machine, event.id, event.crop, context);
    case 'keep':
      return still(findItem(machine, event.id) ? patchItem(machine, event.id, { warnings: [] }) : machine);
    case 'replace':
      return replace(machine, event.id, event.file, context);
    case 'restore':
      return restore(machine, event.files, context);
    // What the effects report back.
    case 'inspected':
      return inspected(machine, event);
    case 'conversionStarted':
      return conversionStarted(machine);
    case 'converted':
      return converted(machine, event, context);
    case 'conversionSettled':
      return conversionSettled(machine);
    case 'prepared':
      return findItem(machine, event.id)?.file === event.file
        ? settle(machine, event.id, event.file, event.notice, context)
        : still(machine);
    case 'saved':
      return saved(machine, event);
    case 'progress':
      return progress(machine, event);
    case 'uploaded':
      return uploaded(machine, event.id, context);
    case 'uploadFailed':
      return uploadFailed(machine, event.id, event.error, context);
    case 'endRound':
      return stepRound(machine, context, true);
    case 'refreshed':
      return finishRound(machine, context);
    case 'uploadAgain':
      return startRound(machine, { kind: 'manual' }, context);
    case 'tick':
      return runByItself(machine, context);
    case 'online':
      return online(machine, context);
  }
}

/**
 * The next machine and the effects to perform. A round waiting for a file being made ready looks
 * again after every change of the queue.
 */
export function transition(machine: UploadMachine, event: MachineEvent, context: TransitionContext): Step {
  const step = handle(machine, event, context);
  if (step.machine.view === machine.view || !roundWaits(step.machine)) return step;
  return andThen(step, (m) => stepRound(m, context));
}
