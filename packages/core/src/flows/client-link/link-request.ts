/**
 * The volunteer's side of a document request (docs/behaviour.md#requesting-documents-from-a-client): on the
 * Client Documents page, `Request documents from client` opens the `Request documents` dialog (the client's
 * Missing categories ticked, a message, how long the link works, the client's language), `Send link` sends
 * it and shows the link once (QR code, Copy); the open request is shown with `Revoke link`, and a link
 * locked by wrong answers says until when. The transitions are pure functions; the flow adds the calls.
 */
import type { ApiClient } from '../../api/client.js';
import { errorMessage } from '../../api/errors.js';
import { messages } from '../../domain/messages.js';
import {
  LINK_DAYS_DEFAULT,
  LINK_DAYS_MAX,
  type CreateLinkRequest,
  type CreateLinkResponse,
  type LinkStatusResponse,
} from '../../api/link-schemas.js';
import type { ClientLinkLanguage } from '../../client-link/languages.js';
import type { Dialogs } from '../../ports.js';
import { createStore, type Flow } from '../../store.js';

/** The `Request documents` dialog as filled in. */
export interface LinkRequestForm {
  /** The categories ticked, in the page's order. */
  chosen: readonly string[];
  message: string;
  days: number;
  language: ClientLinkLanguage;
  saving: boolean;
}

export interface LinkRequestState {
  /** The client's newest request as last read; null before the first read or when it could not be read. */
  status: LinkStatusResponse | null;
  /** The dialog while it is open. */
  form: LinkRequestForm | null;
  /** The answer to `Send link`: the link is shown this once. */
  sent: CreateLinkResponse | null;
  /** The link was just revoked (said until the next request is opened). */
  revoked: boolean;
}

/** A category of the client's documents page, as the dialog lists it. */
export interface RequestableCategory {
  name: string;
  hasFiles: boolean;
}

export type LinkRequestEvent =
  | { type: 'load' }
  | { type: 'openDialog'; categories: readonly RequestableCategory[] }
  | { type: 'toggle'; name: string }
  | { type: 'setMessage'; message: string }
  | { type: 'setDays'; days: number }
  | { type: 'setLanguage'; language: ClientLinkLanguage }
  | { type: 'closeDialog' }
  | { type: 'send' }
  | { type: 'closeSent' }
  | { type: 'revoke' };

export interface LinkRequestFlowOptions {
  api: Pick<ApiClient, 'clientLinkStatus' | 'createClientLink' | 'revokeClientLink'>;
  clientId: string;
  /** Shows a refusal; asks before revoking. */
  platform: Pick<Dialogs, 'alert' | 'confirm'>;
}

export type LinkRequestFlow = Flow<LinkRequestState, LinkRequestEvent>;

/** @internal Exported for its unit test. */
export const INITIAL_LINK_REQUEST: LinkRequestState = {
  status: null,
  form: null,
  sent: null,
  revoked: false,
};

/** @internal The dialog opened: the Missing categories (no files yet) are ticked to start with. */
export function openDialog(
  state: LinkRequestState,
  categories: readonly RequestableCategory[],
): LinkRequestState {
  const chosen = categories.filter((c) => !c.hasFiles).map((c) => c.name);
  return {
    ...state,
    revoked: false,
    form: { chosen, message: '', days: LINK_DAYS_DEFAULT, language: 'en', saving: false },
  };
}

/** @internal Ticks or unticks a category. */
export function toggleCategory(state: LinkRequestState, name: string): LinkRequestState {
  const { form } = state;
  if (!form) return state;
  const chosen = form.chosen.includes(name) ? form.chosen.filter((c) => c !== name) : [...form.chosen, name];
  return { ...state, form: { ...form, chosen } };
}

/** @internal A change to the message, the days or the language. */
export function editForm(
  state: LinkRequestState,
  patch: Partial<Pick<LinkRequestForm, 'message' | 'days' | 'language'>>,
): LinkRequestState {
  return state.form ? { ...state, form: { ...state.form, ...patch } } : state;
}

/** `Send link` is enabled: something chosen, days within 1 to 14, not already sending. */
export function canSend(form: LinkRequestForm): boolean {
  return !form.saving && form.chosen.length > 0 && form.days >= 1 && form.days <= LINK_DAYS_MAX;
}

