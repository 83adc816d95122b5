/**
 * The client's side of a document request (docs/behaviour.md#requesting-documents-from-a-client): the link
 * is opened (a code is mailed), the client proves who they are (code, and client PIN when there is one),
 * agrees to the consent statement, then works through the checklist and presses `I'm done`.
 * Uploads themselves go through the upload queue; the flow is told when one is stored (`refresh`).
 */
import type { ApiClient } from '../../api/client.js';
import { errorMessage, isApiError } from '../../api/errors.js';
import type { LinkChecklist } from '../../api/link-schemas.js';
import { CLIENT_LINK_TEXTS, CONSENT_VERSION, type ClientLinkLanguage } from '../../client-link/texts.js';
import { createStore, type Flow } from '../../store.js';

export type ClientLinkState =
  | { status: 'opening'; language: ClientLinkLanguage }
  | {
      status: 'prove';
      language: ClientLinkLanguage;
      codeSentTo: string | null;
      needsPin: boolean;
      busy: boolean;
      error: string | null;
    }
  | { status: 'locked'; language: ClientLinkLanguage }
  | { status: 'consent'; language: ClientLinkLanguage; checklist: LinkChecklist; busy: boolean }
  | {
      status: 'checklist';
      language: ClientLinkLanguage;
      checklist: LinkChecklist;
      busy: boolean;
      error: string | null;
    }
  | { status: 'done'; language: ClientLinkLanguage }
  /** Expired, revoked, finished or unknown: the one text and nothing else. */
  | { status: 'gone'; language: ClientLinkLanguage };

export type ClientLinkEvent =
  | { type: 'start' }
  | { type: 'prove'; code?: string; pin?: string }
  | { type: 'resend' }
  | { type: 'consent' }
  | { type: 'refresh' }
  | { type: 'missing'; docType: string; note?: string }
  | { type: 'undoMissing'; docType: string }
  | { type: 'remove'; key: string }
  | { type: 'finish' }
  | { type: 'language'; language: ClientLinkLanguage };

export interface ClientLinkFlowOptions {
  api: Pick<
    ApiClient,
    'linkOpen' | 'linkVerify' | 'linkChecklist' | 'linkConsent' | 'linkAnswer' | 'linkRemove' | 'linkDone'
  >;
  /** The token from the link's fragment; null when the page was opened without one (a reload after it was dropped). */
  token: string | null;
}

export type ClientLinkFlow = Flow<ClientLinkState, ClientLinkEvent>;

/**
 * Creates the client-link flow; send `start` once the page is shown.
 *
 * @example
 * ```ts
 * const flow = createClientLinkFlow({ api, token: location.hash.slice(1) });
 * flow.subscribe((s) => render(s));
 * await flow.send({ type: 'start' }); // → prove (the code was mailed)
 * await flow.send({ type: 'prove', code: '123456' }); // → consent
 * await flow.send({ type: 'consent' }); // → checklist
 * await flow.send({ type: 'missing', docType: 'W-2', note: 'No job this year' });
 * await flow.send({ type: 'finish' }); // → done
 * ```
 */
