/**
 * `@vita-docs/ui/client-link`: the client's document-request page alone, so its host (apps/web's `u.html`)
 * bundles nothing of the staff app.
 */
export { ClientLinkPage } from './screens/client-link/client-link-page';
export type { ClientLinkPageProps } from './screens/client-link/client-link-page';
