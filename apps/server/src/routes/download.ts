import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { documentFileName, zipFileName } from '@vita-docs/core/contract';
import { audit } from '../audit.js';
import { clientDocTypes, clientFor } from '../clients/clients.js';
import { listDocuments } from '../documents/documents.js';
import { documentRef } from '../storage/keys.js';
import { StorageError } from '../storage/types.js';
import { settleArrived } from '../documents/lifecycle.js';
import { badRequest } from '../http/errors.js';
import { userRoute } from '../http/route.js';
import type { Services } from '../services.js';
import { createZipNamer } from '../zip/names.js';
import { startZipStream, ZipSizeMismatch, type ZipEntry } from '../zip/writer.js';

/** The note added to an archive when documents had to be left out. */
const MISSING_FILES_NAME = 'MISSING-FILES.txt';
const MISSING_FILES_NOTE =
  'These documents could not be included in this download. Ask an administrator to check the server log.';
const DAMAGED_NOTE = ' (damaged: it failed its integrity check on the server)';

/** What `MISSING-FILES.txt` says after the name of a file left out, by why. */
const LEFT_OUT_NOTES = {
  gone: ' (no longer in storage)',
  damaged: DAMAGED_NOTE,
  mismatch: ' (changed or damaged since it was uploaded)',
} as const;

/**
 * Why a file that could not be opened is left out of the archive, or null when the download must
 * fail instead. Deleted between listing and zipping (meant to go), bytes that no longer match the
 * index, or a file that fails its integrity check (logged by the store): the rest of the archive is
 * still worth having. Only a store that says the file is not there has lost it: one that does not
 * answer, or refuses the server (a wrong secret key), has judged nothing, and naming every file as
 * gone would be false.
 */
function whyLeftOut(err: unknown): keyof typeof LEFT_OUT_NOTES | null {
  if (err instanceof ZipSizeMismatch) return 'mismatch';
  if (!(err instanceof StorageError)) return null;
  if (err.kind === 'not_found') return 'gone';
  if (err.kind === 'damaged') return 'damaged';
  if (err.kind === 'conflict') return 'mismatch';
  return null;
}

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
    await settleArrived(services, client.id);
    // Documents of the selected types, by the type's place in the selection, then in list order.
    const docs = (await listDocuments(db, client.id))
      .filter((d) => rank.has(d.docType))
      .sort((a, b) => (rank.get(a.docType) ?? 0) - (rank.get(b.docType) ?? 0) || a.order - b.order);
    const namer = createZipNamer();
    const missing: string[] = [];
    const keyOf = new Map<string, string>();
    const entries = async function* (): AsyncGenerator<ZipEntry> {
      for (const doc of docs) {
        // Names are fixed at start (`fixDocumentNames`); typed here too, so no entry is ever runnable.
        const name = namer.name(doc.docType, documentFileName(doc.filename, doc.contentType) ?? doc.filename);
        keyOf.set(name, doc.key);
        yield {
          name,
          size: doc.size,
          crc32: doc.crc32,
          mtime: doc.storedAt,
          open: () => store.open(doc.key, { version: doc.version }),
        };
      }
      // Anything left out is named inside the archive: never a silently incomplete download.
      if (missing.length > 0) {
        const text = Buffer.from(`${MISSING_FILES_NOTE}\r\n\r\n${missing.join('\r\n')}\r\n`, 'utf8');
        yield {
          name: namer.topLevel(MISSING_FILES_NAME),
          mtime: new Date(),
          open: async () => Readable.from([text]),
        };
      }
    };
    await audit(db, {
      actor: user.email,
      action: 'client.download-all',
      clientId: client.id,
      keys: docs.map((d) => d.key),
      ip: request.ip,
      detail: query.include === undefined ? 'all types' : selected.join(' | '),
    });
    // Logs name documents by reference (client id and upload number), never by file name.
    const document = (entry: ZipEntry) => documentRef(keyOf.get(entry.name) ?? '');
    // Started before any header goes out: a store that refuses the first file it is asked for fails
    // the download with its status (503), not a 200 archive. After that, see `startZipStream`.
    const archive = await startZipStream(entries(), {
      onOpenError: (err, entry) => {
        const why = whyLeftOut(err);
        if (why === null) {
          log.error({ err, document: document(entry) }, 'file store failed while zipping; download stopped');
          return false;
        }
        if (why === 'mismatch')
          log.error(
            { document: document(entry), reason: err instanceof Error ? err.message : '' },
            'stored file does not match its record; left out of the ZIP',
          );
        else if (why === 'damaged')
          log.warn({ document: document(entry) }, 'damaged file left out of the ZIP');
        else log.warn({ document: document(entry) }, 'file vanished while zipping; left out');
        missing.push(`${entry.name}${LEFT_OUT_NOTES[why]}`);
        return true;
      },
      onEntryError: (err, entry) => {
        // A later chunk failed its check after the entry had started: left out all the same.
        if (!(err instanceof StorageError && err.kind === 'damaged')) return false;
        log.warn({ document: document(entry) }, 'damaged file left out of the ZIP part-way');
        missing.push(`${entry.name}${DAMAGED_NOTE}`);
        return true;
      },
    });
    return (
      reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${zipFileName(client.id)}"`)
        .header('cache-control', 'private, no-store')
        // Lets a client show progress: the archive is these bytes plus ~100 bytes of headers per file.
        .header('x-content-bytes', String(docs.reduce((sum, d) => sum + d.size, 0)))
        .header('x-file-count', String(docs.length))
        .send(archive)
    );
  });
}
