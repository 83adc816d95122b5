/**
 * Sending the queue (docs/behaviour.md#upload-queue, docs/behaviour.md#automatic-retries): a round
 * sends files one by one — Upload's every queued, waiting and retryable one, including files added
 * meanwhile; Retry's one; an automatic round those due — then drops the stored ones, reloads the list
 * and sets the timer of the next automatic round. Pure: effects are returned, not performed.
 */
import { errorMessage, isApiError } from '../../api/errors.js';
import { andThen, busy, findItem, forget, patchItem, setView, still } from './machine.js';
import type { Round, RoundMode, Step, TransitionContext, UploadMachine } from './machine.js';
import type { FailedProgress, FileProgress, QueuedFile } from './upload-state.js';

/** Files an automatic round sends: those whose pause is over, and the waiting ones while online. */
function dueByItself(item: QueuedFile, now: number, online: boolean): boolean {
  const { progress } = item;
  if (progress.status === 'waiting') return online;
  return progress.status === 'failed' && progress.retryAt !== undefined && progress.retryAt <= now;
}

function wanted(round: Round, item: QueuedFile, context: TransitionContext): boolean {
  const { mode } = round;
  if (mode.kind === 'only') return item.id === mode.id;
  if (mode.kind === 'auto') return dueByItself(item, round.startedAt, context.online);
  const { progress } = item;
  return (
    progress.status === 'queued' ||
    progress.status === 'waiting' ||
    (progress.status === 'failed' && progress.retryable)
  );
}

/** Still being converted or kept: Upload sends it once it is ready, in its turn. */
const preparingNow = (round: Round, item: QueuedFile) =>
  round.mode.kind === 'manual' &&
  (item.progress.status === 'converting' || item.progress.status === 'saving');

const withRound = (machine: UploadMachine, round: Round): UploadMachine => ({ ...machine, round });

export function startRound(machine: UploadMachine, mode: RoundMode, context: TransitionContext): Step {
  const id = machine.rounds + 1;
  const round: Round = {
    id,
    mode,
    startedAt: context.now,
    attempted: [],
    failures: [],
    uploaded: 0,
    phase: 'waiting',
  };
  const started = setView({ ...machine, rounds: id, round }, { status: 'uploading', lastUploaded: 0 });
  return andThen(
    {
      machine: started,
      effects: [
        { type: 'roundStarted', round: id },
        { type: 'timer', delay: null },
      ],
    },
    (m) => stepRound(m, context),
  );
}

/** Whether the round under way waits for a file being made ready (so any change may let it go on). */
export const roundWaits = (machine: UploadMachine): boolean => machine.round?.phase === 'waiting';

/**
 * Sends the next file the round wants; waits when it is still being made ready. When there is none
 * the round ends — at once when `ending` (the `endRound` event), else by an `endRound` effect, so the
 * last file's outcome (`done`, `failed`) is seen before the stored files leave the queue.
 */
export function stepRound(machine: UploadMachine, context: TransitionContext, ending = false): Step {
  const { round } = machine;
  if (round?.phase !== (ending ? 'ending' : 'waiting')) return still(machine);
  const next = machine.view.queue.find(
    (item) =>
      !round.attempted.includes(item.id) && (wanted(round, item, context) || preparingNow(round, item)),
  );
  if (!next && ending) return endRound(machine, context);
  if (!next)
    return { machine: withRound(machine, { ...round, phase: 'ending' }), effects: [{ type: 'endRound' }] };
  // The files before it are sent while it is made ready: keeping a file overlaps the uploads.
  if (preparingNow(round, next)) return still(withRound(machine, { ...round, phase: 'waiting' }));
  const sending = withRound(machine, {
    ...round,
    attempted: [...round.attempted, next.id],
    phase: 'sending',
  });
  return {
    machine: patchItem(sending, next.id, {
      progress: { status: 'uploading', loaded: 0, total: next.file.size },
    }),
    effects: [{ type: 'upload', id: next.id, file: next.file }],
  };
}

export function uploaded(machine: UploadMachine, id: string, context: TransitionContext): Step {
  const { round } = machine;
  if (!round) return still(machine);
  const done = withRound(patchItem(machine, id, { progress: { status: 'done' } }), {
    ...round,
    uploaded: round.uploaded + 1,
    phase: 'waiting',
  });
  return andThen(forget(done, id), (m) => stepRound(m, context));
}

