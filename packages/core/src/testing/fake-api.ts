/**
 * An in-memory stand-in for the server, typed as the real {@link ApiClient}, for tests of flows and
 * screens. It models accounts, sign-in codes, clients and documents closely enough to drive every
 * flow; calls it does not model fail with 501. Any call can be made to fail or wait.
 */
import type { ApiClient } from '../api/client.js';
import { endpoints } from '../api/endpoints.js';
import type { EndpointName } from '../api/endpoints.js';
import { ApiError } from '../api/errors.js';
import type { PutFile } from '../api/upload.js';
import { buildDocKey, safeFileName } from '../domain/files.js';
import type { Client, DocItem, SeasonSummary, User } from '../api/schemas.js';
import { fakeAdminHandlers } from './fake-admin-handlers.js';
import { fakeDocHandlers } from './fake-doc-handlers.js';
import { fakeHandlers } from './fake-handlers.js';
import { createTestUser } from './flow-helpers.js';

/** One recorded call. */
export interface FakeCall {
  name: EndpointName;
  args: unknown;
}

/** The fake's data, open for tests to arrange and inspect. */
export interface FakeWorld {
  users: Map<string, { user: User; pin: string }>;
  clients: Map<string, Client>;
  /**
   * Stored files. `declared` is what the presign announced (size, SHA-256), checked by
   * `completeUpload`. Items are kept without `sha256`/`duplicateOf`: listings compute those.
   */
  docs: Map<string, { item: DocItem; bytes: Uint8Array; declared?: Declared }>;
  /** Emailed codes, newest last. */
  outbox: { to: string; purpose: 'login' | 'forgot'; code: string }[];
  /** When false, code mails "could not be sent" (`emailSent: false`). */
  emailDelivery: boolean;
  session: { email: string } | null;
  /** The email a forgot-password code was verified for, until the reset. */
  resetFor: string | null;
  /** Presigned upload URLs not used yet, with what the presign announced and the headers it signed. */
  uploads: Map<string, { key: string; item: DocItem; declared: Declared; headers: Record<string, string> }>;
  /** Source of the numeric key prefixes; increases by one per upload. */
  nextOrder: number;
  /** The largest upload (`GET /config`); a presign declaring more is refused with 413. 25 MB by default. */
  maxUploadBytes: number;
  /** The retention rule's days; null (off) by default. */
  retentionDays: number | null;
  /** What the server says the rule will touch (the fake does not work it out). */
  retentionReach: { clients: number; nextDeletionOn: string | null };
  /** The season (2026 by default) and, once closed, what its close did. */
  season: { year: number; closed: SeasonSummary | null };
}

/** The size and SHA-256 a presign announced, when it did. */
interface Declared {
  size?: number;
  sha256?: string;
}

/** The fake server: an {@link ApiClient} plus controls. */
export interface FakeApi extends ApiClient {
  readonly world: FakeWorld;
  readonly calls: FakeCall[];
  /** Names of the calls made so far, in order. */
  callNames(): EndpointName[];
  /** The next call of `name` fails with `error` (by default a 500 "Server error"). */
  failNext(name: EndpointName, error?: Error): void;
  /** The next call of `name` waits until `release()`; use it to look at in-between states. */
  hold(name: EndpointName): { release(): void };
  /**
   * The direct-upload transport for presigned URLs of this fake. Reports progress at 0, half and all.
   * Like S3, it answers 403 when a header the presign signed is missing or different.
   */
  putFile: PutFile;
  /** The next PUT of a file with this name answers `status` with `body`. */
  failUpload(filename: string, status: number, body: string): void;
  addUser(user: Partial<User> & { email: string; pin?: string }): User;
  addClient(client: Partial<Client> & { firstName: string; createdBy: string | null }): Client;
  /** Stores a file directly; without `bytes`, a small PDF of its own (so no two are duplicates). */
  addDoc(
    clientId: string,
    docType: string,
    filename: string,
    options?: { order?: number; bytes?: Uint8Array },
  ): DocItem;
  /** The newest code mailed to `email`. */
  lastCode(email: string): string | undefined;
}

const ISO = '2025-01-15T12:00:00.000Z';

/** A server with nobody and nothing on it. */
function emptyWorld(): FakeWorld {
  return {
    users: new Map(),
    clients: new Map(),
    docs: new Map(),
    outbox: [],
    emailDelivery: true,
    session: null,
    resetFor: null,
    uploads: new Map(),
    nextOrder: 1_700_000_000_000,
    maxUploadBytes: 25 * 1024 * 1024,
    retentionDays: null,
    retentionReach: { clients: 0, nextDeletionOn: null },
    season: { year: 2026, closed: null },
  };
}

