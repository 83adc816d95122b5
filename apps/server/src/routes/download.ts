import type { FastifyInstance } from 'fastify';
import { keyOrder, parseDocKey, zipFileName } from '@vita-docs/core';
import { audit } from '../audit.js';
import { clientDocTypes, clientFor, docPrefix } from '../clients/clients.js';
import { badRequest } from '../http/errors.js';
import { userRoute } from '../http/route.js';
import type { Services } from '../services.js';
import { createZipNamer } from '../zip/names.js';
import { createZipStream, type ZipEntry } from '../zip/writer.js';

/**
 * Splits `include` into category names. Names may themselves contain commas (a note like
 * "W-2 (Acme, Inc.)"), so pieces are re-joined until they form a known name.
 */
function parseInclude(include: string, known: readonly string[]): string[] {
  const names = new Set(known);
  const picked: string[] = [];
  let pending = '';
  for (const piece of include.split(',')) {
    pending = pending ? `${pending},${piece}` : piece;
    if (names.has(pending.trim())) {
      picked.push(pending.trim());
      pending = '';
    }
  }
  if (pending.trim()) throw badRequest(`Unknown document type “${pending.trim().slice(0, 100)}”.`);
  return picked;
}

export function downloadRoutes(app: FastifyInstance, services: Services): void {
  const { db, store, log } = services;

  userRoute(app, 'downloadAll', async ({ user, params, query, request, reply }) => {
    const client = await clientFor(db, user, params.id);
    const types = await clientDocTypes(db, client.id);
    const selected = query.include === undefined ? types : parseInclude(query.include, types);
    const rank = new Map(selected.map((t, i) => [t, i]));
    // Only document keys of a selected type, each with its type's place in the selection.
    const files = (await store.list(docPrefix(client.id)))
      .flatMap((o) => {
        const parts = parseDocKey(o.key);
        const typeRank = parts ? rank.get(parts.docType) : undefined;
        return parts && typeRank !== undefined ? [{ o, parts, typeRank }] : [];
      })
      .sort((a, b) => a.typeRank - b.typeRank || keyOrder(a.o.key) - keyOrder(b.o.key));
    const namer = createZipNamer();
    const entries: ZipEntry[] = files.map(({ o, parts }) => ({
      name: namer.name(parts.docType, parts.filename),
      size: o.size,
      mtime: o.lastModified,
      open: () => store.read(o.key),
    }));
    await audit(db, {
      actor: user.email,
      action: 'client.download-all',
      clientId: client.id,
      keys: files.map((f) => f.o.key),
      ip: request.ip,
      detail: query.include === undefined ? 'all types' : selected.join(' | '),
    });
    const archive = createZipStream(entries, {
      // A file deleted between listing and zipping was meant to go: leave it out, keep the rest.
      onOpenError: (err, entry) => {
        log.warn({ err, entry: entry.name }, 'file vanished while zipping; left out');
        return true;
      },
    });
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${zipFileName(client.id)}"`)
      .header('cache-control', 'private, no-store')
      // Lets a client show progress: the archive is these bytes plus ~100 bytes of headers per file.
      .header('x-content-bytes', String(files.reduce((sum, f) => sum + f.o.size, 0)))
      .header('x-file-count', String(files.length))
      .send(archive);
  });
}
