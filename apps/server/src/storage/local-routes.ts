/**
 * HTTP side of the local store: `PUT /put` receives an upload, `GET /get` serves a file, both on
 * HMAC-signed URLs made by `createLocalStore`. Mount with
 * `app.register(localStorageRoutes(store), { prefix: '/api/storage' })`. These routes take no cookies
 * and no CSRF token: the signature is the whole authorisation (the app's CSRF hook skips them).
 */
import type { Readable } from 'node:stream';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { documentFileName, mediaType } from '@vita-docs/core/contract';
import { isDatabaseUnavailable } from '../db/errors.js';
import { DATABASE_UNAVAILABLE, frameworkMessage } from '../http/errors.js';
import { allowSlowUpload } from '../http/protocol.js';
import { contentDisposition, isInlineViewable, servedContentType, tooLarge } from './filetypes.js';
import type { LocalObjectStore } from './local.js';
import type { UploadBody } from './local-write.js';
import type { ByteRange } from './sealed-read.js';
import type { GetGrant, PutGrant } from './signing.js';
import { StorageError, storageErrorStatus } from './types.js';

/** Fastify's own refusals as this route would word them (the JSON API's wording talks of JSON bodies). */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE:
    'The file was sent with a Content-Type that is not valid. Upload it again from the app.',
};

/** Responses that are not a file: nothing may render, frame or sniff them. */
const LOCKED_DOWN_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** Headers every response of these routes carries. */
function baseHeaders(reply: FastifyReply): void {
  void reply.headers({
    'x-content-type-options': 'nosniff',
    'cache-control': 'private, no-store',
    // The URL is a capability: never leak it to another site through Referer.
    'referrer-policy': 'no-referrer',
    'content-security-policy': LOCKED_DOWN_CSP,
    // Signed URLs carry no cookies, so any origin (the desktop app) may use one it was given.
    'access-control-allow-origin': '*',
  });
}

/** Content-Security-Policy for a served file: view URLs may be framed by the app, nothing else. */
function fileCsp(inline: boolean, contentType: string, frameAncestors: string): string {
  if (!inline) return LOCKED_DOWN_CSP;
  // Browsers' PDF viewers do not run in a sandboxed document, so a PDF only gets the framing rule.
  if (contentType === 'application/pdf') return `frame-ancestors ${frameAncestors}`;
  return `default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox; frame-ancestors ${frameAncestors}`;
}

async function handlePut(store: LocalObjectStore, request: FastifyRequest, reply: FastifyReply) {
  const grant = store.signer.verify('PUT', request.query, store.now()) as PutGrant;
  // A signed upload may take as long as it keeps coming (a phone on a poor connection).
  allowSlowUpload(request.raw);
  const sent = request.headers['content-type'];
  if (mediaType(sent) !== mediaType(grant.contentType)) {
    throw new StorageError(
      'unsupported_type',
      `This upload link is for a file of type ${grant.contentType}, but the file was sent as ${sent ?? 'no type'}.`,
    );
  }
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > grant.maxBytes) {
    // Refused before a byte is read; `receive` enforces the same limit on the real stream.
    throw tooLarge(grant.maxBytes);
  }
  const expected = await store.uploads.before(grant.key);
  // destroyOnReturn: false keeps the socket when `receive` stops early, so the 413/415 still gets out.
  const body = request.raw.iterator({ destroyOnReturn: false }) as UploadBody;
  const digest = await store.receive(grant.key, body, grant.maxBytes, expected);
  await store.uploads.after(grant.key, digest, request.ip);
  // `stored`: the document is verified and listed already, so the client need not call complete.
  return reply
    .code(200)
    .send({ key: grant.key, size: digest.size, contentType: digest.contentType, stored: true });
}

/**
 * The one byte range a `Range` header asks for (RFC 9110: `bytes=a-b`, `bytes=a-`, `bytes=-n`), or
 * undefined to send the whole file: no header, several ranges, a malformed one, or an `If-Range` that
 * is not the file's Last-Modified. `unsatisfiable` when the range starts past the end.
 */
