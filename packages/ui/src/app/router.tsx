/**
 * Routing on wouter (about 2.5 KB gzip, against react-router's 13 in the first download): wouter
 * matches the routes and renders the links; the location it reads is kept here, once per app, so
 * that a navigation is a React transition — the old screen stays until a lazily loaded new one is
 * ready, as before — and so that a location has react-router's `state` and `key` (the first entry's
 * key is `default`; Page moves focus only after an in-app navigation). wouter's own location hooks
 * read the address bar through useSyncExternalStore, whose updates cannot be transitions.
 *
 * The screens use the names they used with react-router (Link, Navigate, useLocation, …), so the
 * hash routing of the kiosk (`#/clients?…`, search inside the hash) and every URL are unchanged.
 */
import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { ComponentProps, ReactNode } from 'react';
import { Link as WouterLink, Redirect, Router, useParams as useWouterParams } from 'wouter';

export { Link, Route, Switch, useSearchParams } from 'wouter';

export interface Location {
  pathname: string;
  /** `?…` or empty. */
  search: string;
  /** What the navigation passed as `state`, or null. */
  state: unknown;
  /** `default` for the page's first entry, a new value after each navigation. */
  key: string;
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

type NavigateFn = (to: string, options?: NavigateOptions) => Promise<void>;

/** Where a router keeps its entries: the address bar (path or hash) or a list in memory (tests). */
interface Entries {
  /** The current entry: its path with search, and what was stored with it. */
  read(): { path: string; data: unknown };
  write(to: string, data: StoredState, replace: boolean): void;
  /** Calls back when the entry changes from outside the app (Back, Forward, a typed hash). */
  listen(onChange: () => void): () => void;
  hrefs?: (to: string) => string;
}

/** What an entry stores, in react-router's shape (`usr`, `key`), so old history entries still read. */
interface StoredState {
  usr: unknown;
  key: string;
}

function toLocation({ path, data }: { path: string; data: unknown }): Location {
  const at = path.indexOf('?');
  const stored = (data ?? {}) as Partial<StoredState>;
  return {
    pathname: at < 0 ? path : path.slice(0, at),
    search: at < 0 ? '' : path.slice(at),
    state: stored.usr ?? null,
    key: stored.key ?? 'default',
  };
}

function listenTo(events: string[], onChange: () => void): () => void {
  for (const type of events) window.addEventListener(type, onChange);
  return () => {
    for (const type of events) window.removeEventListener(type, onChange);
  };
}

const browserEntries: Entries = {
  read: () => ({ path: window.location.pathname + window.location.search, data: window.history.state }),
  write: (to, data, replace) => window.history[replace ? 'replaceState' : 'pushState'](data, '', to),
  listen: (onChange) => listenTo(['popstate'], onChange),
};

const hashEntries: Entries = {
  read: () => ({ path: `/${window.location.hash.replace(/^#?\/?/, '')}`, data: window.history.state }),
  write: (to, data, replace) => window.history[replace ? 'replaceState' : 'pushState'](data, '', `#${to}`),
  listen: (onChange) => listenTo(['popstate', 'hashchange'], onChange),
  hrefs: (to) => `#${to}`,
};

function memoryEntries(initial: string): Entries {
  const stack: { path: string; data: unknown }[] = [{ path: initial, data: null }];
  return {
    read: () => stack[stack.length - 1] ?? { path: '/', data: null },
    write: (path, data, replace) => {
      if (replace) stack.pop();
      stack.push({ path, data });
    },
    listen: () => () => {},
  };
}

interface LocationContext {
  location: Location;
  navigate: NavigateFn;
}

const LocationCtx = createContext<LocationContext | null>(null);

function useLocationContext(): LocationContext {
  const value = useContext(LocationCtx);
  if (!value) throw new Error('A routed component is rendered outside the app router');
  return value;
}

// wouter's location and search hooks, read from the one location of the app.
function useRouterLocation(): [string, NavigateFn] {
  const { location, navigate } = useLocationContext();
  return [location.pathname, navigate];
}
const useRouterSearch = () => useLocationContext().location.search;

let keys = 0;

function AppRouter({ entries, children }: { entries: Entries; children: ReactNode }) {
  const [location, setLocation] = useState(() => toLocation(entries.read()));
  useEffect(
    () => entries.listen(() => startTransition(() => setLocation(toLocation(entries.read())))),
    [entries],
  );
  const navigate = useCallback<NavigateFn>(
    (to, { replace = false, state = null } = {}) => {
      entries.write(to, { usr: state, key: `${Date.now().toString(36)}-${++keys}` }, replace);
      startTransition(() => setLocation(toLocation(entries.read())));
      return Promise.resolve();
    },
    [entries],
  );
  const value = useMemo(() => ({ location, navigate }), [location, navigate]);
  return (
    <LocationCtx.Provider value={value}>
      <Router
        hook={useRouterLocation}
        searchHook={useRouterSearch}
        {...(entries.hrefs ? { hrefs: entries.hrefs } : {})}
      >
        {children}
      </Router>
    </LocationCtx.Provider>
  );
}

/** The web app's router: paths in the address bar. */
export function BrowserRouter({ children }: { children: ReactNode }) {
  return <AppRouter entries={browserEntries}>{children}</AppRouter>;
}

/** The kiosk's router: the page is one file, the route lives in the hash (`#/clients`). */
export function HashRouter({ children }: { children: ReactNode }) {
  return <AppRouter entries={hashEntries}>{children}</AppRouter>;
}

/**
 * A router over a list in memory, starting at `path` (tests, and the build's first paint).
 *
 * @internal
 */
export function MemoryRouter({ path, children }: { path: string; children: ReactNode }) {
  const [entries] = useState(() => memoryEntries(path));
  return <AppRouter entries={entries}>{children}</AppRouter>;
}

export const useLocation = (): Location => useLocationContext().location;

export const useNavigate = (): NavigateFn => useLocationContext().navigate;

/** The current route's parameters, decoded (paths.ts encodes them: emails, category names). */
export function useParams(): Record<string, string | undefined> {
  const raw = useWouterParams();
  return useMemo(() => {
    const decoded: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(raw)) {
      if (/^\d+$/.test(name)) continue;
      decoded[name] = value === undefined ? undefined : safeDecode(value);
    }
    return decoded;
  }, [raw]);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Goes to `to` once rendered (a redirect); `replace` keeps the current entry out of the history. */
export function Navigate({ to, replace, state }: { to: string; replace?: boolean; state?: unknown }) {
  return <Redirect to={to} {...(replace ? { replace } : {})} {...(state === undefined ? {} : { state })} />;
}

/** A link that says when it is the current page (`aria-current="page"`, class `active`). */
export function NavLink({ className, to, ...props }: ComponentProps<typeof WouterLink> & { to: string }) {
  const { pathname } = useLocation();
  const active = pathname === to;
  return (
    <WouterLink
      to={to}
      className={active ? `${String(className ?? '')} active`.trim() : className}
      {...(active ? { 'aria-current': 'page' as const } : {})}
      {...props}
    />
  );
}
