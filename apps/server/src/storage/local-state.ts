/**
 * What the local store's parts (writing, reading, naming) share: where the files are, the key, and
 * the two policies that span them — when a plain file counts as damage, and which changes to the
 * tree run one at a time.
 */
import { SealedFileError, type StorageKey } from './encryption.js';
import { fileDamaged } from './types.js';

/** The local store's shared state, handed to each of its parts. */
export interface LocalState {
  /** Absolute directory holding the files. */
  readonly root: string;
  /** The key files are encrypted with; null stores them in plain. */
  readonly encryption: StorageKey | null;
  /** Clock in milliseconds. */
  readonly now: () => number;
  /**
   * True while a file that is not encrypted may be one stored before encryption; false once every
   * stored file has been encrypted (see {@link LocalStateControl.refusePlaintext}).
   */
  readonly plaintextAllowed: () => boolean;
  /** `error` as the `damaged` refusal for `key` (reported once to the log hook) when it is a failed integrity check; otherwise `error`. */
  readonly asDamaged: (key: string, error: unknown) => unknown;
  /** Runs `work` after every earlier exclusive work has settled: deletes and the last step of encrypting in place. */
  readonly exclusive: <T>(work: () => Promise<T>) => Promise<T>;
}

/** The state plus the one switch only the store's owner turns. */
export interface LocalStateControl extends LocalState {
  /** From now on a file that is not encrypted is damage (a no-op without a key). */
  readonly refusePlaintext: () => void;
}

/** Builds the shared state of a local store. */
export function createLocalState(options: {
  root: string;
  encryption: StorageKey | null;
  now: () => number;
  onDamaged?: ((key: string, reason: string) => void) | undefined;
}): LocalStateControl {
  const { root, encryption, now, onDamaged } = options;
  // Plain files are those stored before encryption, until every one has been encrypted.
  let plaintextAllowed = true;
  let queue: Promise<unknown> = Promise.resolve();
  return {
    root,
    encryption,
    now,
    plaintextAllowed: () => plaintextAllowed,
    asDamaged: (key, error) => {
      if (!(error instanceof SealedFileError)) return error;
      onDamaged?.(key, error.message);
      return fileDamaged(error.message);
    },
    exclusive: <T>(work: () => Promise<T>): Promise<T> => {
      const run = queue.then(work, work);
      queue = run.catch(() => undefined);
      return run;
    },
    refusePlaintext: () => {
      if (encryption) plaintextAllowed = false;
    },
  };
}
