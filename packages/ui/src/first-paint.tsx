/**
 * The first paint of a signed-out screen (the landing) as HTML, made when the web app is built (apps/web
 * scripts/first-paint.ts): the server puts it in that address's page, so a phone shows the screen
 * before the app's JavaScript has arrived, and the app then hydrates it (apps/web src/main.tsx).
 * It is exactly the app's own first render — the session not known yet, online, nothing kept, no
 * passkey offer yet — so it is the same for a signed-in person, who moves on when `GET /me` answers,
 * as the app alone does.
 */
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { AppProviders } from './app/providers';
import { MemoryRouter } from './app/router';
import { AppRoutes } from './app/routes';
import type { AppServices } from './app/services';

export { DEFAULT_PROGRAMME_URL } from './host';

/**
 * Stands for the programme's website in the markup: only the server knows it (its PROGRAMME_URL, else
 * the build's), and writes it in place of this.
 */
export const PROGRAMME_URL_PLACEHOLDER = 'https://programme-url.invalid/';

/** Nothing in a first render calls a service (their calls start in effects): any call is a mistake. */
const inert = new Proxy(
  {},
  {
    get: (_target, name) => () => {
      throw new Error(`The first paint called ${String(name)}`);
    },
  },
);

/** The markup of the app's first render at `path`, its lazily loaded screen included. */
export async function firstPaint(path: string): Promise<string> {
  const services = {
    api: inert,
    platform: inert,
    clock: inert,
    sessionStorage: { getItem: () => null, setItem: () => undefined, removeItem: () => undefined },
    localStorage: { getItem: () => null, setItem: () => undefined, removeItem: () => undefined },
    config: { programmeUrl: PROGRAMME_URL_PLACEHOLDER },
  } as unknown as AppServices;
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <AppProviders services={services}>
        <MemoryRouter path={path}>
          <AppRoutes />
        </MemoryRouter>
      </AppProviders>
    </StrictMode>,
  );
  let html = '';
  for await (const chunk of prelude) html += String(chunk);
  // The screen's <title> stays out of the body: React adds it to the head when the app runs.
  return html.replace(/<title>[^<]*<\/title>/g, '');
}
