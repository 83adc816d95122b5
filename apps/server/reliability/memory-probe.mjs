/**
 * Preloaded into the server by the reliability harness only (`--expose-gc --import`), never part of
 * the production build: asked `{ type: 'memory' }` over the IPC channel, it runs full collections
 * and answers with `process.memoryUsage()` — the memory the server still holds, without the garbage
 * and allocator slack that RSS also counts — and with how many of the HTTP responses and sockets it
 * has ever had are still alive: a leak of a few small objects per download (a closure
 * keeping a finished response) hides inside megabytes but not in a count that should fall to zero.
 */
import diagnostics from 'node:diagnostics_channel';

if (typeof process.send === 'function' && process.env.RELIABILITY_MEMORY_PROBE === '1') {
  const live = { responses: 0, sockets: 0 };
  const collected = new FinalizationRegistry((kind) => {
    live[kind] -= 1;
  });
  const track = (kind, object) => {
    if (!object) return;
    live[kind] += 1;
    collected.register(object, kind);
  };
  diagnostics.subscribe('http.server.request.start', ({ response }) => track('responses', response));
  diagnostics.subscribe('net.server.socket', ({ socket }) => track('sockets', socket));

  const turn = () => new Promise((resolve) => setImmediate(resolve));
  process.on('message', async (message) => {
    if (!message || message.type !== 'memory') return;
    // Two collections a turn apart: array buffers freed by the first are counted as gone after it.
    globalThis.gc?.();
    await turn();
    globalThis.gc?.();
    const usage = process.memoryUsage();
    // The registry's callbacks for what the collections freed run in the next turn (one more for margin).
    await turn();
    await turn();
    process.send?.({ type: 'memory', id: message.id, usage, live: { ...live } });
  });
  // Listening must not keep the server alive once it means to stop.
  process.channel?.unref();
}
