import { ApiError } from '@vita-docs/core';
import type { User } from '@vita-docs/core';

/** An account as the server returns it. */
export function user(fields: Partial<User> & { email: string }): User {
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

/** The error the API client raises for an HTTP failure. */
export function httpError(status: number, message: string): ApiError {
  return new ApiError('http', status, message);
}

/** A promise the test settles by hand, to look at the state while a call is running. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
