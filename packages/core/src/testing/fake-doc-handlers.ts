/** The fake server's documents: presign, the direct PUT's completion, listing, delete and rename. */
import type { DocItem } from '../api/schemas.js';
import { applyRenameRule, buildDocKey, documentFileName, parseDocKey } from '../domain/files.js';
import { fileTooLargeMessage, messages } from '../domain/messages.js';
import { sortByKeyOrder } from '../flows/file-list/file-list.js';
import type { FakeWorld } from './fake-api.js';
import { fail, findClient } from './fake-handlers.js';
import type { Handlers } from './fake-handlers.js';

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

const docsOf = (world: FakeWorld, id: string, docType: string): DocItem[] =>
  [...world.docs.values()]
    .map((d) => d.item)
    .filter((i) => i.key.startsWith(`${id}/`) && i.docType === docType);

/**
 * Items of one client as listings show them: with the SHA-256 of their bytes and, when another file
 * of the client (in any category) has the same bytes, the earliest such file by the key's number
 * prefix.
 */
async function describe(world: FakeWorld, clientId: string, items: readonly DocItem[]): Promise<DocItem[]> {
  const own = sortByKeyOrder(
    [...world.docs.values()].map((d) => d.item).filter((i) => i.key.startsWith(`${clientId}/`)),
  );
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

/** The handlers over one world. */
export function fakeDocHandlers(world: FakeWorld): Handlers {
  const client = (id: string) => findClient(world, id);
  return {
    async presignUpload({ params, body }) {
      client(params.id);
      if (body.size !== undefined && body.size > world.maxUploadBytes)
        throw fail(413, fileTooLargeMessage(world.maxUploadBytes));
      const filename = documentFileName(body.filename.trim(), body.contentType) ?? 'file.pdf';
      // Like the server: the same bytes under the same name in the category are already there.
      if (body.sha256 !== undefined && !body.replaces) {
        for (const [key, doc] of world.docs) {
          const same =
            parseDocKey(key)?.clientId === params.id &&
            doc.item.docType === body.docType &&
            doc.item.filename === filename;
          if (same && (await sha256Hex(doc.bytes)) === body.sha256) {
            return { url: '', key, expiresAt: new Date(0).toISOString(), alreadyStored: true as const };
          }
        }
      }
      const key = buildDocKey(params.id, body.docType, world.nextOrder++, filename);
      const url = `https://uploads.invalid/${world.uploads.size + world.docs.size + 1}/${encodeURIComponent(key)}`;
      const item: DocItem = {
        key,
        filename,
        size: 0,
        docType: body.docType,
        contentType: body.contentType,
        lastModified: new Date(0).toISOString(),
      };
      const declared = {
        ...(body.size !== undefined ? { size: body.size } : {}),
        ...(body.sha256 !== undefined ? { sha256: body.sha256 } : {}),
      };
      // Like S3: the checksum is signed into the URL, so the PUT must carry it.
      const headers: Record<string, string> = body.sha256
        ? { 'x-amz-checksum-sha256': hexToBase64(body.sha256) }
        : {};
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
      if (
        (size !== undefined && size !== doc.bytes.length) ||
        (sha256 !== undefined && sha256 !== (await sha256Hex(doc.bytes)))
      ) {
        world.docs.delete(body.key);
        throw fail(400, 'The file that arrived is not the one announced. Please upload it again.');
      }
      const [item] = await describe(world, parts.clientId, [doc.item]);
      if (!item) throw fail(404, 'File not found.');
      return { ok: true, item };
    },
    listDocs: async ({ params, query }) => ({
      items: await describe(world, params.id, docsOf(world, params.id, query.docType)),
    }),
    deleteDocs({ body }) {
      let deleted = 0;
      for (const key of body.keys) if (world.docs.delete(key)) deleted += 1;
      return { ok: true, deleted };
    },
    ...fakeMoveHandlers(world),
  };
}

/** Renaming a file, and moving it to another category. */
function fakeMoveHandlers(world: FakeWorld): Handlers {
  return {
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
    moveDoc({ body }) {
      const doc = world.docs.get(body.key);
      const parts = parseDocKey(body.key);
      if (!doc || !parts) throw fail(404, 'File not found.');
      const newKey = buildDocKey(parts.clientId, body.docType, parts.order, doc.item.filename);
      world.docs.delete(body.key);
      world.docs.set(newKey, { bytes: doc.bytes, item: { ...doc.item, key: newKey, docType: body.docType } });
      return { ok: true, newKey, docType: body.docType };
    },
  };
}
