/**
 * Preloaded into the server by the reliability harness only (`--expose-gc --import`), never part of
 * the production build: asked `{ type: 'memory' }` over the IPC channel, it runs full collections
 * and answers with `process.memoryUsage()`: the memory the server still holds, without the
 * garbage and allocator slack that RSS also counts.
 */
if (typeof process.send === 'function' && process.env.RELIABILITY_MEMORY_PROBE === '1') {
  process.on('message', (message) => {
    if (!message || message.type !== 'memory') return;
    // Two collections a turn apart: array buffers freed by the first are counted as gone after it.
    globalThis.gc?.();
    setImmediate(() => {
      globalThis.gc?.();
      process.send?.({ type: 'memory', id: message.id, usage: process.memoryUsage() });
    });
  });
  // Listening must not keep the server alive once it means to stop.
  process.channel?.unref();
}
