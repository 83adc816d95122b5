/**
 * Serves the built renderer from `app://vita/`. A real origin (rather than file://) gives the
 * pages a fixed origin for navigation checks, lets client-side routes reload, and keeps the rest
 * of the disk out of reach: only files under the renderer folder are ever served.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { protocol } from 'electron';
import { APP_HOST, APP_SCHEME } from './origin.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/**
 * The renderer talks to the server only through the bridge, so `connect-src` is 'self'; images
 * and frames may load presigned view URLs (http(s)) and blob: previews made from local files.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  'frame-src blob: https: http:',
  "object-src 'none'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Must run before `app.whenReady()`: the scheme gets standard, secure-context privileges. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** Starts serving `rootDir` (the built renderer) on the app scheme. */
export function serveRenderer(rootDir: string): void {
  const root = resolve(rootDir);
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return new Response('Not found', { status: 404 });
    let file = resolve(root, `.${decodeURIComponent(url.pathname)}`);
    if (file !== root && !file.startsWith(root + sep)) return new Response('Not found', { status: 404 });
    const isFile = await stat(file).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!isFile) {
      // Client-side routes (no extension) get the app shell; missing assets are a plain 404.
      if (extname(file)) return new Response('Not found', { status: 404 });
      file = resolve(root, 'index.html');
    }
    return new Response(await readFile(file), {
      headers: {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-security-policy': CONTENT_SECURITY_POLICY,
        'x-content-type-options': 'nosniff',
      },
    });
  });
}
