/** Connections that trickle their requests byte by byte while the fuzzing runs. */
import net from 'node:net';
import { sleep } from '../../harness.js';
import { parseAnswers, type Answer } from './raw-client.js';
import type { Identity } from './wire.js';

export interface Slow {
  mode: 'body' | 'headers' | 'upload';
  sent: number;
  openedAt: number;
  closedAt?: number;
  answer?: Answer;
}

/**
 * Connections that trickle a request one byte at a time until stopped: a JSON body, the headers
 * themselves, and an upload on a real upload link. Records when (and with what answer) the server ends each.
 */
export function startSlowConnections(port: number, count: number, anonymous: Identity, putQuery: string) {
  const body = JSON.stringify({ email: 'slow@fuzz.test', pin: 'slow pin 12345' });
  const modes: ReadonlyArray<{ mode: Slow['mode']; head: string; rest: string }> = [
    {
      mode: 'body',
      head: `POST /api/auth/login-init HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${anonymous.cookie}\r\nx-csrf-token: ${anonymous.csrf}\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 60_000}\r\n\r\n`,
      rest: body + ' '.repeat(60_000),
    },
    {
      mode: 'headers',
      head: 'GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\n',
      rest: `X-Slow: ${'a'.repeat(60_000)}`,
    },
    {
      mode: 'upload',
      head: `PUT /api/storage/put?${putQuery} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/pdf\r\nContent-Length: 100000\r\n\r\n`,
      rest: `%PDF-1.7\n${'x'.repeat(99_990)}`,
    },
  ];
  const slows: Slow[] = [];
  const sockets: net.Socket[] = [];
  let stopped = false;
  for (let i = 0; i < count; i += 1) {
    const { mode, head, rest } = modes[i % modes.length] ?? { mode: 'body', head: '', rest: '' };
    const slow: Slow = { mode, sent: 0, openedAt: Date.now() };
    slows.push(slow);
    const socket = net.connect(port, '127.0.0.1');
    sockets.push(socket);
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      slow.answer = parseAnswers(received, 'POST', true).answers[0];
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (!stopped) slow.closedAt ??= Date.now();
    });
    socket.on('connect', () => {
      socket.write(head);
      slow.sent = head.length;
      void (async () => {
        for (let at = 0; at < rest.length && !socket.destroyed && !stopped; at += 1) {
          await sleep(400);
          if (socket.destroyed || stopped) break;
          socket.write(rest[at] ?? ' ');
          slow.sent += 1;
        }
      })();
    });
  }
  return {
    slows,
    stop() {
      stopped = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}
