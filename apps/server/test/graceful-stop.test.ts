// A stopping process behind a balancer (DRAIN_SECONDS, docs/scaling.md "Stopping a process"): it keeps
// its port open, sends GETs elsewhere with 502 on a connection it leaves for the balancer to close, carries
// out the rest, and closes the port 1 s after the balancer closed the last such connection or the last
// connection after it. Through nginx: reliability scenario 8's rolling restart.
import http from 'node:http';
import net from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/env.js';
import { createClient } from './docs-helpers.js';
import { seedPeople, startApp } from './harness.js';

/**
 * Resolves with the time the server stops listening. Asked in-process: a probe connecting to the
 * port would itself keep it open (a connection after the last GET starts the quiet second again).
 */
async function closedAt(server: net.Server): Promise<number> {
  while (server.listening) await new Promise((resolve) => setTimeout(resolve, 10));
  return Date.now();
}

/**
 * A GET on a connection of its own, kept open after the answer as nginx does until it has read it
 * (HTTP/1.1, as docs/scaling.md has nginx speak to the processes); `hangUp` closes it.
 */
async function getKeptOpen(url: string, path: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const answer = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: unknown }>(
    (resolve, reject) => {
      http
        .get(`${url}${path}`, { agent }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }),
          );
        })
        .on('error', reject);
    },
  );
  return {
    ...answer,
    /** Closes the connection; resolves with the time it did. */
    hangUp: () => {
      agent.destroy();
      return Date.now();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a stopping process with DRAIN_SECONDS', () => {
  it('carries out POSTs, answers GETs 502 for the balancer to send elsewhere, and closes its port 1 s after the balancer closed that connection', async () => {
    const app = await startApp({ DRAIN_SECONDS: '30' });
    try {
      const { volA } = await seedPeople(app);
      const stopped = app.stop();

      // No GET yet: the port stays open and a POST is carried out as usual.
      const clientId = await createClient(volA);

      const sentAway = await getKeptOpen(app.url, '/api/clients');
      expect(sentAway.status).toBe(502);
      expect(sentAway.body).toEqual({
        error: 'Service temporarily unavailable, try again',
        code: 'unavailable',
      });
      expect(sentAway.headers['retry-after']).toBe('1');
      // Left open for the balancer to close once it has counted the failure: nginx reads the 502 when
      // it gets to it, seconds later on a starved machine, and keeps choosing this process until then.
      expect(sentAway.headers.connection).toBe('keep-alive');
      const closing = closedAt(app.server.app.server);
      await sleep(1_500);
      const hungUpAt = sentAway.hangUp();

      const closed = await closing;
      // Not before the quiet second after the balancer's close (nginx leaves the process alone for 5 s
      // from before it), and long before the 30 s drain limit.
      expect(closed - hungUpAt).toBeGreaterThanOrEqual(1_000 - 50);
      expect(closed - hungUpAt).toBeLessThan(10_000);
      await stopped;

      const db = new pg.Client({ connectionString: app.databaseUrl });
      await db.connect();
      try {
        const { rows } = await db.query('SELECT count(*)::int AS n FROM clients WHERE id = $1', [clientId]);
        expect(rows[0]).toEqual({ n: 1 });
      } finally {
        await db.end();
      }
    } finally {
      await app.close();
    }
  }, 60_000);

  it("keeps its port open while connections still arrive after the balancer closed the GET's, and closes it 1 s after the last one", async () => {
    const app = await startApp({ DRAIN_SECONDS: '30' });
    try {
      const port = Number(new URL(app.url).port);
      const stopped = app.stop();
      const sentAway = await getKeptOpen(app.url, '/api/clients');
      expect(sentAway.status).toBe(502);
      sentAway.hangUp();
      // A connection nginx opened just before it counted the failure, arriving within the quiet second.
      await sleep(600);
      const late = net.connect(port, '127.0.0.1');
      const connectedAt = await new Promise<number>((resolve, reject) => {
        late.once('connect', () => resolve(Date.now()));
        late.once('error', reject);
      });
      late.on('error', () => undefined);
      const closed = await closedAt(app.server.app.server);
      expect(closed - connectedAt).toBeGreaterThanOrEqual(1_000 - 50);
      late.destroy();
      await stopped;
    } finally {
      await app.close();
    }
  }, 60_000);

  it("closes its port at the drain time when no balancer closed a GET's connection", async () => {
    const app = await startApp({ DRAIN_SECONDS: '3' });
    try {
      const stoppingAt = Date.now();
      const stopped = app.stop();
      const sentAway = await getKeptOpen(app.url, '/api/clients');
      expect(sentAway.status).toBe(502);
      const closed = await closedAt(app.server.app.server);
      expect(closed - stoppingAt).toBeGreaterThanOrEqual(3_000 - 50);
      sentAway.hangUp();
      await stopped;
    } finally {
      await app.close();
    }
  }, 60_000);

  it('refuses a drain longer than a minute', () => {
    expect(() => loadConfig({ DRAIN_SECONDS: '61' })).toThrow(ConfigError);
    expect(() => loadConfig({ DRAIN_SECONDS: '61' })).toThrow(/DRAIN_SECONDS/);
  });
});
