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
  const body = JSON.stringify({ error: message });
  if (socket.writable) {
    const headers = Object.entries({ ...JSON_HEADERS, 'content-length': String(Buffer.byteLength(body)), connection: 'close' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${headers}\r\n${body}`);
  }
  socket.destroy(error);
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
