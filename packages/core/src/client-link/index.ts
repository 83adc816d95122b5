/**
 * `@vita-docs/core/client-link`: what the client's document-request page needs, without the rest of the
 * contract (its zod schemas): that page's first download must stay small.
 */
export { createClientLinkFlow } from '../flows/client-link/client-link.js';
export type {
  ClientLinkFlow,
  ClientLinkFlowOptions,
  ClientLinkState,
  ClientLinkEvent,
  WhoAsks,
} from '../flows/client-link/client-link.js';
export { CLIENT_LINK_TEXTS, clientLinkText, maskEmail } from './texts.js';
export { categoryHint } from './category-hints.js';
export type { ClientLinkTextKey, ClientLinkTexts } from './texts.js';
export { CLIENT_LINK_LANGUAGES } from './languages.js';
export type { ClientLinkLanguage } from './languages.js';
export { createLinkApi, LINK_CALLS } from './link-api.js';
export type { LinkApi, LinkApiOptions } from './link-api.js';
export type { LinkChecklist, LinkFile } from '../api/link-schemas.js';
export { formatBytes } from '../domain/format.js';
export { LINK_DAYS_MAX } from './limits.js';
export { readCookie } from '../api/read-cookie.js';
