import type { JournalKeyResponse } from '../api/schemas.js';
import { ApiError } from '../api/errors.js';
import type { JournalKeySource } from '../flows/upload/journal-key.js';

/** The server's journal keys as tests need them: one per person, handed to whoever is signed in. */
export interface FakeJournalKeys {
  /** What a journal asks (`api.journalKey`): 401 while nobody is signed in. */
  source: JournalKeySource;
  signIn(email: string): void;
  signOut(): void;
  /** Destroys a person's key (sign-out, suspension, 12 hours): the next answer is a new one. */
  destroy(email: string): void;
  /** Answers from now on that a person's key expires at `at` (ms since the epoch). */
  expireAt(email: string, at: number): void;
  /** A person's current key (made if they have none), as the server would answer it but for its sealing pair. */
  keyOf(email: string): Omit<JournalKeyResponse, 'sealKey' | 'openKey'>;
}

const randomHex = (bytes: number) =>
  Array.from(globalThis.crypto.getRandomValues(new Uint8Array(bytes)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
const randomBase64 = (bytes: number) =>
  btoa(String.fromCharCode(...globalThis.crypto.getRandomValues(new Uint8Array(bytes))));

const toBase64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));

/** A sealing pair in the server's form: the public point and the private scalar, base64. */
async function makePair(): Promise<Pick<JournalKeyResponse, 'sealKey' | 'openKey'>> {
  const { subtle } = globalThis.crypto;
  const pair = await subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
  const { d = '' } = await subtle.exportKey('jwk', pair.privateKey);
  return {
    sealKey: toBase64(await subtle.exportKey('raw', pair.publicKey)),
    openKey: btoa(atob(d.replace(/-/g, '+').replace(/_/g, '/'))),
  };
}

/** Creates {@link FakeJournalKeys}; a new key expires `lifetimeMs` (12 hours) after `now`. */
export function createFakeJournalKeys(options: { now: () => number; lifetimeMs?: number }): FakeJournalKeys {
  const lifetime = options.lifetimeMs ?? 12 * 3_600_000;
  const keys = new Map<string, Omit<JournalKeyResponse, 'sealKey' | 'openKey'>>();
  /** Each key's sealing pair, made on its first answer (WebCrypto makes pairs only asynchronously). */
  const pairs = new Map<string, Promise<Pick<JournalKeyResponse, 'sealKey' | 'openKey'>>>();
  let signedIn: string | null = null;
  const keyOf = (email: string) => {
    const found = keys.get(email);
    if (found) return found;
    const made = {
      keyId: randomHex(16),
      key: randomBase64(32),
      expiresAt: new Date(options.now() + lifetime).toISOString(),
      email,
    };
    keys.set(email, made);
    return made;
  };
  return {
    source: async () => {
      if (signedIn === null) throw new ApiError('http', 401, 'Please sign in.');
      const key = keyOf(signedIn);
      let pair = pairs.get(key.keyId);
      if (!pair) pairs.set(key.keyId, (pair = makePair()));
      return { ...key, ...(await pair) };
    },
    signIn: (email) => void (signedIn = email),
    signOut: () => void (signedIn = null),
    destroy: (email) => void keys.delete(email),
    expireAt: (email, at) => void keys.set(email, { ...keyOf(email), expiresAt: new Date(at).toISOString() }),
    keyOf,
  };
}
