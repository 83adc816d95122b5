/**
 * The upload queue as plain data: what the screens see (`view`) and what the rules keep besides
 * (conversion tickets, retry counts, the round under way), the events that change it, and the effects
 * a change asks for. `transition.ts` holds the rules; `runner.ts` performs the effects.
 */
import { refusalBeforeUpload } from '../../domain/files.js';
import type { PageCrop } from '../../straighten/page.js';
import type { QuarterTurn } from '../../pdf/raster.js';
import type { FileLike } from '../../ports.js';
import type { QualityWarning } from '../../quality/assess.js';
import type { RetryPolicy } from './retry-policy.js';
import type { KeptChoice } from './journal.js';
import type { FileProgress, QueuedFile, UploadEvent, UploadState } from './upload-state.js';

/** Which files a round sends: Upload's (every queued one, added meanwhile too), Retry's one, or those due by themselves. */
export type RoundMode = { kind: 'manual' } | { kind: 'only'; id: string } | { kind: 'auto' };

/** One pass over the queue that sends files one by one. */
export interface Round {
  id: number;
  mode: RoundMode;
  /** When it started: an automatic round sends the files due by then. */
  startedAt: number;
  /** Files this round sent or gave up on: it never takes one twice. */
  attempted: readonly string[];
  /** What failed, for the one alert of a round the person started. */
  failures: readonly { name: string; error: string }[];
  uploaded: number;
  /**
   * `sending` a file; `waiting` for one being made ready; `ending`: every file tried, the last one's
   * outcome shown, the `endRound` event to come; `refreshing` the file list.
   */
  phase: 'sending' | 'waiting' | 'ending' | 'refreshing';
}

export interface UploadMachine {
  view: UploadState;
  /** Per queued file, the latest conversion asked for: an older one finishing late is dropped. */
  tickets: Readonly<Record<string, number>>;
  /** Automatic retries so far, per file: they set the next pause. */
  attempts: Readonly<Record<string, number>>;
  /** Conversions under way. */
  converting: number;
  round: Round | null;
  /** Rounds started so far (the next one's id). */
  rounds: number;
  /** Upload was asked while an automatic round ran: a full round follows it. */
  again: boolean;
  /**
   * Quality checks under way, per file: `holding` when the file was made ready meanwhile and waits
   * for the check before it is kept, so what is kept says what the check found.
   */
  checks: Readonly<Record<string, 'running' | 'holding'>>;
}

/** What the rules need to know of the world at the moment of an event. */
export interface TransitionContext {
  now: number;
  /** What the device says of its network. */
  online: boolean;
  /** The server's upload limit (0 while unknown). */
  maxUploadBytes: number;
  /** A journal keeps each queued file on the device. */
  journal: boolean;
  /** A clock times the automatic retries (without one, files go again only when online again or on Retry). */
  timed: boolean;
  retry: RetryPolicy;
}

/**
 * The person's events (new files already named and given ids; a retake already named after what it
 * replaces) and what the effects report back.
 */
export type MachineEvent =
  | { type: 'add'; files: readonly { id: string; file: FileLike }[]; keptByHost: boolean }
  | Exclude<UploadEvent, { type: 'add' }>
  | { type: 'inspected'; id: string; original: FileLike; warnings: readonly QualityWarning[] }
  | { type: 'conversionStarted' }
  | { type: 'converted'; id: string; ticket: number; original: FileLike; file: FileLike }
  | { type: 'conversionSettled' }
  /** A file that needed no conversion has its turn to be kept. */
  | { type: 'prepared'; id: string; file: FileLike; notice: string | undefined }
  /**
   * `ticket`: the save kept the photo with the person's choice for the conversion of that ticket.
   * `settles`: the file that is queued once this save is done (the file kept, unless the photo was
   * kept in place of its PDF).
   */
  | {
      type: 'saved';
      id: string;
      file: FileLike;
      notice: string | undefined;
      saved: boolean;
      ticket?: number;
      settles?: FileLike;
    }
  | { type: 'progress'; id: string; loaded: number; total: number }
  | { type: 'uploaded'; id: string }
  | { type: 'uploadFailed'; id: string; error: unknown }
  /** Every file of the round has been tried. */
  | { type: 'endRound' }
  | { type: 'refreshed' }
  | { type: 'uploadAgain' }
  /** The retry timer fired. */
  | { type: 'tick' }
  | { type: 'online' };

