import type { Connectivity, Dialogs, KeyValueStorage, Logger } from '../ports.js';

/** An in-memory {@link KeyValueStorage} whose contents a test can read. */
export interface MemoryStorage extends KeyValueStorage {
  readonly entries: ReadonlyMap<string, string>;
}

/** Creates a {@link MemoryStorage}, optionally pre-filled. */
export function createMemoryStorage(initial: Record<string, string> = {}): MemoryStorage {
  const entries = new Map(Object.entries(initial));
  return {
    entries,
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, String(value)),
    removeItem: (key) => void entries.delete(key),
  };
}

/** {@link Dialogs} that record what was shown and answer confirms from a script. */
export interface RecordingDialogs extends Dialogs {
  readonly alerts: string[];
  readonly confirms: string[];
  /** Queues the answers of the next confirms; once used up, confirms answer `defaultAnswer`. */
  answerConfirms(...answers: boolean[]): void;
}

/** Creates {@link RecordingDialogs}. Unscripted confirms answer `defaultAnswer` (yes, by default). */
export function createRecordingDialogs(options: { defaultAnswer?: boolean } = {}): RecordingDialogs {
  const alerts: string[] = [];
  const confirms: string[] = [];
  const answers: boolean[] = [];
  return {
    alerts,
    confirms,
    answerConfirms: (...next) => void answers.push(...next),
    alert: (message) => void alerts.push(message),
    confirm(message) {
      confirms.push(message);
      return answers.shift() ?? options.defaultAnswer ?? true;
    },
  };
}

/** A {@link Logger} that keeps the warnings. */
export interface RecordingLogger extends Logger {
  readonly warnings: { message: string; detail: unknown[] }[];
}

/** Creates a {@link RecordingLogger}. */
export function createRecordingLogger(): RecordingLogger {
  const warnings: { message: string; detail: unknown[] }[] = [];
  return { warnings, warn: (message, ...detail) => void warnings.push({ message, detail }) };
}

/** A {@link Connectivity} a test switches. */
export interface ManualConnectivity extends Connectivity {
  /** Goes offline, or back online (telling the listeners). */
  set(online: boolean): void;
  /** How many listeners are subscribed. */
  listeners(): number;
}

/** Creates a {@link ManualConnectivity}, online at first. */
export function createManualConnectivity(): ManualConnectivity {
  let online = true;
  const listeners = new Set<() => void>();
  return {
    online: () => online,
    onOnline(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    listeners: () => listeners.size,
    set(next) {
      const cameBack = next && !online;
      online = next;
      if (cameBack) for (const listener of [...listeners]) listener();
    },
  };
}
