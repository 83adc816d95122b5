// Who last signed in here, for a start with no connection (docs/behaviour.md#offline): kept no longer
// than a session lives after the server last vouched, never taken from a time ahead of now or from
// anything that is not what this page wrote, and forgotten on request.
import { createMemoryStorage, createTestUser } from '@vita-docs/core/testing';
import { describe, expect, it } from 'vitest';
import { createStoredRememberedUser } from './remembered-user';

const HOUR = 3_600_000;
const vera = createTestUser({ email: 'vera@example.org', firstName: 'Vera' });

describe('remembered user', () => {
  it('gives back who was written for 12 hours, then nobody; forgets on request', () => {
    let now = 1_000_000;
    const storage = createMemoryStorage();
    const remembered = createStoredRememberedUser({ storage, now: () => now, lifetimeMs: 12 * HOUR });
    expect(remembered.read()).toBeNull();
    remembered.write(vera);
    now += 12 * HOUR;
    expect(remembered.read()).toEqual(vera);
    now += 1;
    expect(remembered.read()).toBeNull();
    remembered.write(vera);
    remembered.write(null);
    expect(remembered.read()).toBeNull();
    expect(storage.getItem('vita-docs.lastSignedIn')).toBeNull();
  });

  it('takes nobody from a time ahead of now or from what is not its own record', () => {
    const now = 1_000_000;
    const storage = createMemoryStorage();
    const remembered = createStoredRememberedUser({ storage, now: () => now, lifetimeMs: 12 * HOUR });
    storage.setItem('vita-docs.lastSignedIn', JSON.stringify({ user: vera, at: now + 365 * 24 * HOUR }));
    expect(remembered.read()).toBeNull();
    storage.setItem('vita-docs.lastSignedIn', '{not json');
    expect(remembered.read()).toBeNull();
  });
});
