/** The behaviour of the fake server, one handler per modelled call. */
import type { EndpointArgs } from '../api/client.js';
import type { EndpointName, Endpoints } from '../api/endpoints.js';
import { ApiError } from '../api/errors.js';
import type { Client, DocItem, User } from '../api/schemas.js';
import { applyRenameRule, buildDocKey, documentFileName, parseDocKey } from '../domain/files.js';
import { fileTooLargeMessage, messages } from '../domain/messages.js';
import { sortByKeyOrder } from '../flows/file-list/file-list.js';
import type { FakeWorld } from './fake-api.js';

type Handlers = { [K in EndpointName]?: (args: EndpointArgs<Endpoints[K]>) => unknown };

const ok = { ok: true } as const;
const fail = (status: number, message: string) => new ApiError('http', status, message);

/** SHA-256 of some bytes as lowercase hex, remembered per byte array (stored bytes never change). */
const digests = new WeakMap<Uint8Array, Promise<string>>();
function sha256Hex(bytes: Uint8Array): Promise<string> {
  let digest = digests.get(bytes);
  if (!digest) {
    digest = globalThis.crypto.subtle
      .digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)
      .then((hash) => Array.from(new Uint8Array(hash), (b) => b.toString(16).padStart(2, '0')).join(''));
    digests.set(bytes, digest);
  }
  return digest;
}

/** A hex SHA-256 as base64, the way S3's `x-amz-checksum-sha256` header carries it. */
const hexToBase64 = (hex: string): string =>
  btoa(String.fromCharCode(...(hex.match(/../g) ?? []).map((pair) => parseInt(pair, 16))));

