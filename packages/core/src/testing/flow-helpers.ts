import type { AuditEntry, User } from '../api/schemas.js';
import type { Flow } from '../store.js';
import type { FileLike } from '../ports.js';

/**
 * Records the `status` of every state a flow goes through from now on, so a test can assert the
 * path it took (`['sendingCode', 'code']`). Call the returned `stop` to unsubscribe.
 */
export function recordStatuses<S extends { status: string }>(
  flow: Pick<Flow<S, unknown>, 'subscribe'>,
): { statuses: S['status'][]; states: S[]; stop: () => void } {
  const statuses: S['status'][] = [];
  const states: S[] = [];
  const stop = flow.subscribe((state) => {
    states.push(state);
    if (statuses.at(-1) !== state.status) statuses.push(state.status);
  });
  return { statuses, states, stop };
}

/** A small in-memory file (the browser's `File` shape) with the given bytes or text. */
export function createTestFile(name: string, content: string | Uint8Array = 'test', type = ''): FileLike {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  return new File([bytes as Uint8Array<ArrayBuffer>], name, { type });
}

/** An account as the server returns it: an approved volunteer `Test User` unless `fields` say otherwise. */
export function createTestUser(fields: Partial<User> & { email: string }): User {
  return {
    firstName: 'Test',
    lastName: 'User',
    role: 'volunteer',
    isAdmin: false,
    approved: true,
    createdAt: '2025-01-15T12:00:00.000Z',
    ...fields,
  };
}

/** An audit log entry as the server returns it: Vera viewing a file of client c1 unless `patch` says otherwise. */
export function createTestAuditEntry(id: number, patch: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id,
    at: '2026-11-25T10:00:00.000Z',
    actor: 'vera@example.org',
    action: 'doc.view',
    clientId: 'c1',
    clientName: null,
    keys: [],
    ip: '127.0.0.1',
    detail: null,
    ...patch,
  };
}

/** A promise the test settles by hand, to look at a flow's state while a call is running. */
export function createDeferred<T>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
} {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
