/**
 * Performs the upload queue's effects against its ports and feeds what they report back into the
 * transition (`transition.ts`). It owns what is not data: the store the screens follow, the one
 * conversion at a time, the retry timer, the connection watch, and the abort of a dropped queue.
 */
import type { ApiClient } from '../../api/client.js';
import { rememberFingerprint, uploadDocument } from '../../api/upload.js';
import type { PutFile, UploadTarget } from '../../api/upload.js';
import type { Clock, Connectivity, Dialogs } from '../../ports.js';
import { createStore } from '../../store.js';
import type { Store } from '../../store.js';
import type { JournalEntry, UploadJournal } from './journal.js';
import type { Effect, MachineEvent, TransitionContext, UploadMachine } from './machine.js';
import { isCurrentConversion, transition } from './transition.js';
import type { ConvertImage, InspectImage, UploadState } from './upload-state.js';

/** The ports the effects use. */
export interface UploadRunnerPorts {
  api: Pick<ApiClient, 'presignUpload' | 'completeUpload'>;
  putFile: PutFile;
  convert: ConvertImage;
  inspect?: InspectImage;
  platform: Pick<Dialogs, 'alert'>;
  target: UploadTarget;
  refresh: () => unknown;
  journal?: UploadJournal;
  clientName?: () => string | undefined;
  connectivity?: Connectivity;
  clock?: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  writePreference: (enabled: boolean) => void;
}

export interface UploadRunner {
  store: Pick<Store<UploadState>, 'getState' | 'subscribe'>;
  /** Applies the event; resolves once the keeping it asked for is done (conversions and uploads go on). */
  dispatch(event: MachineEvent): Promise<void>;
  /** Applies an Upload or Retry; resolves once the round it started is over (null when it started none). */
  dispatchRound(event: MachineEvent): Promise<void> | null;
  /** Resolves when every conversion and keeping asked for so far is done. */
  prepared(): Promise<void>;
  /** Stops everything: a dropped queue changes no more. */
  dispose(): void;
}

const done = Promise.resolve();

type Dispatch = (event: MachineEvent) => Promise<void>;
type EffectOf<T extends Effect['type']> = Extract<Effect, { type: T }>;

/** Keeps the file in the journal, read once for both the journal and the presign's SHA-256; reports `saved`. */
async function save(
  ports: UploadRunnerPorts,
  dispatch: Dispatch,
  signal: AbortSignal,
  effect: EffectOf<'save'>,
) {
  const { id, file, notice, convert, ticket, settles, warnings, checkPending } = effect;
  const { journal, target, clientName } = ports;
  const name = clientName?.();
  const entry: JournalEntry = {
    id,
    target,
    name: file.name,
    type: file.type,
    size: file.size,
    ...(name ? { clientName: name } : {}),
    ...(convert ? { convert } : {}),
    ...(warnings?.length ? { warnings } : {}),
    ...(checkPending ? { checkPending } : {}),
  };
  let saved = true;
  try {
    const bytes = await file.arrayBuffer();
    if (signal.aborted) return; // the queue was dropped (another person signed in): nothing of it is kept
    // A photo kept for a reload is not what is sent: its fingerprint would never be asked for.
    if (!convert) rememberFingerprint(file, bytes);
    await journal?.save(entry, file, bytes);
  } catch {
    saved = false;
  }
  await dispatch({
    type: 'saved',
    id,
    file,
    notice,
    saved,
    ...(ticket === undefined ? {} : { ticket }),
    ...(settles ? { settles } : {}),
  });
}

/**
 * Keeps files in the journal one after another per queue item: the photo kept with a new choice is
 * written before the PDF made with it, never over it; and a file is forgotten only after every
 * keeping of it asked before, so no late write brings back a file already sent.
 */