/** The handlers over one world. */
export function fakeHandlers(world: FakeWorld): Handlers {
  let codes = 0;
  const pending = new Map<string, string>(); // `${purpose}:${email}` → code

  function mail(to: string, purpose: 'login' | 'forgot'): { ok: true; emailSent: boolean } {
    if (!world.emailDelivery) return { ok: true, emailSent: false };
    codes += 1;
    const code = String(100_000 + codes * 7919).slice(-6);
    pending.set(`${purpose}:${to}`, code);
    world.outbox.push({ to, purpose, code });
    return { ok: true, emailSent: true };
  }

  function checkCode(purpose: 'login' | 'forgot', email: string, code: string): void {
    const expected = pending.get(`${purpose}:${email}`);
    if (!expected || expected !== code.replace(/\s+/g, '')) throw fail(400, 'That code is not valid. Request a new one.');
    pending.delete(`${purpose}:${email}`);
  }

  function me(): User {
    const account = world.session && world.users.get(world.session.email);
    if (!account) throw fail(401, 'Please sign in.');
    return account.user;
  }

  const client = (id: string): Client => {
    const found = world.clients.get(id);
    if (!found) throw fail(404, 'Client not found.');
    return found;
  };
  const docsOf = (id: string, docType: string): DocItem[] =>
    [...world.docs.values()].map((d) => d.item).filter((i) => i.key.startsWith(`${id}/`) && i.docType === docType);

  /**
   * Items of one client as listings show them: with the SHA-256 of their bytes and, when another file
   * of the client (in any category) has the same bytes, the earliest such file by the key's number
   * prefix.
   */
  async function describe(clientId: string, items: readonly DocItem[]): Promise<DocItem[]> {
    const own = sortByKeyOrder([...world.docs.values()].map((d) => d.item).filter((i) => i.key.startsWith(`${clientId}/`)));
    const digestOf = new Map<string, string>();
    for (const item of own) {
      const doc = world.docs.get(item.key);
      if (doc) digestOf.set(item.key, await sha256Hex(doc.bytes));
    }
    return items.map((item) => {
      const sha256 = digestOf.get(item.key);
      if (!sha256) return item;
      const twin = own.find((other) => other.key !== item.key && digestOf.get(other.key) === sha256);
      const duplicateOf = twin && { key: twin.key, filename: twin.filename, docType: twin.docType };
      return { ...item, sha256, ...(duplicateOf ? { duplicateOf } : {}) };
    });
  }

  return {
    loginInit({ body }) {
      const email = body.email.trim().toLowerCase();
      const account = world.users.get(email);
      if (!account || account.pin !== body.pin) throw fail(401, 'Email or Password PIN is incorrect.');
      if (!account.user.approved) throw fail(403, 'Your account is waiting for approval.');
      return mail(email, 'login');
    },
    loginVerify({ body }) {
      const email = body.email.trim().toLowerCase();
      checkCode('login', email, body.code);
      const account = world.users.get(email);
      if (!account) throw fail(401, 'Email or Password PIN is incorrect.');
      world.session = { email };
      return { ok: true, user: account.user };
    },
    loginResend: ({ body }) => mail((body.email ?? '').trim().toLowerCase(), 'login'),
    me: () => ({ user: me() }),
    config() {
      me();
      return { maxUploadBytes: world.maxUploadBytes };
    },
    logout() {
      world.session = null;
      return ok;
    },
    forgotInit: ({ body }) => mail(body.email.trim().toLowerCase(), 'forgot'),
    forgotResend: ({ body }) => mail((body.email ?? '').trim().toLowerCase(), 'forgot'),
    forgotVerify({ body }) {
      const email = body.email.trim().toLowerCase();
      checkCode('forgot', email, body.code);
      world.resetFor = email;
      return ok;
    },
    forgotReset({ body }) {
      const account = world.resetFor && world.users.get(world.resetFor);
      if (!account) throw fail(400, 'Verify your code first.');
      if (body.newPin1 !== body.newPin2) throw fail(400, 'The two Password PINs do not match.');
      account.pin = body.newPin1;
      world.resetFor = null;
      return ok;
    },
    listClients() {
      const user = me();
      return { items: [...world.clients.values()].filter((c) => user.isAdmin || c.createdBy === user.email) };
    },
    listAllClients: () => ({ items: [...world.clients.values()] }),
    deleteClient({ body }) {
      const id = body.clientId ?? [...world.clients.values()].find((c) => c.email === body.clientEmail)?.clientId;
      if (!id || !world.clients.delete(id)) throw fail(404, 'Client not found.');
      for (const key of world.docs.keys()) if (key.startsWith(`${id}/`)) world.docs.delete(key);
      return ok;
    },
    clientMeta: ({ params }) => ({ createdBy: client(params.id).createdBy, clientEmail: client(params.id).email }),
    volunteers: () => ({
      items: [...world.users.values()]
        .map((a) => a.user)
        .filter((u) => u.approved)
        .map(({ email, firstName, lastName, role, isAdmin }) => ({ email, firstName, lastName, role, isAdmin })),
    }),
    reassignClient({ body }) {
      const found = body.clientId ? client(body.clientId) : undefined;
      if (!found || found.createdBy !== body.from) throw fail(409, 'The client has changed; reload and try again.');
      const updated = { ...found, createdBy: body.newVolunteerEmail, previousCreatedBy: null };
      world.clients.set(found.clientId, updated);
      return { ok: true, client: updated };
    },
    reassignOrphan({ body }) {
      const found = client(body.clientId);
      const updated = { ...found, createdBy: body.newVolunteerEmail, previousCreatedBy: null };
      world.clients.set(found.clientId, updated);
      return { ok: true, client: updated };
    },
    async presignUpload({ params, body }) {
      client(params.id);
      if (body.size !== undefined && body.size > world.maxUploadBytes) throw fail(413, fileTooLargeMessage(world.maxUploadBytes));
      const filename = documentFileName(body.filename.trim(), body.contentType) ?? 'file.pdf';
      // Like the server: the same bytes under the same name in the category are already there.
      if (body.sha256 !== undefined && !body.replaces) {
        for (const [key, doc] of world.docs) {
          const same =
            parseDocKey(key)?.clientId === params.id && doc.item.docType === body.docType && doc.item.filename === filename;
          if (same && (await sha256Hex(doc.bytes)) === body.sha256) {
            return { url: '', key, expiresAt: new Date(0).toISOString(), alreadyStored: true as const };
          }
        }
      }
      const key = buildDocKey(params.id, body.docType, world.nextOrder++, filename);
      const url = `https://uploads.invalid/${world.uploads.size + world.docs.size + 1}/${encodeURIComponent(key)}`;
      const item: DocItem = { key, filename, size: 0, docType: body.docType, contentType: body.contentType, lastModified: new Date(0).toISOString() };
      const declared = {
        ...(body.size !== undefined ? { size: body.size } : {}),
        ...(body.sha256 !== undefined ? { sha256: body.sha256 } : {}),
      };
      // Like S3: the checksum is signed into the URL, so the PUT must carry it.
      const headers: Record<string, string> = body.sha256 ? { 'x-amz-checksum-sha256': hexToBase64(body.sha256) } : {};
      world.uploads.set(url, { key, item, declared, headers });
      return { url, key, expiresAt: new Date(0).toISOString(), ...(body.sha256 ? { headers } : {}) };
    },
    async completeUpload({ body }) {
      const parts = parseDocKey(body.key);
      if (!parts) throw fail(400, 'That file key is not valid.');
      client(parts.clientId);
      const doc = world.docs.get(body.key);
      if (!doc) throw fail(404, 'File not found.');
      const { size, sha256 } = doc.declared ?? {};
      if ((size !== undefined && size !== doc.bytes.length) || (sha256 !== undefined && sha256 !== (await sha256Hex(doc.bytes)))) {
        world.docs.delete(body.key);
        throw fail(400, 'The file that arrived is not the one announced. Please upload it again.');
      }
      const [item] = await describe(parts.clientId, [doc.item]);
      if (!item) throw fail(404, 'File not found.');
      return { ok: true, item };
    },
    listDocs: async ({ params, query }) => ({ items: await describe(params.id, docsOf(params.id, query.docType)) }),
    deleteDocs({ body }) {
      let deleted = 0;
      for (const key of body.keys) if (world.docs.delete(key)) deleted += 1;
      return { ok: true, deleted };
    },
    renameDoc({ body }) {
      const doc = world.docs.get(body.key);
      const parts = parseDocKey(body.key);
      if (!doc || !parts) throw fail(404, 'File not found.');
      const requested = applyRenameRule(doc.item.filename, body.filename);
      const filename = requested === null ? null : documentFileName(requested, doc.item.contentType);
      if (filename === null) throw fail(400, messages.renameEmpty);
      const newKey = buildDocKey(parts.clientId, parts.docType, parts.order, filename);
      world.docs.delete(body.key);
      world.docs.set(newKey, { bytes: doc.bytes, item: { ...doc.item, key: newKey, filename } });
      return { ok: true, newKey, filename };
    },
    listUsers: ({ query }) => ({
      items: [...world.users.values()].map((a) => a.user).filter((u) => query?.status !== 'pending' || !u.approved),
    }),
    deleteUser({ params }) {
      const account = world.users.get(params.email.toLowerCase());
      if (!account) throw fail(404, 'User not found.');
      if (account.user.isAdmin) throw fail(403, 'Admins cannot be deleted.');
      world.users.delete(account.user.email);
      for (const c of world.clients.values()) {
        if (c.createdBy === account.user.email) world.clients.set(c.clientId, { ...c, createdBy: null, previousCreatedBy: account.user.email });
      }
      return ok;
    },
  };
}
