import { AppProviders, AppRoutes, BrowserRouter } from '@vita-docs/ui';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { registerAppShell } from './app-shell';
import { reloadOnNewBuild } from './reload-on-new-build';
import { createBrowserServices } from './services';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

reloadOnNewBuild();
registerAppShell();

createRoot(root).render(
  <StrictMode>
    <AppProviders services={createBrowserServices()}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
