/**
 * A stop that fails no request, behind a load balancer or not (docs/scaling.md, "Stopping a process").
 *
 * Closing the listening socket resets every connection the kernel had already completed but the
 * process had not yet accepted. nginx has written its request on such a connection before it learns
 * that, cannot tell whether the process read it, and so sends a `POST` nowhere else: the person gets
 * 502. The port must therefore close only once the balancer has stopped opening connections to it.
 * nginx (open source) has no health checks to be told that: it stops choosing a process for
 * `fail_timeout` after a failed attempt (`max_fails=1`, shared by its workers through `zone`). So, with
 * a drain time, a stopping process first keeps its port open and
 * - answers each `GET` that arrives {@link DRAIN_STATUS} without doing anything, on a connection it
 *   leaves open: nginx sends the GET on to another process (`proxy_next_upstream http_502`; a GET may
 *   be sent twice), counts the failure, and only then closes that connection. Its close is therefore
 *   the proof that nginx has stopped choosing this process — not the moment the 502 was sent, which
 *   nginx may read seconds later on a machine starved of CPU, choosing this process meanwhile;
 * - carries out every other request as usual (nginx cannot send those elsewhere once sent);
 * - closes the port {@link DRAIN_QUIET_MS} after the balancer closed the connection of the last GET
 *   sent away, or after the last connection that arrived since, whichever came later (well within
 *   nginx's `fail_timeout`, while nginx chooses it for nothing), or at the drain time if none did.
 * Then, as without a drain time, every request already accepted is answered (streams included) for
 * up to the deadline, each answer closing its connection, and what is still open is cut.
 */
import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { DATABASE_UNAVAILABLE } from './errors.js';

/**
 * A stopping process's answer to a GET it leaves to another one. Not 503: the server answers 503 when
 * its database is away, and nginx must not count that as a process failing (with every process
 * sharing the database, it would leave them all alone and answer its own 502 page). The server
 * answers 502 nowhere else.
 */
const DRAIN_STATUS = 502;

/**
 * After the balancer closed the connection of the last GET sent elsewhere (it counted the failure
 * before it closed it), how long the port stays open: long enough for any connection nginx opened
 * before it counted it to arrive and be accepted, and well under the `fail_timeout` (5 s) during
 * which nginx opens none.
 */
const DRAIN_QUIET_MS = 1_000;

/** Methods a balancer may send to another process after this one answered: safe, nothing done. */
const SENT_ELSEWHERE = new Set(['GET', 'HEAD']);

/**
 * Installs the stop on `app` (first of its hooks, so a GET sent away costs nothing) and returns it:
 * drain for at most `drainMs` (0: none), then close with a deadline of `deadlineMs`.
 */
export function gracefulStop(app: FastifyInstance): (drainMs: number, deadlineMs: number) => Promise<void> {
  let stopping = false;
  let draining = false;
  let acknowledged = (): void => undefined;
  // Requests sent away, whose connection stays open for the balancer to close; and the connections
  // already watched for that (a client that keeps its connection may send several GETs on it).
  const sentAway = new WeakSet<object>();
  const watched = new WeakSet<Socket>();
  app.addHook('onRequest', async (request, reply) => {
    if (!draining || !SENT_ELSEWHERE.has(request.method)) return;
    const { socket } = request.raw;
    sentAway.add(request.raw);
    // nginx closes its connection to a process once it has read the 502, counted the failure and
    // chosen another process for the GET (ngx_http_upstream_next: the peer is freed as failed, then
    // the connection closed): its end or reset is the proof the drain waits for. A request made with
    // `inject()` has no connection to watch.
    if (socket instanceof Socket && !watched.has(socket)) {
      watched.add(socket);
      const closedByPeer = () => acknowledged();
      socket.once('end', closedByPeer);
      socket.once('error', closedByPeer);
    }
    return reply
      .code(DRAIN_STATUS)
      .header('retry-after', '1')
      .send({ error: DATABASE_UNAVAILABLE, code: 'unavailable' });
  });
  // Every other answer given while stopping closes its connection: a kept-alive one carries no
  // further request here.
  app.addHook('onSend', async (request, reply) => {
    if (stopping && !sentAway.has(request.raw)) reply.header('connection', 'close');
  });
  const drain = (drainMs: number) =>
    new Promise<void>((resolve) => {
      let quiet: NodeJS.Timeout | undefined;
      let generation = 0;
      const done = () => {
        clearTimeout(quiet);
        clearTimeout(limit);
        app.server.off('connection', arrived);
        draining = false;
        acknowledged = () => undefined;
        resolve();
      };
      // From the check phase: the poll phase just before it has accepted every connection waiting.
      const limit = setTimeout(() => setImmediate(done), drainMs);
      // The quiet second runs from the last GET's connection closed by the balancer or the last
      // connection after it, whichever came later: a connection nginx opened just before it counted
      // the failure may still be on its way. A connection accepted in the poll phase between the timer
      // and its check phase starts the second again rather than being cut.
      const wait = () => {
        clearTimeout(quiet);
        generation += 1;
        const mine = generation;
        quiet = setTimeout(() => setImmediate(() => mine === generation && done()), DRAIN_QUIET_MS);
      };
      const arrived = () => {
        if (quiet) wait();
      };
      app.server.on('connection', arrived);
      acknowledged = wait;
      draining = true;
    });
  return async (drainMs, deadlineMs) => {
    stopping = true;
    if (drainMs > 0) await drain(drainMs);
    const cut = setTimeout(() => app.server.closeAllConnections(), deadlineMs);
    try {
      await app.close();
    } finally {
      clearTimeout(cut);
    }
  };
}
