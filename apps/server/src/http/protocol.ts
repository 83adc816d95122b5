/**
 * Requests Node's HTTP layer refuses before Fastify sees them (malformed, headers too large, too slow,
 * an Expect it does not know, HTTP/1.1 without Host). Node and Fastify answer those with an empty
 * body or their own wording; here they get the same `{ "error": "…" }` JSON as every other refusal.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';

const TEXT = {
  malformed: 'The request is not valid.',
  tooLarge: 'The request headers or address are too long. Reload the page and try again.',
  timeout: 'The request took too long to arrive. Please try again.',
  expectation: 'The server cannot meet the Expect header of this request. Send it without one.',
  noHost: 'The request has no Host header.',
} as const;

const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

/** Answers `status` with `{ "error": message }` straight on the socket and closes it (nothing else can be said on it after). */
function refuseOnSocket(socket: Socket, status: number, message: string, error?: Error): void {
  const body = JSON.stringify({ error: message });
  if (socket.writable) {
    const headers = Object.entries({ ...JSON_HEADERS, 'content-length': String(Buffer.byteLength(body)), connection: 'close' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${headers}\r\n${body}`);
  }
  socket.destroy(error);
}

/**
 * Fastify's `clientErrorHandler`: a request Node could not parse, whose headers were too large, or
 * that did not arrive in time. The connection cannot be reused after it, so it is closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, TEXT.timeout]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, TEXT.tooLarge]
        : [400, TEXT.malformed];
  refuseOnSocket(socket, status, message, error);
}

/**
 * How long a request may take to arrive. Headers: Node's `headersTimeout` (60 s). A JSON body is
 * small: one still trickling in after `jsonBodyMs` is someone holding a connection and a parser open
 * (slowloris), answered 408 and closed. Whole requests, uploads included: {@link requestDeadlineMs}.
 */
export const DEADLINES = { jsonBodyMs: 30_000, requestMs: 30 * 60_000 } as const;

/** The slowest upload the whole-request deadline leaves time for: a phone on a poor connection. */
const SLOWEST_UPLOAD_BYTES_PER_SECOND = 50 * 1024;

/**
 * The whole-request deadline: 30 minutes (above the 15 an upload link is valid), or longer when the
 * largest allowed upload would take longer at {@link SLOWEST_UPLOAD_BYTES_PER_SECOND} (25 MB: 9 minutes).
 */
export function requestDeadlineMs(maxUploadBytes: number): number {
  return Math.max(DEADLINES.requestMs, Math.ceil(maxUploadBytes / SLOWEST_UPLOAD_BYTES_PER_SECOND) * 1000);
}

/** Bodies that are not JSON (uploads to signed URLs) answer to the whole-request deadline only. */
const JSON_EXEMPT = '/api/storage/';

/**
 * Installs the JSON body deadline: from the request's start, `ms` for its body to arrive whole.
 * Only requests that announce a body are watched. Past the deadline the answer is 408 on the socket,
 * or, if an answer already went out (a refusal before the body was read), the connection just closes.
 */
export function installBodyDeadline(app: FastifyInstance, ms: number): void {
  app.addHook('onRequest', (request, reply, done) => {
    const { raw } = request;
    const announcesBody = raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0;
    if (!announcesBody || raw.complete || request.url.startsWith(JSON_EXEMPT)) {
      done();
      return;
    }
    const timer = setTimeout(() => {
      if (raw.complete || raw.socket.destroyed) return;
      if (reply.raw.headersSent) raw.socket.destroy();
      else refuseOnSocket(raw.socket, 408, TEXT.timeout);
    }, ms);
    const stop = () => clearTimeout(timer);
    raw.once('end', stop);
    raw.once('close', stop);
    done();
  });
}

/** Server options that let the checks below (rather than Node, with an empty 400) refuse a request without Host. */
export const HTTP_SERVER_OPTIONS: http.ServerOptions = { requireHostHeader: false };

/** Installs the checks Node would otherwise make with a bare, bodiless answer. */
export function installProtocolChecks(app: FastifyInstance): void {
  // HTTP/1.1 requires Host (HTTP/1.0 predates it). Runs first: later hooks read the host name.
  app.addHook('onRequest', async (request) => {
    const { httpVersionMajor, httpVersionMinor } = request.raw;
    if (request.headers.host === undefined && (httpVersionMajor > 1 || (httpVersionMajor === 1 && httpVersionMinor >= 1))) {
      throw new HttpError(400, TEXT.noHost);
    }
  });
  // Node answers an Expect other than 100-continue with an empty 417 unless told otherwise.
  app.server.on('checkExpectation', (_request: http.IncomingMessage, response: http.ServerResponse) => {
    const body = JSON.stringify({ error: TEXT.expectation });
    response.writeHead(417, { ...JSON_HEADERS, 'content-length': Buffer.byteLength(body), connection: 'close' });
    response.end(body);
  });
}
