// The upload queue's rules as plain data: each test feeds events (the person's and what the effects
// report) to the pure transition and reads the queue and the effects it asks for. No ports, no fakes.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { messages } from '../../domain/messages.js';
import type { FileLike } from '../../ports.js';
import { initialMachine } from './machine.js';
import type { Effect, MachineEvent, TransitionContext, UploadMachine } from './machine.js';
import { defaultRetryPolicy } from './retry-policy.js';
import { transition } from './transition.js';

const file = (
  name: string,
  type = name.endsWith('.pdf') ? 'application/pdf' : 'image/jpeg',
  size = 100,
): FileLike => ({
  name,
  type,
  size,
  arrayBuffer: async () => new ArrayBuffer(size),
});

const context = (overrides: Partial<TransitionContext> = {}): TransitionContext => ({
  now: 1_000_000,
  online: true,
  maxUploadBytes: 0,
  journal: false,
  timed: true,
  retry: defaultRetryPolicy,
  ...overrides,
});

/** Feeds the events in order; returns the last machine and every effect asked for on the way. */
function run(
  events: readonly MachineEvent[],
  options: { from?: UploadMachine; context?: Partial<TransitionContext> } = {},
) {
  let machine = options.from ?? initialMachine(true);
  const effects: Effect[] = [];
  for (const event of events) {
    const step = transition(machine, event, context(options.context));
    machine = step.machine;
    effects.push(...step.effects);
  }
  return { machine, effects, queue: machine.view.queue };
}

const types = (effects: readonly Effect[]) => effects.map((effect) => effect.type);
const statuses = (machine: UploadMachine) => machine.view.queue.map((item) => item.progress.status);
const photo = file('w2.jpg');
const pdf = file('scan.pdf');
const add = (...files: FileLike[]): MachineEvent => ({
  type: 'add',
  files: files.map((f, i) => ({ id: `f${i + 1}`, file: f })),
  keptByHost: false,
});

describe('queueing files', () => {
  it('queues a PDF as it is; a photo is checked and converted first because the toggle is on', () => {
    const { queue, effects } = run([add(photo, pdf)]);
    expect(queue.map((q) => [q.id, q.progress.status, q.rotate])).toEqual([
      ['f1', 'converting', 0],
      ['f2', 'queued', null],
    ]);
    expect(effects).toEqual([
      { type: 'inspect', id: 'f1', original: photo },
      { type: 'convert', id: 'f1', ticket: 1, original: photo, rotate: 0 },
    ]);
  });

  it('with the toggle off a photo is checked but not converted, and cannot be turned', () => {
    const { queue, effects } = run([{ type: 'setConvertToPdf', enabled: false }, add(photo)]);
    expect(queue.map((q) => [q.file.name, q.progress.status, q.rotate])).toEqual([
      ['w2.jpg', 'queued', null],
    ]);
    expect(effects).toEqual([
      { type: 'writePreference', enabled: false },
      { type: 'inspect', id: 'f1', original: photo },
    ]);
  });

  it('refuses a file over the server’s limit at once, for good', () => {
    const { queue } = run([add(file('big.pdf', 'application/pdf', 11))], { context: { maxUploadBytes: 10 } });
    expect(queue[0]?.progress).toEqual({
      status: 'failed',
      error: 'This file is larger than the 10 B limit.',
      retryable: false,
      kind: 'other',
      httpStatus: 413,
      code: 'too_large',
    });
  });

  it('puts the PDF in the photo’s place once converted; the converting status lasts while any conversion runs', () => {
    const made = file('w2.pdf');
    const { machine } = run([add(photo), { type: 'conversionStarted' }]);
    expect(machine.view.status).toBe('converting');
    const after = run(
      [
        { type: 'converted', id: 'f1', ticket: 1, original: photo, file: made },
        { type: 'conversionSettled' },
      ],
      { from: machine },
    );
    expect(after.queue.map((q) => [q.file, q.original, q.progress.status])).toEqual([
      [made, photo, 'queued'],
    ]);
    expect(after.machine.view.status).toBe('idle');
  });

  it('chosen corners convert the photo again from them, and a later turn keeps them', () => {
    const corners = [
      { x: 0.1, y: 0.1 },
      { x: 0.9, y: 0.1 },
      { x: 0.9, y: 0.9 },
      { x: 0.1, y: 0.9 },
    ] as const;
    const crop = { mode: 'corners', corners } as const;
    const { machine, effects } = run([add(photo), { type: 'crop', id: 'f1', crop }]);
    expect(effects.at(-1)).toEqual({
      type: 'convert',
      id: 'f1',
      ticket: 2,
      original: photo,
      rotate: 0,
      crop,
    });
    expect(machine.view.queue[0]?.crop).toEqual(crop);
    const turned = run([{ type: 'rotate', id: 'f1', by: 90 }], { from: machine });
    expect(turned.effects.at(-1)).toMatchObject({ type: 'convert', rotate: 90, crop });
  });

  it('a turn asked while the photo converts wins: the older conversion’s result is dropped', () => {
    const { machine, effects } = run([add(photo), { type: 'rotate', id: 'f1', by: 90 }]);
    expect(effects.at(-1)).toEqual({ type: 'convert', id: 'f1', ticket: 2, original: photo, rotate: 90 });
    const stale = run([{ type: 'converted', id: 'f1', ticket: 1, original: photo, file: file('w2-0.pdf') }], {
      from: machine,
    });
    expect(statuses(stale.machine)).toEqual(['converting']);
    const current = run(
      [{ type: 'converted', id: 'f1', ticket: 2, original: photo, file: file('w2-90.pdf') }],
      {
        from: stale.machine,
      },
    );
    expect(current.queue[0]).toMatchObject({
      file: { name: 'w2-90.pdf' },
      rotate: 90,
      progress: { status: 'queued' },
    });
  });

  it('says so when a HEIC photo comes back from the converter unchanged', () => {
    const heic = file('IMG_1.HEIC', 'image/heic');
    const { queue } = run([
      add(heic),
      { type: 'converted', id: 'f1', ticket: 1, original: heic, file: heic },
    ]);
    expect(queue[0]?.notice).toBe(messages.heicUploadedAsIs);
  });

  it('shows a photo’s quality warnings until Keep anyway, unless the photo was replaced meanwhile', () => {
    const { machine } = run([
      add(photo),
      { type: 'inspected', id: 'f1', original: photo, warnings: ['blurry'] },
    ]);
    expect(machine.view.queue[0]?.warnings).toEqual(['blurry']);
    expect(run([{ type: 'keep', id: 'f1' }], { from: machine }).queue[0]?.warnings).toEqual([]);
    const late = run([{ type: 'inspected', id: 'f1', original: file('other.jpg'), warnings: ['tooDark'] }], {
      from: machine,
    });
    expect(late.queue[0]?.warnings).toEqual(['blurry']);
  });
});