function requestedRange(
  request: FastifyRequest,
  size: number,
  lastModified: string,
): ByteRange | 'unsatisfiable' | undefined {
  const header = request.headers.range;
  if (typeof header !== 'string') return undefined;
  const ifRange = request.headers['if-range'];
  if (ifRange !== undefined && ifRange !== lastModified) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const [, from = '', to = ''] = match;
  if (from === '') {
    // The last n bytes.
    const suffix = Number(to);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (to !== '' && Number(to) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

async function handleGet(store: LocalObjectStore, request: FastifyRequest, reply: FastifyReply) {
  const grant = store.signer.verify('GET', request.query, store.now()) as GetGrant;
  const opened = await store.openObject(grant.key);
  try {
    await store.recordFetch(grant, request.ip);
  } catch (error) {
    await opened.close().catch(() => undefined);
    throw error;
  }
  let body: Readable;
  try {
    const { object } = opened;
    const lastModified = object.lastModified.toUTCString();
    const range = requestedRange(request, object.size, lastModified);
    if (range === 'unsatisfiable') {
      await opened.close();
      return reply
        .code(416)
        .header('content-range', `bytes */${object.size}`)
        .send({ error: 'That part of the file does not exist.' });
    }
    const contentType = servedContentType(grant.contentType || object.contentType);
    const inline = grant.disposition === 'inline' && isInlineViewable(contentType);
    // Nothing is sent before the first chunk has passed its check: a damaged file gets an error answer.
    body = await opened.stream(range);
    void reply.headers({
      'content-type': contentType,
      'content-length': String(range ? range.end - range.start + 1 : object.size),
      // The signed name is typed already; typed again here for the served type, whoever signed it.
      'content-disposition': contentDisposition(
        inline ? 'inline' : 'attachment',
        documentFileName(grant.downloadName, contentType) ?? 'file',
      ),
      'content-security-policy': fileCsp(inline, contentType, store.frameAncestors),
      'last-modified': lastModified,
      'accept-ranges': 'bytes',
    });
    if (range)
      void reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${object.size}`);
  } catch (error) {
    await opened.close().catch(() => undefined);
    throw error;
  }
  // The open handle pins the file: a concurrent rename or delete cannot change what is served. A
  // chunk further on that fails its check ends the response early (the client sees it cut short,
  // never a complete-looking file).
  return reply.send(body);
}

/** Fastify plugin serving the local store's signed upload and download URLs. */
export function localStorageRoutes(store: LocalObjectStore): FastifyPluginAsync {
  return async (app) => {
    // Bodies are streamed by the PUT handler, whatever their type; nothing is buffered or parsed.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null));

    app.addHook('onRequest', async (_request, reply) => baseHeaders(reply));

    app.setErrorHandler((error: FastifyError | StorageError, request, reply) => {
      void reply.header('content-security-policy', LOCKED_DOWN_CSP).removeHeader('content-disposition');
      // An upload refused mid-stream: say why, then close rather than read the rest.
      if (request.method === 'PUT' && !request.raw.complete) void reply.header('connection', 'close');
      if (error instanceof StorageError) {
        const status = storageErrorStatus(error.kind);
        if (status >= 500) request.log.error({ err: error }, 'storage request failed');
        else request.log.info({ kind: error.kind }, 'storage request refused');
        return reply.code(status).send({ error: error.message, code: error.code });
      }
      if (request.raw.destroyed) {
        request.log.info('upload aborted by the client');
        return reply.code(400).send({ error: 'The upload was interrupted.' });
      }
      const status = error.statusCode;
      if (status !== undefined && status >= 400 && status < 500)
        return reply.code(status).send({ error: FRAMEWORK_MESSAGES[error.code] ?? frameworkMessage(error) });
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ message: error.message }, 'database unavailable');
        return reply.code(503).header('retry-after', '5').send({ error: DATABASE_UNAVAILABLE });
      }
      request.log.error({ err: error }, 'storage request failed');
      return reply
        .code(500)
        .send({ error: 'Something went wrong while handling the file. Please try again.' });
    });

    app.options('/put', async (_request, reply) =>
      reply
        .code(204)
        .header('access-control-allow-methods', 'PUT')
        .header('access-control-allow-headers', 'content-type')
        .header('access-control-max-age', '600')
        .send(),
    );
    app.put('/put', (request, reply) => handlePut(store, request, reply));
    app.get('/get', (request, reply) => handleGet(store, request, reply));
  };
}
