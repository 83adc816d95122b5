/**
 * What each route of the staff app needs before its screen shows, beyond the page's own entry: its
 * screen's chunk, what that imports, and what the screen waits for (the session check's schema, the
 * contract). The build writes it as dist/.vite/route-chunks.json, read by
 *  - the server, which adds these files to the page it sends for that address as modulepreload (and
 *    style preload) links: the browser fetches them beside the entry, not one round trip after it has run;
 *  - scripts/bundle-size.mjs, which counts them as the route's initial JS.
 * A route of packages/ui's routes.tsx missing here, or a module with no chunk, fails the build.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin, Rollup } from 'vite';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

/** The file the build writes, under dist/. */
const ROUTE_CHUNKS_FILE = '.vite/route-chunks.json';

const packages = path.resolve(import.meta.dirname, '../../../packages');
const ui = (file: string) => path.join(packages, 'ui/src', file);
const core = (file: string) => path.join(packages, 'core/src', file);

/**
 * The session check's schema with zod's core: fetched beside the session check, so needed by every
 * screen that waits for that answer before it shows (the signed-in ones). The landing, login,
 * sign-up and reset screens show without it.
 */
const SESSION = core('api/session-contract.ts');
/** The contract's table and schemas: needed by the screens that ask the server as soon as they show. */
const CONTRACT = core('api/endpoints.ts');
const SIGNED_IN = [SESSION, CONTRACT];

/** Every route of routes.tsx (docs/behaviour.md#routes) and the lazily loaded modules it shows or waits for. */
const ROUTES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['/', []],
  ['/register', [ui('screens/auth/register.tsx')]],
  ['/register/pending', [ui('screens/auth/register-pending.tsx')]],
  ['/login', [ui('screens/auth/login.tsx')]],
  ['/login/verify', [ui('screens/auth/login-verify.tsx')]],
  ['/forgot', [ui('screens/auth/forgot.tsx')]],
  ['/forgot/verify', [ui('screens/auth/forgot.tsx')]],
  ['/forgot/reset', [ui('screens/auth/forgot.tsx')]],
  ['/home', [ui('screens/home/home.tsx'), ...SIGNED_IN]],
  ['/account', [ui('screens/account.tsx'), ...SIGNED_IN]],
  ['/admin/users/:userEmail', [ui('screens/admin-user.tsx'), ...SIGNED_IN]],
  ['/admin/audit', [ui('screens/admin-audit.tsx'), ...SIGNED_IN]],
  ['/admin/settings', [ui('screens/admin-settings.tsx'), ...SIGNED_IN]],
  ['/admin/season', [ui('screens/admin-season.tsx'), ...SIGNED_IN]],
  ['/clients', [ui('screens/clients/client-list.tsx'), ...SIGNED_IN]],
  // Nothing to ask the server for until the form is sent: only the session.
  ['/clients/new', [ui('screens/clients/new-client.tsx'), SESSION]],
  ['/clients/:clientId/docs', [ui('screens/documents/client-docs.tsx'), ...SIGNED_IN]],
  // The category screen shows before its adding of files (with the upload queues' code) is here.
  ['/clients/:clientId/docs/:docType', [ui('screens/documents/category.tsx'), ...SIGNED_IN]],
];

/** One route's files beyond the entry's, as URLs. */
interface RouteChunks {
  /** The route's pattern: `:name` segments match any one segment. */
  path: string;
  scripts: string[];
  styles: string[];
}

/** The routes routes.tsx declares, to check the table above against. */
function declaredRoutes(): string[] {
  const source = readFileSync(ui('app/routes.tsx'), 'utf8');
  return [...source.matchAll(/<Route path="([^"]+)"/g)].map(([, route]) => route ?? '');
}

/** `chunk` and every chunk it imports statically, by file name. */
function withImports(bundle: OutputBundle, chunk: OutputChunk, into = new Set<string>()): Set<string> {
  if (into.has(chunk.fileName)) return into;
  into.add(chunk.fileName);
  for (const file of chunk.imports) {
    const imported = bundle[file];
    if (imported?.type === 'chunk') withImports(bundle, imported, into);
  }
  return into;
}

function routeChunks(bundle: OutputBundle, entryHtml: string): RouteChunks[] {
  const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
  const entry = chunks.find((chunk) => chunk.isEntry && chunk.facadeModuleId === entryHtml);
  if (!entry) throw new Error(`route-chunks: no entry chunk for ${entryHtml}`);
  const initial = withImports(bundle, entry);
  const css = (files: Iterable<string>) =>
    new Set(
      [...files].flatMap((file) => [...((bundle[file] as OutputChunk).viteMetadata?.importedCss ?? [])]),
    );
  const initialCss = css(initial);
  return ROUTES.map(([route, modules]) => {
    const files = new Set<string>();
    for (const module of modules) {
      const chunk = chunks.find((c) => c.facadeModuleId === module || c.moduleIds.includes(module));
      if (!chunk) throw new Error(`route-chunks: no chunk holds ${module} (route ${route})`);
      withImports(bundle, chunk, files);
    }
    const scripts = [...files].filter((file) => !initial.has(file));
    const styles = [...css(scripts)].filter((file) => !initialCss.has(file));
    return { path: route, scripts: scripts.map((f) => `/${f}`), styles: styles.map((f) => `/${f}`) };
  });
}

/** The Vite plugin that writes {@link ROUTE_CHUNKS_FILE} for the page `entryHtml` (an absolute path). */
export function routeChunksPlugin(entryHtml: string): Plugin {
  return {
    name: 'vita-route-chunks',
    apply: 'build',
    buildStart() {
      const declared = declaredRoutes();
      const listed = ROUTES.map(([route]) => route);
      const missing = declared.filter((route) => !listed.includes(route));
      const extra = listed.filter((route) => !declared.includes(route));
      if (missing.length || extra.length)
        throw new Error(
          `route-chunks: update ROUTES (missing: ${missing.join(', ')}; not routes: ${extra.join(', ')})`,
        );
    },
    generateBundle: {
      // After Vite has taken out the chunks that held only style sheets.
      order: 'post',
      handler(_options, bundle) {
        this.emitFile({
          type: 'asset',
          fileName: ROUTE_CHUNKS_FILE,
          source: `${JSON.stringify({ routes: routeChunks(bundle, entryHtml) }, null, 1)}\n`,
        });
      },
    },
  };
}