/** What an upload that threw leaves on its file: waiting for the network, or failed (maybe to go again later). */
function afterFailure(machine: UploadMachine, id: string, error: unknown, context: TransitionContext) {
  const decision = context.retry.shouldRetry(error);
  if (decision === 'wait') return { machine, progress: { status: 'waiting' } satisfies FileProgress };
  const failed: FailedProgress = {
    status: 'failed',
    error: errorMessage(error),
    retryable: decision !== 'never',
    kind: isApiError(error) ? error.kind : 'other',
    httpStatus: isApiError(error) ? error.status : 0,
    code: isApiError(error) ? error.code : null,
  };
  if (!context.timed || decision !== 'auto') return { machine, progress: failed };
  const done = machine.attempts[id] ?? 0;
  const progress: FailedProgress = { ...failed, retryAt: context.now + context.retry.delayMs(done) };
  return { machine: { ...machine, attempts: { ...machine.attempts, [id]: done + 1 } }, progress };
}

export function uploadFailed(
  machine: UploadMachine,
  id: string,
  error: unknown,
  context: TransitionContext,
): Step {
  const { round } = machine;
  if (!round) return still(machine);
  const name = findItem(machine, id)?.file.name ?? '';
  const { machine: counted, progress } = afterFailure(machine, id, error, context);
  let next = patchItem(counted, id, { progress });
  let attempted = round.attempted;
  // No network: the files after it would find none either; they wait for it too.
  if (progress.status === 'waiting') {
    for (const item of next.view.queue) {
      if (!attempted.includes(item.id) && wanted(round, item, context) && item.progress.status !== 'failed') {
        attempted = [...attempted, item.id];
        next = patchItem(next, item.id, { progress: { status: 'waiting' } });
      }
    }
  }
  // Failures of a round the person started are shown in one alert; automatic rounds show them on the files only.
  const failures =
    progress.status === 'failed' && round.mode.kind !== 'auto'
      ? [...round.failures, { name, error: progress.error }]
      : round.failures;
  return stepRound(withRound(next, { ...round, attempted, failures, phase: 'waiting' }), context);
}

/** Every file tried: the stored ones leave the queue, and the list reloads when any was stored. */
function endRound(machine: UploadMachine, context: TransitionContext): Step {
  const { round } = machine;
  if (!round) return still(machine);
  const queue = machine.view.queue.filter((item) => item.progress.status !== 'done');
  const ended = setView(machine, { queue });
  if (round.uploaded === 0) return finishRound(ended, context);
  return {
    machine: withRound(setView(ended, { status: 'refreshing' }), { ...round, phase: 'refreshing' }),
    effects: [{ type: 'refresh' }],
  };
}

/** The failures of a round in one alert: the error alone, or a line per file. */
function failureAlert(failures: Round['failures']): string | null {
  const [single, ...others] = failures;
  if (!single) return null;
  return others.length ? failures.map((f) => `${f.name}: ${f.error}`).join('\n') : single.error;
}

/** The round is over: Upload asked meanwhile starts a full round, else the next automatic one is timed. */
export function finishRound(machine: UploadMachine, context: TransitionContext): Step {
  const { round } = machine;
  if (!round) return still(machine);
  const finished: UploadMachine = {
    ...setView(machine, {
      status: machine.converting > 0 ? 'converting' : 'idle',
      lastUploaded: round.uploaded,
    }),
    round: null,
    again: false,
  };
  const ended = { type: 'roundEnded', round: round.id, alert: failureAlert(round.failures) } as const;
  if (machine.again) return { machine: finished, effects: [{ type: 'uploadAgain' }, ended] };
  const scheduled = schedule(finished, context);
  return { machine: scheduled.machine, effects: [...scheduled.effects, ended] };
}

/**
 * Sets the one timer of the next automatic round: when the first failed file's pause ends, or — for
 * files waiting for the network while the device says it is online (a server out of reach) — after
 * the next pause of the retry schedule.
 */
function schedule(machine: UploadMachine, context: TransitionContext): Step {
  if (!context.timed) return { machine, effects: [{ type: 'timer', delay: null }] };
  const { now } = context;
  let at = Infinity;
  let attempts = machine.attempts;
  for (const { id, progress } of machine.view.queue) {
    if (progress.status === 'failed' && progress.retryAt !== undefined) at = Math.min(at, progress.retryAt);
    if (progress.status === 'waiting' && context.online) {
      const done = attempts[id] ?? 0;
      attempts = { ...attempts, [id]: done + 1 };
      at = Math.min(at, now + context.retry.delayMs(done + 1));
    }
  }
  return {
    machine: { ...machine, attempts },
    effects: [{ type: 'timer', delay: at === Infinity ? null : Math.max(0, at - now) }],
  };
}

/** The timer fired (or the network is back): the files due go now, unless a round runs (it times the next one). */
export function runByItself(machine: UploadMachine, context: TransitionContext): Step {
  if (busy(machine)) return still(machine);
  const due = machine.view.queue.some((item) => dueByItself(item, context.now, context.online));
  return due ? startRound(machine, { kind: 'auto' }, context) : schedule(machine, context);
}
