// The session's end is read from the error's code (`not_signed_in`), never its status or words.
import { ApiError } from '@vita-docs/core';
import type { ApiClient } from '@vita-docs/core';
import { describe, expect, it } from 'vitest';
import { watchSession } from './session-watch';

/** An API whose every call fails with `error`. */
function failingApi(error: ApiError): ApiClient {
  const fail = () => Promise.reject(error);
  return { listClients: fail, me: fail, passkeyStatus: fail } as unknown as ApiClient;
}

describe('the session watch', () => {
  it('ends the session on the code not_signed_in, whatever the status says', async () => {
    let ended = 0;
    const error = new ApiError('http', 400, 'Please sign in.', { code: 'not_signed_in' });
    const api = watchSession(failingApi(error), () => (ended += 1));
    await expect(api.listClients()).rejects.toBe(error);
    expect(ended).toBe(1);
  });

  it('leaves other refusals alone, a 401 with another code too, and the sign-in calls', async () => {
    let ended = 0;
    const other = new ApiError('http', 401, 'Wrong PIN.', { code: 'forbidden' });
    await expect(watchSession(failingApi(other), () => (ended += 1)).listClients()).rejects.toBe(other);
    const expired = new ApiError('http', 401, 'Please sign in.', { code: 'not_signed_in' });
    await expect(watchSession(failingApi(expired), () => (ended += 1)).me()).rejects.toBe(expired);
    expect(ended).toBe(0);
  });

  it('ends the session on role_changed whichever call got it, the passkey offer too', async () => {
    // Said once (the answer drops the cookie): a call that kept it lost why the person was signed out.
    let ended = 0;
    const error = new ApiError('http', 401, 'Your role was changed. Please sign in again.', {
      code: 'role_changed',
    });
    await expect(watchSession(failingApi(error), () => (ended += 1)).passkeyStatus()).rejects.toBe(error);
    expect(ended).toBe(1);
    // The session check reads it itself.
    await expect(watchSession(failingApi(error), () => (ended += 1)).me()).rejects.toBe(error);
    expect(ended).toBe(1);
  });
});
