/**
 * The kiosk's page: the first-run settings until a server and a scanner folder are set, then the
 * shared screens of @vita-docs/ui against that server, under a thin desk bar (the server's host
 * name, the scanner folder's status line, Settings) and the scans listed to dismiss.
 *
 * Routing uses a HashRouter: the page is one file (`app://vita/index.html`), so no route ever asks
 * main's protocol handler for a path (a category name with a dot would look like a missing asset),
 * and a reload always lands on the same screen.
 */
import { AppProviders, AppRoutes, HashRouter } from '@vita-docs/ui';
import { useMemo, useState } from 'react';
import type { DesktopBridge, DesktopSettings } from '../shared/bridge.js';
import { isConfigured } from '../shared/settings.js';
import { DeskNotices, DeskStatusLine, useInboxState } from './desk-status.js';
import { createDesktopServices } from './desktop-services.js';
import { SetupScreen } from './setup-screen.js';

export function DeskApp({ bridge, initial }: { bridge: DesktopBridge; initial: DesktopSettings }) {
  const [settings, setSettings] = useState(initial);
  const [editing, setEditing] = useState(!isConfigured(initial));
  const inbox = useInboxState(bridge);
  const serverUrl = settings.serverUrl;
  // New services (and so a new session) only when the server changes.
  const services = useMemo(
    () => (serverUrl ? createDesktopServices(bridge, serverUrl) : null),
    [bridge, serverUrl],
  );

  if (editing || !isConfigured(settings) || !services) {
    return (
      <SetupScreen
        bridge={bridge}
        current={settings}
        inbox={inbox}
        onSaved={(saved) => {
          setSettings(saved);
          setEditing(false);
        }}
        {...(isConfigured(settings) ? { onCancel: () => setEditing(false) } : {})}
      />
    );
  }
  return (
    <>
      <div className="desk-bar">
        {/* The host, large enough to notice: a desk pointed at someone else's server shows it here,
            above the sign-in screen too, before anyone types a PIN. */}
        <span className="desk-bar__server" title={settings.serverUrl}>
          Server: <strong>{new URL(settings.serverUrl).host}</strong>
        </span>
        <DeskStatusLine state={inbox} />
        <button type="button" className="button button--small" onClick={() => setEditing(true)}>
          Settings
        </button>
      </div>
      <DeskNotices bridge={bridge} state={inbox} />
      <AppProviders key={settings.serverUrl} services={services}>
        <HashRouter>
          <AppRoutes />
        </HashRouter>
      </AppProviders>
    </>
  );
}