/**
 * The direct PUT to this fake's presigned URLs: progress at 0, half and all; like S3, 403 when a
 * header the presign signed is missing or different.
 */
function fakePutFile(world: FakeWorld, failures: Map<string, { status: number; body: string }>): PutFile {
  return async (url, file, contentType, onProgress, headers = {}) => {
    const upload = world.uploads.get(url);
    if (!upload) return { status: 403, ok: false, body: 'Unknown or expired upload URL' };
    const sent = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    if (Object.entries(upload.headers).some(([name, value]) => sent.get(name) !== value)) {
      return { status: 403, ok: false, body: 'SignatureDoesNotMatch' };
    }
    const failure = failures.get(file.name);
    onProgress?.(0, file.size);
    if (failure) {
      failures.delete(file.name);
      return { status: failure.status, ok: false, body: failure.body };
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    onProgress?.(Math.floor(file.size / 2), file.size);
    world.uploads.delete(url);
    world.docs.set(upload.key, {
      item: { ...upload.item, size: bytes.length, contentType },
      bytes,
      declared: upload.declared,
    });
    onProgress?.(file.size, file.size);
    return { status: 200, ok: true, body: '' };
  };
}

/** Arranges the fake's world: accounts, clients and stored files. */
function arrange(world: FakeWorld): Pick<FakeApi, 'addUser' | 'addClient' | 'addDoc'> {
  let clientCount = 0;
  return {
    addUser({ pin = 'correct horse', ...fields }: Partial<User> & { email: string; pin?: string }) {
      const user = createTestUser({ ...fields, email: fields.email.toLowerCase() });
      world.users.set(user.email, { user, pin });
      return user;
    },
    addClient(fields: Partial<Client> & { firstName: string; createdBy: string | null }) {
      clientCount += 1;
      const client: Client = {
        clientId: `client${String(clientCount).padStart(4, '0')}`,
        lastName: 'Client',
        email: `client${clientCount}@example.org`,
        phone: '555-010-0000',
        hasPin: false,
        createdAt: ISO,
        submittedAt: null,
        ...fields,
      };
      world.clients.set(client.clientId, client);
      return client;
    },
    addDoc(
      clientId: string,
      docType: string,
      filename: string,
      options: { order?: number; bytes?: Uint8Array } = {},
    ) {
      const name = safeFileName(filename);
      const key = buildDocKey(clientId, docType, options.order ?? world.nextOrder++, name);
      const bytes = options.bytes ?? new TextEncoder().encode(`%PDF-1.4\n%${key}\n`);
      const item: DocItem = {
        key,
        filename: name,
        size: bytes.length,
        docType,
        contentType: 'application/pdf',
        lastModified: ISO,
      };
      world.docs.set(key, { item, bytes });
      return item;
    },
  };
}

/** Creates an empty fake server. */
export function createFakeApi(): FakeApi {
  const world = emptyWorld();
  const calls: FakeCall[] = [];
  const failures = new Map<EndpointName, Error[]>();
  const holds = new Map<EndpointName, Promise<void>[]>();
  const uploadFailures = new Map<string, { status: number; body: string }>();
  const handlers = { ...fakeHandlers(world), ...fakeDocHandlers(world), ...fakeAdminHandlers(world) };

  const api = {} as Record<EndpointName, (args?: unknown) => Promise<unknown>>;
  for (const name of Object.keys(endpoints) as EndpointName[]) {
    api[name] = async (args?: unknown) => {
      calls.push({ name, args });
      const held = holds.get(name)?.shift();
      if (held) await held;
      const failure = failures.get(name)?.shift();
      if (failure) throw failure;
      const handler = handlers[name] as ((args: unknown) => unknown) | undefined;
      if (!handler) throw new ApiError('http', 501, `${name} is not modelled by the fake API`);
      // Copies, so a test holding a result never sees later changes and the fake never sees the test's.
      return structuredClone(await handler(args ?? {}));
    };
  }

  const putFile = fakePutFile(world, uploadFailures);

  const fake: FakeApi = Object.assign(api as unknown as ApiClient, {
    world,
    calls,
    callNames: () => calls.map((c) => c.name),
    failNext(name: EndpointName, error: Error = new ApiError('http', 500, 'Server error')) {
      failures.set(name, [...(failures.get(name) ?? []), error]);
    },
    hold(name: EndpointName) {
      let release!: () => void;
      holds.set(name, [...(holds.get(name) ?? []), new Promise<void>((resolve) => (release = resolve))]);
      return { release: () => release() };
    },
    putFile,
    failUpload(filename: string, status: number, body: string) {
      uploadFailures.set(filename, { status, body });
    },
    ...arrange(world),
    lastCode: (email: string) => world.outbox.filter((m) => m.to === email.toLowerCase()).at(-1)?.code,
  });
  return fake;
}