/** @internal The request as sent: the message only when there is one. */
export function requestBody(form: LinkRequestForm): CreateLinkRequest {
  const message = form.message.trim();
  return {
    categories: [...form.chosen],
    days: form.days,
    language: form.language,
    ...(message && { message }),
  };
}

/** What the panel says about the newest request. */
export type RequestLine =
  | { kind: 'none' }
  | { kind: 'open'; sentAt: string; opened: boolean; filesIn: number; lockedUntil: string | null }
  | { kind: 'done'; doneAt: string; filesIn: number }
  | { kind: 'lockedForGood' };

/** The panel's line about the newest request; `Revoke link` shows with an open one (locked or not). */
export function requestLine(status: LinkStatusResponse | null): RequestLine {
  const request = status?.request;
  if (!request) return { kind: 'none' };
  switch (request.state) {
    case 'open':
      return {
        kind: 'open',
        sentAt: request.sentAt,
        opened: request.openedAt !== null,
        filesIn: request.filesIn,
        lockedUntil: request.lockedUntil,
      };
    case 'done':
      return request.doneAt
        ? { kind: 'done', doneAt: request.doneAt, filesIn: request.filesIn }
        : { kind: 'none' };
    case 'locked':
      return { kind: 'lockedForGood' };
    // Closed by the volunteer, a newer request, the season or its end: nothing to say.
    case 'expired':
    case 'replaced':
    case 'revoked':
    case 'season':
      return { kind: 'none' };
  }
}

/**
 * Creates the volunteer's request flow for one client; send `load` when the page's list is read (and
 * again after an upload or Refresh).
 *
 * @example
 * ```ts
 * const flow = createLinkRequestFlow({ api, clientId, platform });
 * await flow.send({ type: 'load' });
 * await flow.send({ type: 'openDialog', categories: docsState.categories });
 * await flow.send({ type: 'send' }); // → sent: the link, once, for the QR code and Copy
 * await flow.send({ type: 'revoke' });
 * ```
 */
export function createLinkRequestFlow({ api, clientId, platform }: LinkRequestFlowOptions): LinkRequestFlow {
  const store = createStore<LinkRequestState>(INITIAL_LINK_REQUEST);
  const params = { id: clientId };

  async function load(): Promise<void> {
    const status = await api.clientLinkStatus({ params }).catch(() => null);
    store.setState((s) => ({ ...s, status }));
  }

  async function send(): Promise<void> {
    const { form } = store.getState();
    if (!form || !canSend(form)) return;
    store.setState((s) => ({ ...s, form: { ...form, saving: true } }));
    try {
      const sent = await api.createClientLink({ params, body: requestBody(form) });
      store.setState((s) => ({ ...s, form: null, sent }));
    } catch (error) {
      store.setState((s) => ({ ...s, form: s.form && { ...s.form, saving: false } }));
      return platform.alert(errorMessage(error));
    }
    await load();
  }

  async function revoke(): Promise<void> {
    // The client loses the link at once, in the middle of adding files perhaps: asked first.
    if (!(await platform.confirm(messages.revokeLinkConfirm))) return;
    try {
      await api.revokeClientLink({ params });
      store.setState((s) => ({ ...s, sent: null, revoked: true }));
    } catch (error) {
      await platform.alert(errorMessage(error));
    }
    await load();
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      switch (event.type) {
        case 'load':
          return load();
        case 'openDialog':
          return store.setState((s) => openDialog(s, event.categories));
        case 'toggle':
          return store.setState((s) => toggleCategory(s, event.name));
        case 'setMessage':
          return store.setState((s) => editForm(s, { message: event.message }));
        case 'setDays':
          return store.setState((s) => editForm(s, { days: event.days }));
        case 'setLanguage':
          return store.setState((s) => editForm(s, { language: event.language }));
        case 'closeDialog':
          return store.setState((s) => ({ ...s, form: null }));
        case 'closeSent':
          return store.setState((s) => ({ ...s, sent: null }));
        case 'send':
          return send();
        case 'revoke':
          return revoke();
      }
    },
  };
}
