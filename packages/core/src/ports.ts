/**
 * The ports core code receives instead of reaching for platform globals. Browsers, workers, Node
 * and Electron each provide their own; `@vita-docs/core/testing` provides in-memory ones.
 */

/** A file as core sees it: the browser's `File` and `Blob`-backed objects satisfy it. */
export interface FileLike {
  readonly name: string;
  /** MIME type as reported by the platform; may be empty. */
  readonly type: string;
  readonly size: number;
  arrayBuffer(): Promise<ArrayBuffer>;
  /** When present (Blob/File), lets core read just the header of a large photo. */
  slice?(start?: number, end?: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

/** The subset of `fetch` core uses. `globalThis.fetch` satisfies it. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Time, and timers for flows that count down. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** A string key-value store; `localStorage` and `sessionStorage` satisfy it. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The alert and confirm dialogs of the screens. May be synchronous (browser) or asynchronous (modals). */
export interface Dialogs {
  alert(message: string): void | Promise<void>;
  confirm(message: string): boolean | Promise<boolean>;
}

/** Where a file the person keeps is saved (a browser download, a save dialog on the desktop). */
export interface FileSaver {
  /** Resolves once the host has taken the data. */
  saveFile(name: string, data: Blob): Promise<void>;
}

/** Where warnings go (e.g. a conversion that fell back to the original file); `console` satisfies it. */
export interface Logger {
  warn(message: string, ...detail: unknown[]): void;
}

/**
 * Whether the device has a network connection (`navigator.onLine` and its events in a browser). It
 * can be wrong one way: online may still mean no route to the server, which only a request tells.
 */
export interface Connectivity {
  online(): boolean;
  /** Calls `listener` each time the connection comes back; returns the unsubscribe function. */
  onOnline(listener: () => void): () => void;
}
