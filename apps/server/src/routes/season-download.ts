import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { canManageAllUsers, documentFileName } from '@vita-docs/core/contract';
import { audit } from '../audit.js';
import { listDocuments } from '../documents/documents.js';
import { forbidden } from '../http/errors.js';
import { actorOf, userRoute } from '../http/route.js';
import { clientsWithDocuments, currentSeason } from '../season.js';
import type { Services } from '../services.js';
import { documentRef } from '../storage/keys.js';
import { createZipNamer, safeSegment } from '../zip/names.js';
import { startZipStream, ZipSizeMismatch, type ZipEntry } from '../zip/writer.js';
import { StorageError } from '../storage/types.js';

/** An archive entry that remembers its storage key, for the log. */
type KeyedEntry = ZipEntry & { key: string };

/**
 * `GET /admin/season/download`: every client's documents in one streamed ZIP, a folder per client
 * (`Lovelace, Ada (id)/Banking Info/statement.pdf`), for keeping before the season close deletes
 * them (docs/behaviour.md#season-close). Entries are produced as the archive is written, one client's
 * listing at a time, so hundreds of clients cost no more memory than one.
 */
export function seasonDownloadRoute(app: FastifyInstance, services: Services): void {
  const { db, store, log } = services;
  userRoute(app, 'seasonDownload', async ({ user, request, reply }) => {
    if (!canManageAllUsers(actorOf(user))) throw forbidden();
    const year = currentSeason(new Date());
    const missing: string[] = [];
    const folders = createZipNamer();
    const entries = async function* (): AsyncGenerator<ZipEntry> {
      for await (const client of clientsWithDocuments(db)) {
        const folder = folders.topLevel(
          safeSegment(`${client.last_name}, ${client.first_name} (${client.id})`, client.id),
        );
        const namer = createZipNamer();
        for (const doc of await listDocuments(db, client.id)) {
          const name = `${folder}/${namer.name(doc.docType, documentFileName(doc.filename, doc.contentType) ?? doc.filename)}`;
          const entry: KeyedEntry = {
            key: doc.key,
            name,
            size: doc.size,
            crc32: doc.crc32,
            mtime: doc.storedAt,
            open: () => store.open(doc.key, { version: doc.version }),
          };
          yield entry;
        }
      }
      if (missing.length > 0) {
        const text = Buffer.from(
          `These documents could not be included in this download. Ask an administrator to check the server log.\r\n\r\n${missing.join('\r\n')}\r\n`,
          'utf8',
        );
        yield { name: 'MISSING-FILES.txt', mtime: new Date(), open: async () => Readable.from([text]) };
      }
    };
    await audit(db, { actor: user.email, action: 'season.download', ip: request.ip, detail: String(year) });
    // Started before any header goes out: a store that refuses the first file it is asked for fails
    // the download with its status (503), not a 200 archive. After that, see `startZipStream`.
    const archive = await startZipStream(entries(), {
      onOpenError: (err, entry) => {
        // Logs name documents by reference, never by file or client name.
        const key = (entry as Partial<KeyedEntry>).key;
        const document = key ? documentRef(key) : 'note';
        // A store that does not answer, or refuses the server, has lost nothing: the download fails
        // rather than name every file as gone.
        const leftOut =
          err instanceof ZipSizeMismatch ||
          (err instanceof StorageError && err.kind !== 'unavailable' && err.kind !== 'failed');
        if (!leftOut) {
          log.error({ err, document }, 'file store failed while zipping; season download stopped');
          return false;
        }
        // One file that is gone, damaged or changed must not cost the whole programme's archive: it
        // is named inside instead.
        log.warn({ err, document }, 'file left out of the season ZIP');
        missing.push(entry.name);
        return true;
      },
    });
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="season-${year}-all-documents.zip"`)
      .header('cache-control', 'private, no-store')
      .send(archive);
  });
}
