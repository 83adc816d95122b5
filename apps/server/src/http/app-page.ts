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
 * links of the first route that matches, made once here, not per request. Another address gets
 * `html` as it is (the app sends it to `/`).
 */
export function appPages(webDist: string, html: string): (pathname: string) => string {
  const pages = readRoutes(webDist).map((route) => {
    const links = [
      ...route.scripts.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`),
      ...route.styles.map((href) => `<link rel="preload" as="style" crossorigin href="${href}">`),
    ].join('');
    return { pattern: route.path, page: links ? html.replace('</head>', `${links}</head>`) : html };
  });
  return (pathname) => pages.find(({ pattern }) => matches(pattern, pathname))?.page ?? html;
}