describe('keeping files on the device', () => {
  const journal = { journal: true };

  it('keeps a photo at once, then what its check found: unanswered warnings go with the photo', () => {
    const added = run([add(photo)], { context: journal });
    expect(added.effects.filter((effect) => effect.type === 'save')).toEqual([
      {
        type: 'save',
        id: 'f1',
        file: photo,
        notice: undefined,
        convert: { rotate: 0 },
        ticket: 1,
        checkPending: true,
      },
    ]);
    const made = file('w2.pdf');
    // Its PDF is made before the check answers: it is kept once the check has, with what it found.
    const converted = run(
      [
        { type: 'conversionStarted' },
        { type: 'converted', id: 'f1', ticket: 1, original: photo, file: made },
      ],
      { from: added.machine, context: journal },
    );
    expect(types(converted.effects)).not.toContain('save');
    const checked = run([{ type: 'inspected', id: 'f1', original: photo, warnings: ['tooDark'] }], {
      from: converted.machine,
      context: journal,
    });
    expect(checked.effects).toEqual([
      {
        type: 'save',
        id: 'f1',
        file: photo,
        notice: undefined,
        convert: { rotate: 0 },
        settles: made,
        warnings: ['tooDark'],
      },
    ]);
    const kept = run(
      [{ type: 'saved', id: 'f1', file: photo, notice: undefined, saved: true, settles: made }],
      { from: checked.machine, context: journal },
    );
    expect(kept.queue.map((q) => [q.progress.status, q.saved, q.warnings])).toEqual([
      ['queued', true, ['tooDark']],
    ]);
    // Keep anyway: its PDF is kept in its place, with nothing left to answer.
    const answered = run([{ type: 'keep', id: 'f1' }], { from: kept.machine, context: journal });
    expect(answered.effects).toEqual([{ type: 'save', id: 'f1', file: made, notice: undefined }]);
  });

  it('restores a kept photo waiting for an answer with its warnings; one kept before its check is checked again', () => {
    const target = { clientId: 'c1', docType: 'W-2' };
    const entry = { target, name: 'w2.jpg', type: 'image/jpeg', size: 100, convert: { rotate: 90 as const } };
    const other = file('other.jpg');
    const { queue, effects } = run(
      [
        {
          type: 'restore',
          files: [
            { entry: { ...entry, id: 'k1', warnings: ['glare'] }, file: photo, savedAt: 0 },
            { entry: { ...entry, id: 'k2', checkPending: true }, file: other, savedAt: 0 },
            {
              entry: { ...entry, id: 'k3', name: 'old.pdf', type: 'application/pdf', convert: undefined },
              file: pdf,
              savedAt: 0,
            },
          ],
        },
      ],
      { context: journal },
    );
    expect(queue.map((q) => [q.id, q.progress.status, q.rotate, q.warnings])).toEqual([
      ['k1', 'converting', 90, ['glare']],
      ['k2', 'converting', 90, []],
      ['k3', 'queued', null, []],
    ]);
    expect(effects.filter((effect) => effect.type === 'inspect')).toEqual([
      { type: 'inspect', id: 'k2', original: other },
    ]);
  });

  it('keeps a file before it counts as queued, in turn with the conversions', () => {
    const first = run([add(pdf)], { context: journal });
    expect(statuses(first.machine)).toEqual(['saving']);
    expect(first.effects).toEqual([{ type: 'prepare', id: 'f1', file: pdf, notice: undefined }]);
    const turn = run([{ type: 'prepared', id: 'f1', file: pdf, notice: undefined }], {
      from: first.machine,
      context: journal,
    });
    expect(turn.effects).toEqual([{ type: 'save', id: 'f1', file: pdf, notice: undefined }]);
    const kept = run([{ type: 'saved', id: 'f1', file: pdf, notice: undefined, saved: true }], {
      from: turn.machine,
    });
    expect(kept.queue.map((q) => [q.progress.status, q.saved])).toEqual([['queued', true]]);
  });

  it('queues a file the journal could not keep anyway, with a note saying so', () => {
    const { queue } = run(
      [
        add(pdf),
        { type: 'prepared', id: 'f1', file: pdf, notice: undefined },
        { type: 'saved', id: 'f1', file: pdf, notice: undefined, saved: false },
      ],
      { context: journal },
    );
    expect(queue[0]).toMatchObject({
      progress: { status: 'queued' },
      saved: false,
      notice: messages.notKeptOnDevice,
    });
  });

  it('a file removed while it was kept is forgotten by the journal', () => {
    const { queue, effects } = run(
      [
        add(pdf),
        { type: 'prepared', id: 'f1', file: pdf, notice: undefined },
        { type: 'remove', id: 'f1' },
        { type: 'saved', id: 'f1', file: pdf, notice: undefined, saved: true },
      ],
      { context: journal },
    );
    expect(queue).toEqual([]);
    expect(types(effects).filter((t) => t === 'forget')).toEqual(['forget', 'forget']);
  });

  it('does not keep what the host keeps itself (scans)', () => {
    const { queue, effects } = run([{ type: 'add', files: [{ id: 's1', file: pdf }], keptByHost: true }], {
      context: journal,
    });
    expect(queue.map((q) => [q.progress.status, q.saved, q.keptByHost])).toEqual([['queued', true, true]]);
    expect(effects).toEqual([]);
  });
});

