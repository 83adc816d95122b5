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

/** Who is asking: the programme and the volunteer's first name (null before the link was read). */
export interface WhoAsks {
  programme: string;
  volunteer: string;
}

export type ClientLinkState =
  | { status: 'opening'; language: ClientLinkLanguage }
  | {
      status: 'prove';
      language: ClientLinkLanguage;
      who: WhoAsks;
      codeSentTo: string | null;
      needsPin: boolean;
      busy: boolean;
      error: string | null;
    }
  | { status: 'locked'; language: ClientLinkLanguage }
  | {
      status: 'consent';
      language: ClientLinkLanguage;
      checklist: LinkChecklist;
      busy: boolean;
      error: string | null;
    }
  | {
      status: 'checklist';
      language: ClientLinkLanguage;
      checklist: LinkChecklist;
      busy: boolean;
      error: string | null;
      /** `I'm done` was pressed while a requested row has neither a file nor `I don't have this`. */
      confirming: boolean;
    }
  | { status: 'done'; language: ClientLinkLanguage; who: WhoAsks | null }
  /** The link was finished before this visit: the documents arrived. */
  | { status: 'finished'; language: ClientLinkLanguage; who: WhoAsks }
  /** Expired, revoked or unknown: the one text (and who asked, when the link is known). */
  | { status: 'gone'; language: ClientLinkLanguage; who: WhoAsks | null };

export type ClientLinkEvent =
  | { type: 'start' }
  | { type: 'prove'; code?: string; pin?: string }
  | { type: 'resend' }
  /** Signs the statement with the typed full name. */
  | { type: 'consent'; name: string }
  | { type: 'refresh' }
  | { type: 'missing'; docType: string; note?: string }
  | { type: 'undoMissing'; docType: string }
  | { type: 'remove'; key: string }
  /** `I'm done`; asks first while a requested row has neither a file nor an answer. */
  | { type: 'finish' }
  | { type: 'sendAnyway' }
  | { type: 'goBack' }
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

/** Who asked, as far as the state knows it. */
function whoOf(state: ClientLinkState): WhoAsks | null {
  if ('who' in state) return state.who;
  if ('checklist' in state)
    return { programme: state.checklist.programme, volunteer: state.checklist.volunteer };
  return null;
}

/** The link ended: the expired text, still naming who asked when that is known. */
function gone(store: Store<ClientLinkState>): void {
  const state = store.getState();
  store.setState({ status: 'gone', language: state.language, who: whoOf(state) });
}

/** The phone's time zone for the signed record's time; the server uses UTC without it. */
function phoneTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/** Requested rows with neither a file nor `I don't have this` (the `Something else` row is not requested). */
function rowsStillMissing(checklist: LinkChecklist): string[] {
  return checklist.rows
    .filter((row) => !row.extra && row.files.length === 0 && !row.missing)
    .map((row) => row.docType);
}

function show({ store }: Ports, checklist: LinkChecklist): void {
  const state = store.getState();
  const lang = state.status === 'opening' ? checklist.language : state.language;
  store.setState(
    checklist.consented
      ? { status: 'checklist', language: lang, checklist, busy: false, error: null, confirming: false }
      : { status: 'consent', language: lang, checklist, busy: false, error: null },
  );
}

/** Reads the checklist; true when shown (or gone). A link session that ended (401) leaves the state as it is. */
async function load(ports: Ports): Promise<boolean> {
  const { api, store } = ports;
  try {
    show(ports, await api.linkChecklist());
    return true;
  } catch (error) {
    if (isGone(error)) gone(store);
    else if (!(isApiError(error) && error.status === 401)) throw error;
    return isGone(error);
  }
}

async function open({ api, store, token }: Ports, resend: boolean): Promise<void> {
  if (!token) return gone(store);
  try {
    const {
      state: link,
      programme,
      volunteer,
      ...opened
    } = await api.linkOpen({
      body: { token, ...(resend && { resend: true }) },
    });
    const who = { programme, volunteer };
    if (link === 'done') return store.setState({ status: 'finished', language: opened.language, who });
    if (link === 'expired') return store.setState({ status: 'gone', language: opened.language, who });
    store.setState({ status: 'prove', ...opened, who, busy: false, error: null });
  } catch (error) {
    const state = store.getState();
    if (!isGone(error) && state.status === 'prove')
      return store.setState({ ...state, busy: false, error: errorMessage(error) });
    gone(store);
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
    if (isGone(error)) return gone(store);
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
    if (isGone(error)) return gone(store);
    if (isApiError(error) && error.status === 401) return open(ports, false);
    store.setState({ ...state, busy: false, error: errorMessage(error) });
  }
}

async function finish({ api, store }: Ports, anyway: boolean): Promise<void> {
  const state = store.getState();
  if (state.status !== 'checklist') return;
  if (!anyway && rowsStillMissing(state.checklist).length > 0)
    return store.setState({ ...state, confirming: true });
  store.setState({ ...state, busy: true, confirming: false });
  try {
    await api.linkDone();
    store.setState({ status: 'done', language: state.language, who: whoOf(state) });
  } catch (error) {
    if (isGone(error)) return gone(store);
    store.setState({ ...state, busy: false, confirming: false, error: errorMessage(error) });
  }
}

/**
 * Signs the statement as shown with the typed name: its version and the language it was read in go
 * with it, and the server files the signed record made from the statement it served under that version.
 */
async function consent(api: Ports['api'], state: ClientLinkState, name: string): Promise<unknown> {
  if (state.status !== 'consent') return;
  const timeZone = phoneTimeZone();
  return api.linkConsent({
    body: {
      version: state.checklist.consent.version,
      language: state.language,
      name: name.trim(),
      ...(timeZone && { timeZone }),
    },
  });
}

/** A link session kept from before (a reload) goes straight to the checklist; else the link is opened. */
async function start(ports: Ports): Promise<void> {
  const { api, store } = ports;
  if (store.getState().status !== 'opening') return;
  try {
    return show(ports, await api.linkChecklist());
  } catch {
    // No session, or one whose link has ended since: the link itself says what now (a code to enter,
    // done, or expired), and without the token it is gone.
  }
  if (store.getState().status === 'opening') await open(ports, false);
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
 * await flow.send({ type: 'consent', name: 'Jane Doe' }); // → checklist (the signed record is filed)
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
          if (!event.name.trim()) return;
          return act(ports, () => consent(api, store.getState(), event.name));
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
          return finish(ports, false);
        case 'sendAnyway':
          return finish(ports, true);
        case 'goBack': {
          const state = store.getState();
          if (state.status === 'checklist') store.setState({ ...state, confirming: false });
          return;
        }
        case 'language':
          store.setState({ ...store.getState(), language: event.language });
          return;
      }
    },
  };
}
