/**
 * The client's side of a document request (docs/behaviour.md#requesting-documents-from-a-client): the link
 * is opened (a code is mailed), the client proves who they are (code, and client PIN when there is one),
 * agrees to the consent statement, then works through the checklist and presses `I'm done`.
 * Uploads themselves go through the upload queue; the flow is told when one is stored (`refresh`).
 */
import type { ApiClient } from '../../api/client.js';
import { errorMessage, isApiError } from '../../api/errors.js';
import type { LinkChecklist } from '../../api/link-schemas.js';
import type { ClientLinkLanguage } from '../../client-link/languages.js';
import { CLIENT_LINK_TEXTS } from '../../client-link/texts.js';
import { createStore, type Flow, type Store } from '../../store.js';

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

/** The flow's parts, each a function of the store and the ports. */
type Ports = ClientLinkFlowOptions & { store: Store<ClientLinkState> };

const isGone = (error: unknown) =>
  isApiError(error) && (error.status === 410 || error.code === 'link_expired');

function show({ store }: Ports, checklist: LinkChecklist): void {
  const state = store.getState();
  const lang = state.status === 'opening' ? checklist.language : state.language;
  store.setState(
    checklist.consented
      ? { status: 'checklist', language: lang, checklist, busy: false, error: null }
      : { status: 'consent', language: lang, checklist, busy: false },
  );
}

/** Reads the checklist; true when shown (or gone). A link session that ended (401) leaves the state as it is. */
async function load(ports: Ports): Promise<boolean> {
  const { api, store } = ports;
  try {
    show(ports, await api.linkChecklist());
    return true;
  } catch (error) {
    if (isGone(error)) store.setState({ status: 'gone', language: store.getState().language });
    else if (!(isApiError(error) && error.status === 401)) throw error;
    return isGone(error);
  }
}

async function open({ api, store, token }: Ports, resend: boolean): Promise<void> {
  const language = store.getState().language;
  if (!token) return store.setState({ status: 'gone', language });
  try {
    const opened = await api.linkOpen({ body: { token, ...(resend && { resend: true }) } });
    store.setState({ status: 'prove', ...opened, busy: false, error: null });
  } catch (error) {
    const state = store.getState();
    if (!isGone(error) && state.status === 'prove')
      return store.setState({ ...state, busy: false, error: errorMessage(error) });
    store.setState({ status: 'gone', language });
  }
}

async function prove(ports: Ports, code: string | undefined, pin: string | undefined): Promise<void> {
  const { api, store, token } = ports;
  const state = store.getState();
  if (state.status !== 'prove' || !token) return;
  store.setState({ ...state, busy: true, error: null });
  try {
    await api.linkVerify({
      body: { token, ...(code?.trim() && { code: code.trim() }), ...(pin && { pin }) },
    });
    await load(ports);
  } catch (error) {
    if (isGone(error)) return store.setState({ status: 'gone', language: state.language });
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
async function act(ports: Ports, work: () => Promise<unknown>): Promise<void> {
  const { store } = ports;
  const state = store.getState();
  if (state.status !== 'checklist' && state.status !== 'consent') return;
  store.setState({ ...state, busy: true });
  try {
    await work();
    await load(ports);
  } catch (error) {
    if (isGone(error)) return store.setState({ status: 'gone', language: state.language });
    if (isApiError(error) && error.status === 401) return open(ports, false);
    store.setState({
      ...state,
      busy: false,
      ...(state.status === 'checklist' && { error: errorMessage(error) }),
    });
  }
}

async function finish({ api, store }: Ports): Promise<void> {
  const state = store.getState();
  if (state.status !== 'checklist') return;
  store.setState({ ...state, busy: true });
  try {
    await api.linkDone();
    store.setState({ status: 'done', language: state.language });
  } catch (error) {
    if (isGone(error)) return store.setState({ status: 'gone', language: state.language });
    store.setState({ ...state, busy: false, error: errorMessage(error) });
  }
}

/** Agrees to the statement as shown: its version and the language it was read in go to the audit log. */
async function consent(api: Ports['api'], state: ClientLinkState): Promise<unknown> {
  if (state.status !== 'consent') return;
  return api.linkConsent({ body: { version: state.checklist.consent.version, language: state.language } });
}

/** A link session kept from before (a reload) goes straight to the checklist; else the link is opened. */
async function start(ports: Ports): Promise<void> {
  if (ports.store.getState().status !== 'opening') return;
  if (await load(ports).catch(() => false)) return;
  if (ports.store.getState().status === 'opening') await open(ports, false);
}

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
export function createClientLinkFlow(options: ClientLinkFlowOptions): ClientLinkFlow {
  const store = createStore<ClientLinkState>({ status: 'opening', language: 'en' });
  const ports: Ports = { ...options, store };
  const { api } = options;
  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      switch (event.type) {
        case 'start':
          return start(ports);
        case 'prove':
          return prove(ports, event.code, event.pin);
        case 'resend':
          if (store.getState().status === 'prove') await open(ports, true);
          return;
        case 'consent':
          return act(ports, () => consent(api, store.getState()));
        case 'refresh':
          return act(ports, async () => undefined);
        case 'missing': {
          const note = event.note?.trim();
          return act(ports, () =>
            api.linkAnswer({ body: { docType: event.docType, missing: true, ...(note && { note }) } }),
          );
        }
        case 'undoMissing':
          return act(ports, () => api.linkAnswer({ body: { docType: event.docType, missing: false } }));
        case 'remove':
          return act(ports, () => api.linkRemove({ body: { key: event.key } }));
        case 'finish':
          return finish(ports);
        case 'language':
          store.setState({ ...store.getState(), language: event.language });
          return;
      }
    },
  };
}