describe('sending the queue', () => {
  const a = file('a.pdf');
  const b = file('b.pdf');

  it('sends the files one by one, drops the stored ones, reloads the list and says how many went up', () => {
    const start = run([add(a, b), { type: 'upload' }]);
    expect(start.machine.view.status).toBe('uploading');
    expect(statuses(start.machine)).toEqual(['uploading', 'queued']);
    expect(start.effects).toEqual([
      { type: 'roundStarted', round: 1 },
      { type: 'timer', delay: null },
      { type: 'upload', id: 'f1', file: a },
    ]);
    const second = run(
      [
        { type: 'progress', id: 'f1', loaded: 50, total: 100 },
        { type: 'uploaded', id: 'f1' },
      ],
      {
        from: start.machine,
      },
    );
    expect(second.effects).toEqual([
      { type: 'forget', id: 'f1' },
      { type: 'upload', id: 'f2', file: b },
    ]);
    const last = run([{ type: 'uploaded', id: 'f2' }], { from: second.machine });
    // The last file shows as uploaded before the stored files leave the queue.
    expect(statuses(last.machine)).toEqual(['done', 'done']);
    expect(types(last.effects)).toEqual(['forget', 'endRound']);
    const stored = run([{ type: 'endRound' }], { from: last.machine });
    expect(stored.queue).toEqual([]);
    expect(stored.machine.view.status).toBe('refreshing');
    expect(stored.effects).toEqual([{ type: 'refresh' }]);
    const end = run([{ type: 'refreshed' }], { from: stored.machine });
    expect(end.machine.view).toMatchObject({ status: 'idle', lastUploaded: 2 });
    expect(end.effects).toEqual([
      { type: 'timer', delay: null },
      { type: 'roundEnded', round: 1, alert: null },
    ]);
  });

  it('Upload waits for a photo still converting and sends it once it is ready', () => {
    const waiting = run([add(photo), { type: 'upload' }]);
    expect(types(waiting.effects)).not.toContain('upload');
    const made = file('w2.pdf');
    const ready = run([{ type: 'converted', id: 'f1', ticket: 1, original: photo, file: made }], {
      from: waiting.machine,
    });
    expect(ready.effects).toEqual([{ type: 'upload', id: 'f1', file: made }]);
  });

  it('nothing may change in the queue while it is sent', () => {
    const { machine } = run([add(a, photo), { type: 'upload' }]);
    const after = run(
      [
        { type: 'remove', id: 'f1' },
        { type: 'rotate', id: 'f2', by: 90 },
        { type: 'replace', id: 'f2', file: file('other.jpg') },
      ],
      { from: machine },
    );
    expect(after.machine.view.queue).toBe(machine.view.queue);
    expect(after.effects).toEqual([]);
  });

  it('a server error is alerted once and goes again by itself after its pause', () => {
    const failed = run([
      add(a),
      { type: 'upload' },
      { type: 'uploadFailed', id: 'f1', error: new ApiError('http', 503, 'Busy') },
      { type: 'endRound' },
    ]);
    expect(failed.queue[0]?.progress).toEqual({
      status: 'failed',
      error: 'Busy',
      retryable: true,
      kind: 'http',
      httpStatus: 503,
      code: 'unavailable',
      retryAt: 1_000_000,
    });
    expect(failed.effects.slice(-2)).toEqual([
      { type: 'timer', delay: 0 },
      { type: 'roundEnded', round: 1, alert: 'Busy' },
    ]);
    const again = run([{ type: 'tick' }], { from: failed.machine });
    expect(again.effects).toEqual([
      { type: 'roundStarted', round: 2 },
      { type: 'timer', delay: null },
      { type: 'upload', id: 'f1', file: a },
    ]);
    const twice = run(
      [{ type: 'uploadFailed', id: 'f1', error: new ApiError('http', 503, 'Busy') }, { type: 'endRound' }],
      {
        from: again.machine,
      },
    );
    // An automatic round alerts nothing; the next pause is 3 s.
    expect(twice.effects).toEqual([
      { type: 'endRound' },
      { type: 'timer', delay: 3_000 },
      { type: 'roundEnded', round: 2, alert: null },
    ]);
  });

  it('several failures of the person’s round make one alert, a line per file', () => {
    const { effects } = run([
      add(a, b),
      { type: 'upload' },
      { type: 'uploadFailed', id: 'f1', error: new ApiError('http', 500, 'boom') },
      { type: 'uploadFailed', id: 'f2', error: new ApiError('http', 413, 'too big') },
      { type: 'endRound' },
    ]);
    expect(effects.at(-1)).toEqual({ type: 'roundEnded', round: 1, alert: 'a.pdf: boom\nb.pdf: too big' });
  });

  it('no network: the file and the ones after it wait, unannounced; offline no timer runs, online they try again', () => {
    const offline = run(
      [
        add(a, b),
        { type: 'upload' },
        { type: 'uploadFailed', id: 'f1', error: new ApiError('network', 0, 'Failed') },
        { type: 'endRound' },
      ],
      { context: { online: false } },
    );
    expect(statuses(offline.machine)).toEqual(['waiting', 'waiting']);
    expect(offline.effects.slice(-2)).toEqual([
      { type: 'timer', delay: null },
      { type: 'roundEnded', round: 1, alert: null },
    ]);
    const back = run([{ type: 'online' }], { from: offline.machine });
    expect(types(back.effects)).toEqual(['roundStarted', 'timer', 'upload']);
  });

  it('Upload asked during an automatic round sends a full round right after it', () => {
    const failed = run([
      add(a),
      { type: 'upload' },
      { type: 'uploadFailed', id: 'f1', error: new ApiError('http', 500, 'x') },
      { type: 'endRound' },
    ]);
    const auto = run([{ type: 'tick' }, { type: 'upload' }], { from: failed.machine });
    expect(auto.machine.again).toBe(true);
    const end = run([{ type: 'uploaded', id: 'f1' }, { type: 'endRound' }, { type: 'refreshed' }], {
      from: auto.machine,
    });
    expect(end.effects.slice(-2)).toEqual([
      { type: 'uploadAgain' },
      { type: 'roundEnded', round: 2, alert: null },
    ]);
  });

  it('takes its policy from the context: a failure the policy leaves to Retry gets no timer', () => {
    const retry = { ...defaultRetryPolicy, shouldRetry: () => 'manual' as const };
    const { queue, effects } = run(
      [
        add(a),
        { type: 'upload' },
        { type: 'uploadFailed', id: 'f1', error: new ApiError('http', 503, 'Busy') },
        { type: 'endRound' },
      ],
      { context: { retry } },
    );
    expect(queue[0]?.progress).toMatchObject({ status: 'failed', retryable: true });
    expect(queue[0]?.progress).not.toHaveProperty('retryAt');
    expect(effects.at(-2)).toEqual({ type: 'timer', delay: null });
  });
});
