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
import type { UploadJournal } from './journal.js';
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

/** Starts the runner of a queue whose rules see the world through `context`. */
export function createUploadRunner(
  ports: UploadRunnerPorts,
  initial: UploadMachine,
  context: () => TransitionContext,
): UploadRunner {
  const store = createStore(initial.view);
  let machine = initial;
  /** One conversion (or keeping) at a time: phone photos are large and memory is not. */
  let preparing: Promise<void> = done;
  let timer: { handle: unknown } | null = null;
  let disposed = false;
  /** Aborted by `dispose`: an upload under way stops before its next request. */
  const stopping = new AbortController();
  /** Rounds under way, each with what resolves its Upload or Retry. */
  const rounds = new Map<number, () => void>();
  let startedRound: Promise<void> | null = null;

  function dispatch(event: MachineEvent): Promise<void> {
    if (disposed) return done; // the queue is gone (another person signed in): nothing of it goes on
    const step = transition(machine, event, context());
    machine = step.machine;
    store.setState(machine.view);
    const waits = step.effects.map(perform).filter((wait) => wait !== undefined);
    return waits.length ? Promise.all(waits).then(() => undefined) : done;
  }

  async function convertInTurn(effect: Extract<Effect, { type: 'convert' }>): Promise<void> {
    const { id, ticket, original } = effect;
    // Removed, replaced or turned again while waiting its turn.
    if (disposed || !isCurrentConversion(machine, id, ticket, original)) return;
    void dispatch({ type: 'conversionStarted' });
    let file = original;
    try {
      file = await ports.convert(original, { rotate: effect.rotate });
    } catch {
      // The converter port reports its own failures; the original is uploaded instead.
    }
    await dispatch({ type: 'converted', id, ticket, original, file });
    void dispatch({ type: 'conversionSettled' });
  }

  async function save({ id, file, notice }: Extract<Effect, { type: 'save' }>): Promise<void> {
    const { journal, target, clientName } = ports;
    const name = clientName?.();
    let saved = true;
    try {
      // Read once: kept from these bytes, and fingerprinted from them for the presign.
      const bytes = await file.arrayBuffer();
      rememberFingerprint(file, bytes);
      await journal?.save(
        {
          id,
          target,
          name: file.name,
          type: file.type,
          size: file.size,
          ...(name ? { clientName: name } : {}),
        },
        file,
        bytes,
      );
    } catch {
      saved = false;
    }
    await dispatch({ type: 'saved', id, file, notice, saved });
  }

  function upload({ id, file }: Extract<Effect, { type: 'upload' }>): void {
    const onProgress = (loaded: number, total: number) =>
      void dispatch({ type: 'progress', id, loaded, total });
    uploadDocument(ports.api, ports.putFile, ports.target, file, onProgress, {
      signal: stopping.signal,
    }).then(
      () => dispatch({ type: 'uploaded', id }),
      (error: unknown) => dispatch({ type: 'uploadFailed', id, error }),
    );
  }

  async function refresh(): Promise<void> {
    try {
      await ports.refresh();
    } catch {
      // The list shows its own load errors.
    }
    await dispatch({ type: 'refreshed' });
  }

  async function reportRound({ round, alert }: Extract<Effect, { type: 'roundEnded' }>): Promise<void> {
    try {
      if (alert) await ports.platform.alert(alert);
    } finally {
      rounds.get(round)?.();
      rounds.delete(round);
    }
  }

  function setTimer(delay: number | null): void {
    const { clock } = ports;
    if (timer) clock?.clearTimeout(timer.handle);
    timer = null;
    if (delay === null || !clock || disposed) return;
    const handle = clock.setTimeout(() => {
      timer = null;
      void dispatch({ type: 'tick' });
    }, delay);
    timer = { handle };
  }

  function perform(effect: Effect): Promise<void> | undefined {
    switch (effect.type) {
      case 'inspect':
        ports.inspect?.(effect.original).then(
          (warnings) => dispatch({ type: 'inspected', id: effect.id, original: effect.original, warnings }),
          () => undefined, // a photo this platform cannot read has nothing to say about its quality
        );
        return;
      case 'convert':
        preparing = preparing.then(() => convertInTurn(effect));
        return;
      case 'prepare':
        preparing = preparing.then(() =>
          dispatch({ type: 'prepared', id: effect.id, file: effect.file, notice: effect.notice }),
        );
        return;
      case 'save':
        return save(effect);
      case 'forget':
        ports.journal?.remove(effect.id).catch(() => undefined); // a leftover is found by its SHA-256 if ever sent again
        return;
      case 'upload':
        upload(effect);
        return;
      case 'endRound':
        void dispatch({ type: 'endRound' });
        return;
      case 'refresh':
        void refresh();
        return;
      case 'roundStarted':
        startedRound = new Promise((resolve) => rounds.set(effect.round, resolve));
        return;
      case 'roundEnded':
        reportRound(effect).catch(() => undefined);
        return;
      case 'uploadAgain':
        void dispatch({ type: 'uploadAgain' });
        return;
      case 'timer':
        setTimer(effect.delay);
        return;
      case 'writePreference':
        ports.writePreference(effect.enabled);
        return;
    }
  }

  const stopWatching = ports.connectivity?.onOnline(() => void dispatch({ type: 'online' }));

  return {
    store,
    dispatch,
    dispatchRound(event) {
      startedRound = null;
      void dispatch(event);
      return startedRound;
    },
    prepared: () => preparing,
    dispose() {
      disposed = true;
      stopping.abort();
      setTimer(null);
      stopWatching?.();
      // Nothing more happens to the rounds under way: their Upload or Retry is over.
      for (const resolve of rounds.values()) resolve();
      rounds.clear();
    },
  };
}
