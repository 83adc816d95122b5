/**
 * Requests Node's HTTP layer refuses before Fastify sees them (malformed, headers too large, too slow,
 * an Expect it does not know, HTTP/1.1 without Host). Node and Fastify answer those with an empty
 * body or their own wording; here they get the same `{ "error": "…" }` JSON as every other refusal.
 */
import http from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';
import { errorCodeForStatus } from '@vita-docs/core/contract';

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

/** The answer a connection is sending now: Node's, for the request at the head of a keep-alive connection. */
const answering = (socket: Socket): http.ServerResponse | null =>
  (socket as Socket & { _httpMessage?: http.ServerResponse | null })._httpMessage ?? null;

/**
 * Answers `status` with `{ "error": message }` straight on the socket and closes it. Written only
 * when no other answer has started on it (`mine`: the refused request's own answer, which may be
 * the one under way): a refusal in the middle of another answer would corrupt it, so then the
 * connection is only closed.
 */
function refuseOnSocket(
  socket: Socket,
  status: number,
  message: string,
  options: { error?: Error; mine?: http.ServerResponse } = {},
): void {
  const current = answering(socket);
  const free = options.mine ? current === options.mine && !options.mine.headersSent : !current?.headersSent;
  if (socket.writable && free) {
    const body = JSON.stringify({ error: message, code: errorCodeForStatus(status) });
    const headers = Object.entries({
      ...JSON_HEADERS,
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
    })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${headers}\r\n${body}`);
  }
  socket.destroy(options.error);
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
  refuseOnSocket(socket, status, message, { error });
}

/**
 * How long a request may take to arrive. Headers: `headersMs` (Node's `headersTimeout`). Every body
 * has `bodyMs` from its request's start: JSON bodies are small, and one still trickling in after
 * that is someone holding a connection and a parser open (slowloris). An upload to a signed URL,
 * once its signature checked ({@link allowSlowUpload}), may take as long as it keeps coming: after
 * `uploadGraceMs`, at least `uploadMinBytesPerSecond` on average since it started (a 25 MB file
 * at that pace takes about 7 hours; a phone on a poor connection sends 50 KB/s), and never
 * `uploadIdleMs` without a byte (an average cannot see an upload that went fast and then stopped:
 * 20 MB in would buy hours of silence). Past any of them, the answer is 408 and the connection closes.
 */
export interface RequestDeadlines {
  headersMs: number;
  bodyMs: number;
  uploadGraceMs: number;
  uploadMinBytesPerSecond: number;
  uploadIdleMs: number;
  /** How often an upload's pace (and, by Node, the headers' deadline) is checked. */
  checkEveryMs: number;
}

export const REQUEST_DEADLINES: RequestDeadlines = {
  headersMs: 60_000,
  bodyMs: 30_000,
  uploadGraceMs: 60_000,
  uploadMinBytesPerSecond: 1024,
  uploadIdleMs: 30_000,
  checkEveryMs: 5_000,
};

/**
 * Node's server options for the deadlines: its headers' deadline, and no whole-request limit of its
 * own (which would cut slow uploads; bodies answer to {@link installBodyDeadlines}). Node ties the
 * two: a whole-request limit of 0 makes the headers' default 0 as well, so both are given.
 */
export function deadlineServerOptions(deadlines: RequestDeadlines): http.ServerOptions {
  return {
    requestTimeout: 0,
    headersTimeout: deadlines.headersMs,
    connectionsCheckingInterval: deadlines.checkEveryMs,
  };
}

/** Per request being watched: what turns its deadline into the upload's pace check. */
const watched = new WeakMap<http.IncomingMessage, () => void>();

/**
 * Lets a request's body take as long as an upload may (see {@link RequestDeadlines}). For the signed
 * upload route, after the signature checked: anyone else's slow body keeps its deadline.
 */
export function allowSlowUpload(request: http.IncomingMessage): void {
  watched.get(request)?.();
}

/**
 * Installs the body deadlines. Install it before any other hook: a request refused by a hook before
 * its body was read is still closed at its deadline. Past it the answer is 408 on the socket, or, if
 * an answer already went out, the connection just closes.
 */
export function installBodyDeadlines(app: FastifyInstance, deadlines: RequestDeadlines): void {
  app.addHook('onRequest', (request, reply, done) => {
    const { raw } = request;
    const announcesBody =
      raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0;
    // A request made with `inject()` has a stand-in for a socket: no connection to time out or close,
    // and no 'close' event to end the watch, which would then outlive the server.
    if (!announcesBody || raw.complete || !(raw.socket instanceof Socket)) {
      done();
      return;
    }
    const refuse = () => {
      if (raw.complete || raw.socket.destroyed) return;
      refuseOnSocket(raw.socket, 408, TEXT.timeout, { mine: reply.raw });
    };
    const started = Date.now();
    const bytesBefore = raw.socket.bytesRead;
    let timer: NodeJS.Timeout = setTimeout(refuse, deadlines.bodyMs);
    const stop = () => {
      clearTimeout(timer);
      watched.delete(raw);
    };
    watched.set(raw, () => {
      clearTimeout(timer);
      let lastBytes = raw.socket.bytesRead;
      let lastProgress = Date.now();
      timer = setInterval(() => {
        const now = Date.now();
        const bytes = raw.socket.bytesRead;
        if (bytes !== lastBytes) [lastBytes, lastProgress] = [bytes, now];
        const seconds = (now - started - deadlines.uploadGraceMs) / 1000;
        const slow = seconds > 0 && bytes - bytesBefore < seconds * deadlines.uploadMinBytesPerSecond;
        if (slow || now - lastProgress >= deadlines.uploadIdleMs) {
          clearInterval(timer);
          refuse();
        }
      }, deadlines.checkEveryMs);
    });
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
    if (
      request.headers.host === undefined &&
      (httpVersionMajor > 1 || (httpVersionMajor === 1 && httpVersionMinor >= 1))
    ) {
      throw new HttpError(400, TEXT.noHost);
    }
  });
  // Node answers an Expect other than 100-continue with an empty 417 unless told otherwise.
  app.server.on('checkExpectation', (_request: http.IncomingMessage, response: http.ServerResponse) => {
    const body = JSON.stringify({ error: TEXT.expectation, code: 'invalid_request' });
    response.writeHead(417, {
      ...JSON_HEADERS,
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    response.end(body);
  });
}
