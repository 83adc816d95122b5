/**
 * The reliability suite's simulated volunteers (reliability/volunteers.ts) must fail only when the
 * server does: two ways they once failed on their own in a rolling restart (docs/reliability.md,
 * scenario 8).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN, createRecorder, randomPdf, setUpProgramme, sha256, upload } from '../reliability/harness.js';
import { agent, clientsFor, newCounts, workLoop } from '../reliability/volunteers.js';
import { startApp, type TestApp } from './harness.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('the load generator', () => {
  it('closes an idle connection to a file URL before the server would, so none is reused as the server closes it', async () => {
    // Node's server, as s3rver runs it: it announces `Keep-Alive: timeout=5` and closes at 5–6 s.
    const server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const socket = await new Promise<Socket>((resolve, reject) => {
        const req = http.request(`http://127.0.0.1:${port}/`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(req.socket as Socket));
        });
        req.on('error', reject);
        req.end();
      });
      const idle = performance.now();
      await new Promise((resolve) => socket.once('close', resolve));
      // Closed on this side, well before the server's own timeout.
      expect(performance.now() - idle).toBeLessThan(server.keepAliveTimeout - 1_000);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 15_000);

  it('sends nothing when the server says the upload is already stored, as the app does', async () => {
    app = await startApp({ ADMIN_EMAIL: ADMIN.email, ADMIN_PIN: ADMIN.pin });
    const { volunteers } = await setUpProgramme(app.url, 1);
    const [volunteer] = volunteers;
    if (!volunteer) throw new Error('no volunteer');
    const [clientId = ''] = await clientsFor([volunteer]);
    const { types } = await volunteer.api.docTypes({ params: { id: clientId } });
    const bytes = randomPdf(20_000);
    // What a loop that failed after its upload leaves: the next loop's file, already there.
    await upload(volunteer, clientId, types[0] ?? '', 'scan 0.pdf', bytes);
    const recorder = createRecorder();
    const counts = newCounts();
    await workLoop(volunteer, clientId, recorder, counts, Date.now() + 1_000, {
      pdfs: [{ bytes, sha256: sha256(bytes) }],
      zipEvery: 0,
      offset: 0,
      renameEvery: 0,
    });
    expect([...recorder.errors.keys()]).toEqual([]);
    expect(counts.loops).toBeGreaterThan(0);
  }, 60_000);
});