function createKeeping(ports: UploadRunnerPorts, dispatch: Dispatch, signal: AbortSignal) {
  const last = new Map<string, Promise<void>>();
  const inTurn = (id: string, run: () => Promise<void>): Promise<void> => {
    const mine = (last.get(id) ?? done).then(run, run);
    last.set(id, mine);
    const cleanUp = () => {
      if (last.get(id) === mine) last.delete(id);
    };
    mine.then(cleanUp, cleanUp);
    return mine;
  };
  return {
    save: (effect: EffectOf<'save'>): Promise<void> =>
      inTurn(effect.id, () => save(ports, dispatch, signal, effect)),
    forget(id: string): void {
      // A leftover is found by its SHA-256 if ever sent again.
      const remove = () => ports.journal?.remove(id).catch(() => undefined) ?? done;
      if (last.has(id)) void inTurn(id, remove);
      else void remove();
    },
  };
}

/** Sends the file; reports `progress`, then `uploaded` or `uploadFailed`. */
function upload(
  ports: UploadRunnerPorts,
  dispatch: Dispatch,
  signal: AbortSignal,
  { id, file }: EffectOf<'upload'>,
) {
  const onProgress = (loaded: number, total: number) =>
    void dispatch({ type: 'progress', id, loaded, total });
  uploadDocument(ports.api, ports.putFile, ports.target, file, onProgress, { signal }).then(
    () => dispatch({ type: 'uploaded', id }),
    (error: unknown) => dispatch({ type: 'uploadFailed', id, error }),
  );
}

/** Reloads the file list (which shows its own load errors); reports `refreshed`. */
async function refresh(ports: UploadRunnerPorts, dispatch: Dispatch): Promise<void> {
  try {
    await ports.refresh();
  } catch {
    // The list shows its own load errors.
  }
  await dispatch({ type: 'refreshed' });
}

/**
 * One conversion (or keeping) at a time: phone photos are large and memory is not. `current` says
 * whether a conversion is still wanted when its turn comes.
 */
function createPreparation(
  convert: ConvertImage,
  dispatch: Dispatch,
  current: (effect: EffectOf<'convert'>) => boolean,
) {
  let preparing: Promise<void> = done;
  async function convertInTurn(effect: EffectOf<'convert'>): Promise<void> {
    const { id, ticket, original } = effect;
    if (!current(effect)) return; // removed, replaced or turned again while waiting its turn
    void dispatch({ type: 'conversionStarted' });
    let file = original;
    try {
      file = await convert(original, {
        rotate: effect.rotate,
        ...(effect.crop ? { crop: effect.crop } : {}),
      });
    } catch {
      // The converter port reports its own failures; the original is uploaded instead.
    }
    await dispatch({ type: 'converted', id, ticket, original, file });
    void dispatch({ type: 'conversionSettled' });
  }
  return {
    convert(effect: EffectOf<'convert'>) {
      preparing = preparing.then(() => convertInTurn(effect));
    },
    prepare({ id, file, notice }: EffectOf<'prepare'>) {
      preparing = preparing.then(() => dispatch({ type: 'prepared', id, file, notice }));
    },
    /** Resolves when every conversion and keeping asked for so far is done. */
    done: () => preparing,
  };
}

/** The one retry timer; `fire` runs when it goes off. */
function createRetryTimer(clock: UploadRunnerPorts['clock'], fire: () => void) {
  let timer: { handle: unknown } | null = null;
  return {
    set(delay: number | null): void {
      if (timer) clock?.clearTimeout(timer.handle);
      timer = null;
      if (delay === null || !clock) return;
      const handle = clock.setTimeout(() => {
        timer = null;
        fire();
      }, delay);
      timer = { handle };
    },
  };
}

/** The rounds under way, each with what resolves its Upload or Retry. */
function createRounds(alert: (message: string) => void | Promise<void>) {
  const pending = new Map<number, () => void>();
  let started: Promise<void> | null = null;
  return {
    start(round: number): void {
      started = new Promise((resolve) => pending.set(round, resolve));
    },
    /** Alerts what failed (if anything); the round's Upload or Retry is then fully handled. */
    async end({ round, alert: message }: EffectOf<'roundEnded'>): Promise<void> {
      try {
        if (message) await alert(message);
      } finally {
        pending.get(round)?.();
        pending.delete(round);
      }
    },
    /** The round `run` started, if it started one. */
    startedBy(run: () => void): Promise<void> | null {
      started = null;
      run();
      return started;
    },
    /** Nothing more happens to the rounds under way: their Upload or Retry is over. */
    endAll(): void {
      for (const resolve of pending.values()) resolve();
      pending.clear();
    },
  };
}

