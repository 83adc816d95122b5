// A journal's key as it is held: only the signed-in owner's, never extractable, renewed when the
// server replaces it (what the old one sealed moved under the new one), refused when it cannot be.
import { describe, expect, it } from 'vitest';
import { createFakeJournalKeys } from '../../testing/journal-keys.js';
import {
  fetchJournalKey,
  holdJournalKey,
  NOT_THE_OWNER,
  openingKey,
  sealingKey,
  type JournalKey,
} from './journal-key.js';

const HOUR = 3_600_000;
const { subtle } = globalThis.crypto;

describe('journal keys', () => {
  it('imports the owner’s key as non-extractable, and refuses a key of someone else’s session', async () => {
    const now = 1_000_000;
    const server = createFakeJournalKeys({ now: () => now });
    server.signIn('vera@example.org');
    const held = await fetchJournalKey(server.source, subtle, ' Vera@Example.org');
    expect(held).toMatchObject({ id: server.keyOf('vera@example.org').keyId, expiresAt: now + 12 * HOUR });
    expect(held.key.extractable).toBe(false);
    await expect(subtle.exportKey('raw', held.key)).rejects.toThrow();
    server.signIn('wes@example.org');
    await expect(fetchJournalKey(server.source, subtle, 'vera@example.org')).rejects.toThrow(NOT_THE_OWNER);
    server.signOut();
    await expect(fetchJournalKey(server.source, subtle, 'vera@example.org')).rejects.toThrow(
      'Please sign in.',
    );
  });

  it('seals to the public half with no secret at hand; only the private half of that key opens it', async () => {
    const server = createFakeJournalKeys({ now: () => 1_000_000 });
    server.signIn('vera@example.org');
    const vera = await fetchJournalKey(server.source, subtle, 'vera@example.org');
    server.signIn('wes@example.org');
    const wes = await fetchJournalKey(server.source, subtle, 'wes@example.org');
    expect(vera.open.extractable).toBe(false);

    // What a device with no connection has: the public half it kept, nothing else.
    const sealing = await sealingKey(subtle, vera.sealKey);
    const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
    const sealed = await subtle.encrypt(
      { name: 'AES-GCM', iv },
      sealing.key,
      new TextEncoder().encode('W-2'),
    );
    const again = await sealingKey(subtle, vera.sealKey);
    expect(again.ephemeral).not.toEqual(sealing.ephemeral); // a one-off pair each time

    const opened = await subtle.decrypt(
      { name: 'AES-GCM', iv },
      await openingKey(subtle, vera, sealing.ephemeral),
      sealed,
    );
    expect(new TextDecoder().decode(opened)).toBe('W-2');
    await expect(
      subtle.decrypt({ name: 'AES-GCM', iv }, await openingKey(subtle, wes, sealing.ephemeral), sealed),
    ).rejects.toThrow();
  });

  it('renews an expired key before use, moving what the old one sealed; without a session it refuses', async () => {
    let now = 1_000_000;
    const server = createFakeJournalKeys({ now: () => now });
    server.signIn('vera@example.org');
    const first = await fetchJournalKey(server.source, subtle, 'vera@example.org');
    const moved: [string, string][] = [];
    const keys = holdJournalKey({
      source: server.source,
      subtle,
      owner: 'vera@example.org',
      first,
      clock: { now: () => now, setTimeout: () => 0, clearTimeout: () => undefined },
      rekey: async (from: JournalKey, to: JournalKey) => void moved.push([from.id, to.id]),
    });
    try {
      expect(await keys.current()).toBe(first);
      now += 12 * HOUR;
      server.destroy('vera@example.org');
      server.signOut();
      await expect(keys.current()).rejects.toThrow('Please sign in.');
      expect(keys.latest()).toBe(first);
      server.signIn('vera@example.org');
      const second = await keys.current();
      expect(second.id).toBe(server.keyOf('vera@example.org').keyId);
      expect(moved).toEqual([[first.id, second.id]]);
      expect(keys.latest()).toBe(second);
    } finally {
      keys.stop();
    }
  });
});
