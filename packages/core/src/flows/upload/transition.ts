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
import { isQualityFault } from '../../quality/warnings.js';
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

/** Whether the photo's quality check found something the person has to answer (Keep anyway or Retake). */
const unanswered = (item: QueuedFile): boolean => item.warnings.some(isQualityFault);

/**
 * The keeping of a file as it stands; none without a journal, or for a file its host keeps. A photo
 * whose PDF is still being made, or whose warnings await the person's answer, is kept as the photo
 * itself with its choice, so a reload makes the PDF again and offers the same choices (turn, corners,
 * Retake); anything else as what is sent. `settles`: the file queued once this keeping is done.
 */
function keeping(
  machine: UploadMachine,
  item: QueuedFile,
  context: TransitionContext,
  settles?: FileLike,
): Effect[] {
  if (!context.journal || item.keptByHost) return [];
  const found = machine.checks[item.id]
    ? { checkPending: true as const }
    : unanswered(item)
      ? { warnings: item.warnings }
      : {};
  const base = { type: 'save' as const, id: item.id, notice: item.notice };
  const converting = item.progress.status === 'converting';
  if (item.rotate === null || !(converting || unanswered(item)))
    return [{ ...base, file: item.file, ...found }];
  const convert: KeptChoice = { rotate: item.rotate, ...(item.crop ? { crop: item.crop } : {}) };
  const ticket = converting ? machine.tickets[item.id] : undefined;
  const after = ticket === undefined ? (settles ? { settles } : {}) : { ticket };
  return [{ ...base, file: item.original, convert, ...after, ...found }];
}

/**
 * What a new or replaced entry needs: its quality check (photos), then its conversion or its keeping.
 * A photo to convert is kept at once as it is, so a reload before its PDF is made loses nothing.
 */
function prepare(machine: UploadMachine, item: QueuedFile, context: TransitionContext): Step {
  const photo = isPhotoFile(item.original);
  const checked: UploadMachine = {
    ...machine,
    checks: photo ? { ...machine.checks, [item.id]: 'running' } : without(machine.checks, item.id),
  };
  const checks: Effect[] = photo ? [{ type: 'inspect', id: item.id, original: item.original }] : [];
  const { status } = item.progress;
  if (status === 'converting') {
    const step = andThen({ machine: checked, effects: checks }, (m) => convertLater(m, item));
    return { machine: step.machine, effects: [...step.effects, ...keeping(step.machine, item, context)] };
  }
  if (status === 'saving')
    return {
      machine: checked,
      effects: [...checks, { type: 'prepare', id: item.id, file: item.file, notice: item.notice }],
    };
  return { machine: checked, effects: checks };
}

function add(
  machine: UploadMachine,
  files: readonly { id: string; file: FileLike }[],
  keptByHost: boolean,
  context: TransitionContext,
): Step {
  const added = files.map(({ id, file }) => newEntry(machine, id, file, keptByHost, context));
  let step = still(setView(machine, { queue: [...machine.view.queue, ...added] }));
  for (const item of added) step = andThen(step, (m) => prepare(m, item, context));
  return step;
}

/**
 * Kept files queued again as they were kept: the file itself, or a photo kept with the person's
 * choice (a turn, corners) whose PDF was still being made or whose warnings were unanswered, made
 * again with that choice; with the warnings kept, and checked again when the check had not answered.
 */
function restore(machine: UploadMachine, kept: readonly KeptFile[], context: TransitionContext): Step {
  const present = new Set(machine.view.queue.map((item) => item.id));
  const restored = kept
    .filter(({ entry }) => !present.has(entry.id))
    .map(({ entry, file }) => {
      const choice = entry.convert;
      const item: QueuedFile = {
        id: entry.id,
        file,
        original: file,
        progress: choice ? { status: 'converting' } : readiness(file, context),
        rotate: choice ? choice.rotate : null,
        ...(choice?.crop ? { crop: choice.crop } : {}),
        warnings: entry.warnings ?? [],
        saved: true,
      };
      return { item, recheck: entry.checkPending === true && isPhotoFile(file) };
    });
  let step = still(setView(machine, { queue: [...machine.view.queue, ...restored.map(({ item }) => item)] }));
  for (const { item, recheck } of restored) {
    if (recheck)
      step = andThen(step, (m) => ({
        machine: { ...m, checks: { ...m.checks, [item.id]: 'running' } },
        effects: [{ type: 'inspect', id: item.id, original: item.original }],
      }));
    if (item.progress.status === 'converting') step = andThen(step, (m) => convertLater(m, item));
  }
  return step;
}

/**
 * Settles a file that is ready to send: kept on the device first when there is a journal (it shows
 * as queued only then), so a reload cannot lose it. While its quality check has not answered it is
 * kept once it has, so what is kept carries the warnings to answer.
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
  // A photo already kept with this choice stays kept meanwhile: a reload would make its PDF again.
  const kept = findItem(machine, id)?.saved === true;
  const saving = patchItem(machine, id, { progress: { status: 'saving' }, file, notice, saved: kept });
  if (machine.checks[id]) return still({ ...saving, checks: { ...machine.checks, [id]: 'holding' } });
  const item = findItem(saving, id);
  return { machine: saving, effects: item ? keeping(saving, item, context, file) : [] };
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
  if (item.file !== (event.settles ?? event.file) || item.progress.status !== 'saving') return still(machine);
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
  const kept = keeping(step.machine, changed, context);
  if (!kept.length) return step;
  return { machine: patchItem(step.machine, item.id, { saved: false }), effects: [...step.effects, ...kept] };
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
  return prepare(next, replaced, context);
}

function remove(machine: UploadMachine, id: string): Step {
  const item = findItem(machine, id);
  if (!item || item.progress.status === 'uploading') return still(machine);
  const removed = setView(
    { ...machine, tickets: without(machine.tickets, id), checks: without(machine.checks, id) },
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

/** The check answered: its warnings show, and a file held for it is kept now, with them. */
function inspected(
  machine: UploadMachine,
  event: Extract<MachineEvent, { type: 'inspected' }>,
  context: TransitionContext,
): Step {
  if (findItem(machine, event.id)?.original !== event.original) return still(machine);
  const held = machine.checks[event.id] === 'holding';
  let next: UploadMachine = { ...machine, checks: without(machine.checks, event.id) };
  if (event.warnings.length) next = patchItem(next, event.id, { warnings: event.warnings });
  const item = findItem(next, event.id);
  if (!held || item?.progress.status !== 'saving') return still(next);
  return { machine: next, effects: keeping(next, item, context, item.file) };
}

/**
 * Keep anyway: the warnings go, and what is kept no longer carries them (a photo kept in place of
 * its PDF for its answer is now kept as its PDF), so a reload does not ask again.
 */
function keep(machine: UploadMachine, id: string, context: TransitionContext): Step {
  const item = findItem(machine, id);
  if (!item) return still(machine);
  const kept = patchItem(machine, id, { warnings: [] });
  const { status } = item.progress;
  if (!unanswered(item) || status === 'uploading' || status === 'done') return still(kept);
  const now = findItem(kept, id);
  return { machine: kept, effects: now ? keeping(kept, now, context) : [] };
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
      return keep(machine, event.id, context);
    case 'replace':
      return replace(machine, event.id, event.file, context);
    case 'restore':
      return restore(machine, event.files, context);
    // What the effects report back.
    case 'inspected':
      return inspected(machine, event, context);
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
