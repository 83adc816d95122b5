/**
 * The first paint of the screen a phone opens first — the landing page — as HTML, written by the build as dist/.vite/first-paint.json. The server puts each in its address's
 * page (apps/server app-page.ts), so the screen shows as soon as the page and its style sheets have
 * arrived, before the app's JavaScript (react-dom alone is about 70 KB gzip) has been fetched and run;
 * the app then hydrates it (src/main.tsx). The markup is packages/ui's own first render
 * (`@vita-docs/ui/first-paint`), loaded through Vite's server-side module loader so that it is built
 * from the same sources as the app.
 */
import { createServer, defaultServerConditions, loadEnv } from 'vite';
import type { Plugin } from 'vite';

/** The file the build writes, under dist/. */
const FIRST_PAINT_FILE = '.vite/first-paint.json';

/**
 * The addresses whose page carries its first paint: the landing only. Login's too was measured
 * (docs/benchmarks.md#lighthouse): its paint came sooner, but the scripts it waits for to work
 * (its screen's chunks, then the contract for the passkey offer) then all ran after that paint, and
 * its blocking time rose more than its paint gained.
 */
const ROUTES = ['/'];

/** What `@vita-docs/ui/first-paint` exports (loaded through Vite: its sources are TSX). */
interface FirstPaintModule {
  firstPaint(path: string): Promise<string>;
  PROGRAMME_URL_PLACEHOLDER: string;
  DEFAULT_PROGRAMME_URL: string;
}

/** One address's first paint. */
interface FirstPaint {
  path: string;
  markup: string;
}

/**
 * What the server reads: the paints; what stands for the programme's website in them; and the
 * website the app links when the server sets none (the build's VITE_PROGRAMME_URL, else the default).
 */
interface FirstPaints {
  programmeUrlPlaceholder: string;
  programmeUrl: string;
  routes: FirstPaint[];
}

async function render(root: string, mode: string): Promise<FirstPaints> {
  const server = await createServer({
    root,
    mode,
    configFile: false,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false },
    resolve: { conditions: ['vita-source'] },
    ssr: {
      noExternal: [/^@vita-docs\//],
      resolve: { conditions: ['vita-source', ...defaultServerConditions] },
    },
  });
  try {
    const module = (await server.ssrLoadModule('@vita-docs/ui/first-paint')) as unknown as FirstPaintModule;
    const routes: FirstPaint[] = [];
    for (const path of ROUTES) routes.push({ path, markup: await module.firstPaint(path) });
    return {
      programmeUrlPlaceholder: module.PROGRAMME_URL_PLACEHOLDER,
      programmeUrl: loadEnv(mode, root, 'VITE_').VITE_PROGRAMME_URL || module.DEFAULT_PROGRAMME_URL,
      routes,
    };
  } finally {
    await server.close();
  }
}

/** The Vite plugin that writes {@link FIRST_PAINT_FILE} (`root`: the web app's folder). */
export function firstPaintPlugin(root: string): Plugin {
  let mode = 'production';
  return {
    name: 'vita-first-paint',
    apply: 'build',
    configResolved(config) {
      mode = config.mode;
    },
    async generateBundle() {
      const source = JSON.stringify(await render(root, mode));
      this.emitFile({ type: 'asset', fileName: FIRST_PAINT_FILE, source });
    },
  };
}
