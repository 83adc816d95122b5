/**
 * The routes (docs/behaviour.md#routes), in one place. Path parts are URL-encoded (emails, category
 * names with `/`).
 */
export const paths = {
  landing: '/',
  register: '/register',
  registerPending: '/register/pending',
  login: '/login',
  loginVerify: '/login/verify',
  home: '/home',
  account: '/account',
  newClient: '/clients/new',
  clients: '/clients',
  forgot: '/forgot',
  forgotVerify: '/forgot/verify',
  forgotReset: '/forgot/reset',
  clientDocs: (clientId: string) => `/clients/${encodeURIComponent(clientId)}/docs`,
  clientDocType: (clientId: string, docType: string) =>
    `/clients/${encodeURIComponent(clientId)}/docs/${encodeURIComponent(docType)}`,
  adminUser: (email: string) => `/admin/users/${encodeURIComponent(email)}`,
  adminAudit: '/admin/audit',
  adminSettings: '/admin/settings',
  adminSeason: '/admin/season',
} as const;

/**
 * The screens that work with no connection (docs/behaviour.md#offline): a category's, where files
 * are added and queued. Every other screen needs the server.
 */
export const worksOffline = (pathname: string): boolean => /^\/clients\/[^/]+\/docs\/[^/]+$/.test(pathname);

/**
 * `?next=…` for a page to return to after login. Slashes stay readable (`/login?next=/clients/new`,
 * as people read and type it); everything else is encoded so the value survives the round trip.
 */
export function nextQuery(path: string | null): string {
  return path ? `?next=${encodeURIComponent(path).replace(/%2F/g, '/')}` : '';
}

/** The login page that returns to `path` afterwards. */
export function loginFor(path: string): string {
  return `${paths.login}${nextQuery(path)}`;
}

/** A `next` value that is a path inside this app, or null: never another origin (`//evil`, `https:`). */
export function safeNext(raw: string | null | undefined): string | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  return raw;
}
