import fs from 'node:fs';
import path from 'node:path';

/**
 * The web app's page for each address, with the files that address's screen needs before it shows
 * linked from the page (`modulepreload` for its scripts, `preload` for its style sheets): the browser
 * fetches them beside the entry script instead of one round trip after the entry has run and asked
 * for them. Which files each route needs is written by the web app's build
 * (apps/web/scripts/route-chunks.ts, dist/.vite/route-chunks.json); without that file every address
 * gets the page as built.
 */

/** One route of the build's map: its pattern (`:name` matches any one segment) and its files. */
interface RouteFiles {
  path: string;
  scripts: string[];
  styles: string[];
}

/** Where the build writes the map, under the web app's dist/. */
const ROUTE_CHUNKS_FILE = '.vite/route-chunks.json';

/** A built file's address: only these are linked, so nothing in the map can add markup to the page. */
const BUILT_FILE = /^\/assets\/[\w.-]+\.(js|css)$/;

/** The map's routes, or none when the file is missing or not what the build writes. */
function readRoutes(webDist: string): RouteFiles[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(path.join(webDist, ROUTE_CHUNKS_FILE), 'utf8'));
  } catch {
    return [];
  }
  const routes = (parsed as { routes?: unknown } | null)?.routes;
  if (!Array.isArray(routes)) return [];
  const files = (list: unknown) =>
    Array.isArray(list) ? list.filter((f): f is string => typeof f === 'string' && BUILT_FILE.test(f)) : [];
  return routes.flatMap((route: unknown) => {
    const { path: pattern, scripts, styles } = (route ?? {}) as Record<string, unknown>;
    return typeof pattern === 'string' && pattern.startsWith('/')
      ? [{ path: pattern, scripts: files(scripts), styles: files(styles) }]
      : [];
  });
}

/** Where the build writes the first paints of the signed-out screens (apps/web/scripts/first-paint.ts). */
const FIRST_PAINT_FILE = '.vite/first-paint.json';

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
/** Text safe inside an HTML attribute or element. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

/**
 * The first paint of each address that has one, its programme link written in (`programmeUrl`: the
 * server's PROGRAMME_URL, else the build's own): the markup of the app's first render, which the app
 * hydrates. None when the file is missing or not what the build writes.
 */
function readFirstPaints(webDist: string, programmeUrl: string | undefined): Map<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(path.join(webDist, FIRST_PAINT_FILE), 'utf8'));
  } catch {
    return new Map();
  }
  const { programmeUrlPlaceholder, programmeUrl: built, routes } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof programmeUrlPlaceholder !== 'string' || typeof built !== 'string' || !Array.isArray(routes))
    return new Map();
  const link = escapeHtml(programmeUrl ?? built);
  return new Map(
    routes.flatMap((route: unknown) => {
      const { path: address, markup } = (route ?? {}) as Record<string, unknown>;
      return typeof address === 'string' && typeof markup === 'string'
        ? [[address, markup.replaceAll(programmeUrlPlaceholder, link)] as const]
        : [];
    }),
  );
}

/** Whether `pathname` is an address of the route `pattern` (the app's router matches the same way). */
function matches(pattern: string, pathname: string): boolean {
  const want = pattern.split('/');
  const have = pathname.split('/');
  return (
    want.length === have.length &&
    want.every((segment, i) => (segment.startsWith(':') ? have[i] !== '' : segment === have[i]))
  );
}

/**
 * The page to send for each address: `html` (the built page with its run-time settings) with the
 * links of the first route that matches, and that address's first paint when it has one, made once
 * here, not per request. Another address gets `html` as it is (the app sends it to `/`).
 */
export function appPages(webDist: string, html: string, programmeUrl?: string): (pathname: string) => string {
  const paints = readFirstPaints(webDist, programmeUrl);
  const pages = readRoutes(webDist).map((route) => {
    const links = [
      ...route.scripts.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`),
      ...route.styles.map((href) => `<link rel="preload" as="style" crossorigin href="${href}">`),
    ].join('');
    const paint = paints.get(route.path);
    let page = links ? html.replace('</head>', `${links}</head>`) : html;
    // A function, so that `$` in the markup is not read as a replacement pattern.
    if (paint) page = page.replace('<div id="root"></div>', () => `<div id="root">${paint}</div>`);
    return { pattern: route.path, page };
  });
  return (pathname) => pages.find(({ pattern }) => matches(pattern, pathname))?.page ?? html;
}