/** What a transition asks the runner to do. */
export type Effect =
  /** Check a photo's quality (beside everything else). */
  | { type: 'inspect'; id: string; original: FileLike }
  /** Convert the photo in turn (one conversion at a time); report `conversionStarted`, `converted`, `conversionSettled`. */
  | { type: 'convert'; id: string; ticket: number; original: FileLike; rotate: QuarterTurn; crop?: PageCrop }
  /** In turn with the conversions, report `prepared`. */
  | { type: 'prepare'; id: string; file: FileLike; notice: string | undefined }
  /**
   * Keep the file in the journal (after any earlier keeping of the same file); report `saved`. With
   * `convert`: the file is the photo, kept with the choice its PDF is made with (the choice of the
   * conversion `ticket`, when one is under way; `settles` the PDF already made, when one is). With
   * `warnings` the photo's unanswered warnings; with `checkPending` its check had not answered yet.
   */
  | {
      type: 'save';
      id: string;
      file: FileLike;
      notice: string | undefined;
      convert?: KeptChoice;
      ticket?: number;
      settles?: FileLike;
      warnings?: readonly QualityWarning[];
      checkPending?: true;
    }
  /** The journal forgets the file (uploaded or removed). */
  | { type: 'forget'; id: string }
  /** Send the file; report `progress`, then `uploaded` or `uploadFailed`. */
  | { type: 'upload'; id: string; file: FileLike }
  /** Report `endRound` (after the last file's outcome is shown). */
  | { type: 'endRound' }
  /** Reload the file list; report `refreshed`. */
  | { type: 'refresh' }
  | { type: 'roundStarted'; round: number }
  /** Alert what failed (if anything); the round's Upload or Retry is then fully handled. */
  | { type: 'roundEnded'; round: number; alert: string | null }
  /** Report `uploadAgain`. */
  | { type: 'uploadAgain' }
  /** Set the one retry timer to fire after `delay` ms (none when null); report `tick`. */
  | { type: 'timer'; delay: number | null }
  | { type: 'writePreference'; enabled: boolean };

/** A transition's result. */
export interface Step {
  machine: UploadMachine;
  effects: readonly Effect[];
}

/** The machine of a new, empty queue. */
export function initialMachine(convertToPdf: boolean): UploadMachine {
  return {
    view: { status: 'idle', queue: [], convertToPdf, lastUploaded: 0 },
    tickets: {},
    attempts: {},
    converting: 0,
    round: null,
    rounds: 0,
    again: false,
    checks: {},
  };
}

export const still = (machine: UploadMachine): Step => ({ machine, effects: [] });

/** `step`, followed by what `next` makes of its machine. */
export function andThen(step: Step, next: (machine: UploadMachine) => Step): Step {
  const after = next(step.machine);
  return { machine: after.machine, effects: [...step.effects, ...after.effects] };
}

export const findItem = (machine: UploadMachine, id: string): QueuedFile | undefined =>
  machine.view.queue.find((item) => item.id === id);

export function patchItem(machine: UploadMachine, id: string, patch: Partial<QueuedFile>): UploadMachine {
  const queue = machine.view.queue.map((item) => (item.id === id ? { ...item, ...patch } : item));
  return { ...machine, view: { ...machine.view, queue } };
}

export function setView(machine: UploadMachine, patch: Partial<UploadState>): UploadMachine {
  return { ...machine, view: { ...machine.view, ...patch } };
}

/** The record without `key`. */
export function without<T>(record: Readonly<Record<string, T>>, key: string): Readonly<Record<string, T>> {
  if (!(key in record)) return record;
  const { [key]: _, ...rest } = record;
  return rest;
}

/** A queue item changes no more: no retries counted for it, the journal forgets it. */
export function forget(machine: UploadMachine, id: string): Step {
  return {
    machine: { ...machine, attempts: without(machine.attempts, id) },
    effects: [{ type: 'forget', id }],
  };
}

/** Ready to send, or refused at once when over the server's limit (sending it could only fail). */
export function readiness(file: FileLike, context: Pick<TransitionContext, 'maxUploadBytes'>): FileProgress {
  const refusal = refusalBeforeUpload(file, context.maxUploadBytes);
  return refusal
    ? {
        status: 'failed',
        error: refusal,
        retryable: false,
        kind: 'other',
        httpStatus: 413,
        code: 'too_large',
      }
    : { status: 'queued' };
}

/** Whether the queue is being sent (nothing may change then). */
export const busy = (machine: UploadMachine): boolean =>
  machine.view.status === 'uploading' || machine.view.status === 'refreshing';
