// A stopping process behind a balancer (DRAIN_SECONDS, docs/scaling.md "Stopping a process"): it keeps
// its port open, sends GETs elsewhere with 502 and carries out the rest, and closes the port 1 s after
// the last GET it sent away or the last connection after it. Through nginx: reliability scenario 8's
// rolling restart.
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

describe('a stopping process with DRAIN_SECONDS', () => {
  it('carries out POSTs, answers GETs 502 for the balancer to send elsewhere, and closes its port 1 s after the last one', async () => {
    const app = await startApp({ DRAIN_SECONDS: '30' });
    try {
      const { volA } = await seedPeople(app);
      const stopped = app.stop();

      // No GET yet: the port stays open and a POST is carried out as usual.
      const clientId = await createClient(volA);

      const sentAt = Date.now();
      const sentAway = await volA.get('/api/clients');
      expect(sentAway.status).toBe(502);
      expect(sentAway.body).toEqual({
        error: 'Service temporarily unavailable, try again',
        code: 'unavailable',
      });
      expect(sentAway.headers.get('connection')).toBe('close');
      expect(sentAway.headers.get('retry-after')).toBe('1');

      const closed = await closedAt(app.server.app.server);
      // Not before the quiet second after the GET (nginx leaves the process alone for 5 s after it), and
      // long before the 30 s drain limit.
      expect(closed - sentAt).toBeGreaterThanOrEqual(1_000);
      expect(closed - sentAt).toBeLessThan(10_000);
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

  it('keeps its port open while connections still arrive after the last GET, and closes it 1 s after the last one', async () => {
    const app = await startApp({ DRAIN_SECONDS: '30' });
    try {
      const { volA } = await seedPeople(app);
      const port = Number(new URL(app.url).port);
      const stopped = app.stop();
      expect((await volA.get('/api/clients')).status).toBe(502);
      // nginx acting on that 502 late: it still opens a connection here within the quiet second.
      await new Promise((resolve) => setTimeout(resolve, 600));
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

  it('refuses a drain longer than a minute', () => {
    expect(() => loadConfig({ DRAIN_SECONDS: '61' })).toThrow(ConfigError);
    expect(() => loadConfig({ DRAIN_SECONDS: '61' })).toThrow(/DRAIN_SECONDS/);
  });
});
