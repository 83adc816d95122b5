/**
 * A software passkey authenticator for the server tests only: it answers the server's ceremony
 * options the way a browser with a platform authenticator does (attestation `none`, ES256), and can
 * be told to lie (another origin or RP id, no user verification) so the tests see the server refuse.
 * The server never uses this: it checks answers with `@simplewebauthn/server`. The few lines of CBOR
 * here encode only what an authenticator sends, so the tests do not depend on the library they test.
 */
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor> | Cbor[];

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 256) return Buffer.from([(major << 5) | 24, n]);
  const b = Buffer.alloc(3);
  b[0] = (major << 5) | 25;
  b.writeUInt16BE(n, 1);
  return b;
}

function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string')
    return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const parts = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer | Uint8Array) => Buffer.from(data).toString('base64url');

/** What an answer may fake. */
export interface Lies {
  origin?: string;
  rpId?: string;
  /** Leave the user-verified flag off (a security key without PIN, a skipped fingerprint). */
  noUserVerification?: boolean;
}

interface Held {
  id: Buffer;
  key: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

interface CreateOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

interface GetOptions {
  challenge: string;
  rpId?: string;
}

export class SoftAuthenticator {
  readonly held: Held[] = [];

  constructor(readonly origin: string) {}

  private flags(lies: Lies, extra: number): number {
    return 0x01 | (lies.noUserVerification ? 0 : 0x04) | extra;
  }

  private clientData(type: string, challenge: string, lies: Lies): Buffer {
    return Buffer.from(
      JSON.stringify({ type, challenge, origin: lies.origin ?? this.origin, crossOrigin: false }),
    );
  }

  /** `navigator.credentials.create()`: a new ES256 passkey, as `RegistrationResponseJSON`. */
  create(options: CreateOptions, lies: Lies = {}) {
    const rpId = lies.rpId ?? options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const id = sha256(`${Math.random()}${Date.now()}`).subarray(0, 16);
    const cose = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([this.flags(lies, 0x40)]),
      Buffer.alloc(4),
      Buffer.alloc(16),
      idLength,
      id,
      cose,
    ]);
    this.held.push({ id, key: privateKey, rpId, userHandle: options.user.id, counter: 0 });
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge, lies)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** `navigator.credentials.get()` with the newest (or the given) passkey, as `AuthenticationResponseJSON`. */
  get(options: GetOptions, lies: Lies = {}, which = this.held.length - 1) {
    const held = this.held[which];
    if (!held) throw new Error('no passkey held');
    held.counter += 1;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(held.counter);
    const authData = Buffer.concat([
      sha256(lies.rpId ?? held.rpId),
      Buffer.from([this.flags(lies, 0)]),
      count,
    ]);
    const clientData = this.clientData('webauthn.get', options.challenge, lies);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), held.key);
    return {
      id: b64url(held.id),
      rawId: b64url(held.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: held.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
