/**
 * The key a journal seals kept files with (docs/behaviour.md#kept-uploads): the server's key for the
 * signed-in person, handed only to their live session, imported into WebCrypto as non-extractable and
 * held in memory only. Nothing a device stores can stand in for it: without a live session nothing
 * kept opens, and once the server has destroyed the key nothing sealed under it ever will.
 */
import type { JournalKeyResponse } from '../../api/schemas.js';
import type { Clock } from '../../ports.js';

/** The host's WebCrypto (a page's, or Node's), typed without the DOM library. */
type Subtle = typeof globalThis.crypto.subtle;
type WebCryptoKey = Awaited<ReturnType<Subtle['importKey']>>;

/** A journal key as a journal holds it. */
export interface JournalKey {
  /** The server's id for it: what each kept record names. */
  id: string;
  key: WebCryptoKey;
  /** The private half of its sealing pair: opens what was sealed to {@link JournalKey.sealKey}. */
  open: WebCryptoKey;
  /** The public half (base64, uncompressed P-256 point): what a device keeps to seal with no connection. */
  sealKey: string;
  /** When the server destroys it (ms since the epoch). */
  expiresAt: number;
}

/** The server's answer with the journal key of whoever is signed in (rejects without a live session). */
export type JournalKeySource = () => Promise<JournalKeyResponse>;

/** Refused when the session the key came with is not the person whose journal is opened. */
export const NOT_THE_OWNER = 'The signed-in session is not the person these files are kept for.';

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** `owner`'s key, asked of the server now. */
export async function fetchJournalKey(
  source: JournalKeySource,
  subtle: Subtle,
  owner: string,
): Promise<JournalKey> {
  const answer = await source();
  if (!sameEmail(answer.email, owner)) throw new Error(NOT_THE_OWNER);
  const raw = fromBase64(answer.key);
  try {
    const key = await subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
    const open = await importOpenKey(subtle, answer.sealKey, answer.openKey);
    return { id: answer.keyId, key, open, sealKey: answer.sealKey, expiresAt: Date.parse(answer.expiresAt) };
  } finally {
    raw.fill(0);
  }
}

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const base64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const P256 = { name: 'ECDH', namedCurve: 'P-256' } as const;

/** The private half as a non-extractable WebCrypto key (JWK is the one form that takes a bare scalar). */
async function importOpenKey(subtle: Subtle, sealKey: string, openKey: string): Promise<WebCryptoKey> {
  const point = fromBase64(sealKey);
  const scalar = fromBase64(openKey);
  try {
    const jwk = {
      kty: 'EC',
      crv: 'P-256',
      x: base64Url(point.subarray(1, 33)),
      y: base64Url(point.subarray(33, 65)),
      d: base64Url(scalar),
    };
    return await subtle.importKey('jwk', jwk, P256, false, ['deriveBits']);
  } finally {
    scalar.fill(0);
  }
}

/** What labels the sealing keys: no other key derived from the same secret is the same. */
const SEALING_INFO = new TextEncoder().encode('vita-docs/journal-sealed-offline/v1');

/** The AES-GCM key of an ECDH secret, salted with the one-off public key it was agreed with. */
async function aesOf(subtle: Subtle, secret: ArrayBuffer, ephemeral: Uint8Array<ArrayBuffer>) {
  const base = await subtle.importKey('raw', secret, 'HKDF', false, ['deriveKey']);
  return subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: ephemeral, info: SEALING_INFO },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** A key to seal with when only the public half is at hand, and what its opener needs besides the private half. */
export interface SealingKey {
  key: WebCryptoKey;
  /** The one-off public key (uncompressed point) it was agreed with: stored beside what it seals. */
  ephemeral: Uint8Array<ArrayBuffer>;
}

/**
 * A fresh AES-GCM key for sealing to `sealKey` (ECDH with a one-off pair, then HKDF): the device
 * needs no secret to seal, and only the holder of the private half can derive it again
 * ({@link openingKey}).
 */
export async function sealingKey(subtle: Subtle, sealKey: string): Promise<SealingKey> {
  const recipient = await subtle.importKey('raw', fromBase64(sealKey), P256, false, []);
  const pair = await subtle.generateKey(P256, false, ['deriveBits']);
  const ephemeral = new Uint8Array(await subtle.exportKey('raw', pair.publicKey));
  const secret = await subtle.deriveBits({ name: 'ECDH', public: recipient }, pair.privateKey, 256);
  return { key: await aesOf(subtle, secret, ephemeral), ephemeral };
}

/** The key {@link sealingKey} made with `ephemeral`, derived again with the private half. */
export async function openingKey(
  subtle: Subtle,
  key: Pick<JournalKey, 'open'>,
  ephemeral: Uint8Array<ArrayBuffer>,
): Promise<WebCryptoKey> {
  const sender = await subtle.importKey('raw', ephemeral, P256, false, []);
  const secret = await subtle.deriveBits({ name: 'ECDH', public: sender }, key.open, 256);
  return aesOf(subtle, secret, ephemeral);
}

/** An open journal's key, renewed when the server replaces it. */
export interface HeldJournalKey {
  /** The key to seal with now; renews it first when it has expired (rejects when that fails). */
  current(): Promise<JournalKey>;
  /** The newest key held, without asking: a save sealed under another one writes again. */
  latest(): JournalKey;
  /** Stops renewing (another journal was opened, or everything was deleted). */
  stop(): void;
}

/**
 * Waits before asking again when the server still calls the key current (clocks differ) or did not
 * give one (no live session: the same person may sign in again on this page): doubled each time.
 */
const RETRY_MS = 60_000;
const MAX_RETRY_MS = 15 * 60_000;
/** The longest delay timers take. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * Holds `first` for `owner` while their journal is open. When it expires (a timer, so a page left
 * open renews too) the server's new key is asked for with the live session and `rekey` moves what the
 * old one sealed under the new one, so files kept near the end of a key's life are not lost with it.
 */
export function holdJournalKey(options: {
  source: JournalKeySource;
  subtle: Subtle;
  owner: string;
  first: JournalKey;
  /** Its timers must not keep a host process alive (the kiosk's main unrefs them). */
  clock: Clock;
  rekey: (from: JournalKey, to: JournalKey) => Promise<void>;
}): HeldJournalKey {
  const { clock } = options;
  const now = () => clock.now();
  let held = options.first;
  let renewing: Promise<JournalKey> | null = null;
  let timer: unknown;
  let stopped = false;
  let retry = RETRY_MS;

  const schedule = (delay: number) => {
    clock.clearTimeout(timer);
    if (stopped) return;
    timer = clock.setTimeout(
      () => void renew().catch(() => undefined),
      Math.min(MAX_DELAY_MS, Math.max(0, delay)),
    );
  };

  const swap = async (): Promise<JournalKey> => {
    const next = await fetchJournalKey(options.source, options.subtle, options.owner);
    if (stopped) throw new Error('This journal was closed.');
    if (next.id !== held.id) await options.rekey(held, next).catch(() => undefined);
    held = next;
    return held;
  };
  const renew = (): Promise<JournalKey> =>
    (renewing ??= swap().finally(() => {
      renewing = null;
      const left = held.expiresAt - now();
      retry = left > 0 ? RETRY_MS : Math.min(retry * 2, MAX_RETRY_MS);
      schedule(left > 0 ? left : retry);
    }));

  schedule(held.expiresAt - now());
  return {
    current: async () => (renewing ? renewing : now() < held.expiresAt ? held : renew()),
    latest: () => held,
    stop() {
      stopped = true;
      clock.clearTimeout(timer);
    },
  };
}