export function createClientLinkFlow({ api, token }: ClientLinkFlowOptions): ClientLinkFlow {
  const store = createStore<ClientLinkState>({ status: 'opening', language: 'en' });
  const language = () => store.getState().language;
  const gone = (error: unknown) =>
    isApiError(error) && (error.status === 410 || error.code === 'link_expired');

  async function show(checklist: LinkChecklist): Promise<void> {
    const lang = store.getState().status === 'opening' ? checklist.language : language();
    store.setState(
      checklist.consented
        ? { status: 'checklist', language: lang, checklist, busy: false, error: null }
        : { status: 'consent', language: lang, checklist, busy: false },
    );
  }

  /** Reads the checklist; a link session that ended (idle, closed) goes back to proving or to `gone`. */
  async function load(): Promise<boolean> {
    try {
      await show(await api.linkChecklist());
      return true;
    } catch (error) {
      if (gone(error)) store.setState({ status: 'gone', language: language() });
      else if (!(isApiError(error) && error.status === 401)) throw error;
      return gone(error);
    }
  }

  async function open(resend: boolean): Promise<void> {
    if (!token) return store.setState({ status: 'gone', language: language() });
    try {
      const opened = await api.linkOpen({ body: { token, ...(resend && { resend: true }) } });
      store.setState({ status: 'prove', ...opened, busy: false, error: null });
    } catch (error) {
      if (gone(error)) return store.setState({ status: 'gone', language: language() });
      const state = store.getState();
      if (state.status === 'prove') store.setState({ ...state, busy: false, error: errorMessage(error) });
      else store.setState({ status: 'gone', language: language() });
    }
  }

  async function prove(code: string | undefined, pin: string | undefined): Promise<void> {
    const state = store.getState();
    if (state.status !== 'prove' || !token) return;
    store.setState({ ...state, busy: true, error: null });
    try {
      await api.linkVerify({
        body: { token, ...(code?.trim() && { code: code.trim() }), ...(pin && { pin }) },
      });
      await load();
    } catch (error) {
      if (gone(error)) return store.setState({ status: 'gone', language: state.language });
      if (isApiError(error) && error.status === 429 && error.message === CLIENT_LINK_TEXTS.en.locked)
        return store.setState({ status: 'locked', language: state.language });
      // One text for every wrong answer, in the client's language.
      const text =
        isApiError(error) && error.status === 400
          ? CLIENT_LINK_TEXTS[state.language].wrongAnswer
          : errorMessage(error);
      store.setState({ ...state, busy: false, error: text });
    }
  }

  /** A checklist action; the list is read again after it (what the server now holds). */
  async function act(work: () => Promise<unknown>): Promise<void> {
    const state = store.getState();
    if (state.status !== 'checklist' && state.status !== 'consent') return;
    store.setState({ ...state, busy: true });
    try {
      await work();
      await load();
    } catch (error) {
      if (gone(error)) return store.setState({ status: 'gone', language: state.language });
      if (isApiError(error) && error.status === 401) return open(false);
      store.setState({
        ...state,
        busy: false,
        ...(state.status === 'checklist' && { error: errorMessage(error) }),
      });
    }
  }

  async function finish(): Promise<void> {
    const state = store.getState();
    if (state.status !== 'checklist') return;
    store.setState({ ...state, busy: true });
    try {
      await api.linkDone();
      store.setState({ status: 'done', language: state.language });
    } catch (error) {
      if (gone(error)) return store.setState({ status: 'gone', language: state.language });
      store.setState({ ...state, busy: false, error: errorMessage(error) });
    }
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      switch (event.type) {
        case 'start':
          // A link session kept from before (a reload) goes straight to the checklist.
          if (store.getState().status === 'opening' && !(await load().catch(() => false))) {
            if (store.getState().status === 'opening') await open(false);
          }
          return;
        case 'prove':
          return prove(event.code, event.pin);
        case 'resend':
          if (store.getState().status === 'prove') await open(true);
          return;
        case 'consent':
          return act(() => api.linkConsent({ body: { version: CONSENT_VERSION } }));
        case 'refresh':
          return act(async () => undefined);
        case 'missing':
          return act(() =>
            api.linkAnswer({
              body: {
                docType: event.docType,
                missing: true,
                ...(event.note?.trim() && { note: event.note.trim() }),
              },
            }),
          );
        case 'undoMissing':
          return act(() => api.linkAnswer({ body: { docType: event.docType, missing: false } }));
        case 'remove':
          return act(() => api.linkRemove({ body: { key: event.key } }));
        case 'finish':
          return finish();
        case 'language':
          store.setState({ ...store.getState(), language: event.language });
          return;
      }
    },
  };
}
