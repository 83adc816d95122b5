/**
 * Browser test harness: serves the renderer, built by Vite from source, with an HTTP bridge in front
 * of main's real bridge handlers, desk settings and scanner inbox. Electron's IPC is the only part
 * replaced (by HTTP on a local socket); the OS folder dialog answers `folder`, the save dialog a file
 * in `userData`.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { build, defaultClientConditions } from 'vite';
import { createBridgeHandlers, type InvokeMethod } from '../src/main/bridge-handlers.js';
import { openDesk, type DeskOptions } from '../src/main/desk.js';
import type { InboxState } from '../src/shared/bridge.js';

/** A running harness. */
export interface BridgeServer {
  url: string;
  close(): Promise<void>;
}

const desktopDir = join(import.meta.dirname, '..');

const encode = (_key: string, value: unknown): unknown =>
  value instanceof Uint8Array
    ? { $bytes: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') }
    : value;
const decode = (_key: string, value: unknown): unknown =>
  value !== null && typeof value === 'object' && typeof (value as { $bytes?: unknown }).$bytes === 'string'
    ? new Uint8Array(Buffer.from((value as { $bytes: string }).$bytes, 'base64'))
    : value;

/**
 * Starts the harness; settings live in `userData` (or the managed file), the folder dialog picks `folder`. Dropped items
 * arrive by name (a page cannot see paths) and are taken from `dropFolder`.
 */
export async function startBridgeServer(options: {
  userData: string;
  folder: string;
  dropFolder?: string;
  /** A managed settings file, as main passes it (none by default). */
  managedSettingsFile?: string;
  /** The inbox's windows and file-system type (desk.ts `inbox`). */
  inbox?: DeskOptions['inbox'];
}): Promise<BridgeServer> {
  const listeners = new Set<ServerResponse>();
  let last: InboxState | null = null;
  const desk = await openDesk({
    userData: options.userData,
    ...(options.inbox === undefined ? {} : { inbox: options.inbox }),
    ...(options.managedSettingsFile === undefined
      ? {}
      : { managedSettingsFile: options.managedSettingsFile, warn: () => {} }),
    onInboxState: (state) => {
      last = state;
      for (const res of listeners) res.write(`data: ${JSON.stringify(state)}\n\n`);
    },
  });
  const handlers = createBridgeHandlers({
    ...desk,
    chooseFolder: async () => options.folder,
    // The save dialog answers the offered name inside `userData`.
    chooseSaveFile: async (name) => join(options.userData, name),
    thumbnail: async () => null,
  });

  const renderer = await buildRenderer();

  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/bridge/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(': connected\n\n');
      if (last) res.write(`data: ${JSON.stringify(last)}\n\n`);
      listeners.add(res);
      req.on('close', () => listeners.delete(res));
      return;
    }
    const call = /^\/bridge\/call\/(\w+)$/.exec(url);
    if (call && req.method === 'POST') {
      const method = call[1] as InvokeMethod;
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        try {
          const handler = handlers[method] as ((payload: unknown) => Promise<unknown>) | undefined;
          if (!handler) throw new Error(`No bridge method ${method}`);
          let { payload } = JSON.parse(Buffer.concat(chunks).toString() || '{}', decode) as {
            payload?: unknown;
          };
          if (method === 'expandDrop') {
            // Stands in for the preload's webUtils.getPathForFile (names only: nothing outside the drop folder).
            const names = Array.isArray(payload)
              ? payload.map(String).filter((name) => !/[\\/]|^\.\.?$/.test(name))
              : [];
            payload = names.map((name) => join(options.dropFolder ?? options.folder, name));
          }
          const result = await handler(payload);
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ result: result ?? null }, encode));
        } catch (error) {
          res
            .writeHead(400, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
        }
      })();
      return;
    }
    void serveRenderer(renderer, url, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const res of listeners) res.end();
      await new Promise((resolve) => server.close(resolve));
      await desk.close();
    },
  };
}

const rendererDir = join(desktopDir, 'node_modules', '.vita-test-renderer');
let built: Promise<string> | undefined;

/**
 * Builds the renderer once per test run. Built rather than served by Vite's dev server: that one
 * compiles on first request (slower than a test may take on a busy machine) and, when it finds a
 * dependency late, re-bundles and fails the modules the page already asked for.
 */
function buildRenderer(): Promise<string> {
  built ??= build({
    configFile: false,
    root: join(desktopDir, 'src', 'renderer'),
    logLevel: 'silent',
    resolve: { conditions: ['vita-source', ...defaultClientConditions] },
    build: { outDir: rendererDir, emptyOutDir: true, minify: false, reportCompressedSize: false },
    plugins: [
      {
        name: 'vita-http-bridge',
        // The bridge must exist before the renderer's entry runs, as the preload's does in Electron.
        transformIndexHtml: {
          order: 'pre',
          handler: (html) =>
            html.replace(
              '<script type="module" src="./main.tsx"></script>',
              '<script type="module" src="../../test/browser/http-bridge.ts"></script>\n    <script type="module" src="./main.tsx"></script>',
            ),
        },
      },
    ],
  }).then(() => rendererDir);
  return built;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

/** A file of the built renderer; any other path is the app's page (its routes are client-side). */
async function serveRenderer(dir: string, url: string, res: ServerResponse): Promise<void> {
  const path = normalize(decodeURIComponent(new URL(url, 'http://x').pathname)).replace(/^([/\\]|\.\.)+/, '');
  const file = TYPES[extname(path)] ? join(dir, path) : join(dir, 'index.html');
  try {
    const body = await readFile(file);
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
  } catch {
    res.writeHead(404).end();
  }
}
