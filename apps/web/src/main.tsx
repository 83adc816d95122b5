import { AppProviders, AppRoutes, BrowserRouter, preloadScreen } from '@vita-docs/ui';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { registerAppShell } from './app-shell';
import { reloadOnNewBuild } from './reload-on-new-build';
import { createBrowserServices } from './services';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

reloadOnNewBuild();
registerAppShell();

// The address's screen first (its chunk is already on its way: the page links it), so the first paint
// is that screen, not a loading line; if it cannot be fetched, the screen's own loading tries again.
// Then a transition, so React renders the first screen in slices between which the browser may paint
// and answer input, not in one long task (a phone's CPU makes each of those several times longer).
// The landing's page arrives with that first render as HTML (scripts/first-paint.ts),
// shown before this runs: it is hydrated (its elements stay), not drawn again.
void preloadScreen(window.location.pathname)
  .catch(() => undefined)
  .then(() =>
    startTransition(() => {
      const app = (
        <StrictMode>
          <AppProviders services={createBrowserServices()}>
            <BrowserRouter>
              <AppRoutes />
            </BrowserRouter>
          </AppProviders>
        </StrictMode>
      );
      if (root.firstElementChild) hydrateRoot(root, app);
      else createRoot(root).render(app);
    }),
  );