interface Performers {
  ports: UploadRunnerPorts;
  dispatch: Dispatch;
  signal: AbortSignal;
  preparation: ReturnType<typeof createPreparation>;
  timer: ReturnType<typeof createRetryTimer>;
  rounds: ReturnType<typeof createRounds>;
  keep: ReturnType<typeof createKeeping>;
}

/** Performs one effect; returns what the dispatch waits for (the keeping of a file), if anything. */
function perform(
  effect: Effect,
  { ports, dispatch, signal, preparation, timer, rounds, keep }: Performers,
): Promise<void> | void {
  switch (effect.type) {
    case 'inspect': {
      const { id, original } = effect;
      // A photo this platform cannot read (or no checker at all) has nothing to say about its quality.
      (ports.inspect?.(original) ?? Promise.resolve([])).then(
        (warnings) => dispatch({ type: 'inspected', id, original, warnings }),
        () => dispatch({ type: 'inspected', id, original, warnings: [] }),
      );
      return;
    }
    case 'convert':
      return preparation.convert(effect);
    case 'prepare':
      return preparation.prepare(effect);
    case 'save':
      return keep.save(effect);
    case 'forget':
      return keep.forget(effect.id);
    case 'upload':
      return upload(ports, dispatch, signal, effect);
    case 'endRound':
      void dispatch({ type: 'endRound' });
      return;
    case 'refresh':
      void refresh(ports, dispatch);
      return;
    case 'roundStarted':
      return rounds.start(effect.round);
    case 'roundEnded':
      rounds.end(effect).catch(() => undefined);
      return;
    case 'uploadAgain':
      void dispatch({ type: 'uploadAgain' });
      return;
    case 'timer':
      return timer.set(effect.delay);
    case 'writePreference':
      return ports.writePreference(effect.enabled);
  }
}

/** Starts the runner of a queue whose rules see the world through `context`. */
export function createUploadRunner(
  ports: UploadRunnerPorts,
  initial: UploadMachine,
  context: () => TransitionContext,
): UploadRunner {
  const store = createStore(initial.view);
  let machine = initial;
  let disposed = false;
  /** Aborted by `dispose`: an upload under way stops before its next request. */
  const stopping = new AbortController();

  function dispatch(event: MachineEvent): Promise<void> {
    if (disposed) return done; // the queue is gone (another person signed in): nothing of it goes on
    const step = transition(machine, event, context());
    machine = step.machine;
    store.setState(machine.view);
    const waits = step.effects
      .map((effect) => perform(effect, performers))
      .filter((wait) => wait instanceof Promise);
    return waits.length ? Promise.all(waits).then(() => undefined) : done;
  }

  const performers: Performers = {
    ports,
    dispatch,
    signal: stopping.signal,
    preparation: createPreparation(
      ports.convert,
      dispatch,
      ({ id, ticket, original }) => !disposed && isCurrentConversion(machine, id, ticket, original),
    ),
    timer: createRetryTimer(ports.clock, () => void dispatch({ type: 'tick' })),
    rounds: createRounds((message) => ports.platform.alert(message)),
    keep: createKeeping(ports, dispatch, stopping.signal),
  };
  const stopWatching = ports.connectivity?.onOnline(() => void dispatch({ type: 'online' }));

  return {
    store,
    dispatch,
    dispatchRound: (event) => performers.rounds.startedBy(() => void dispatch(event)),
    prepared: () => performers.preparation.done(),
    dispose() {
      disposed = true;
      stopping.abort();
      performers.timer.set(null);
      stopWatching?.();
      performers.rounds.endAll();
    },
  };
}
