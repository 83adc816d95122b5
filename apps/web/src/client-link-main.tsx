/**
 * The client's document-request page (`/u#<token>`), an entry of its own: a client's phone downloads
 * only this page and what it uses, not the staff app (docs/behaviour.md#requesting-documents-from-a-client).
 */
import { createLinkApi, readCookie } from '@vita-docs/core/client-link';
import { ClientLinkPage } from '@vita-docs/ui/client-link';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { registerReaderOffline } from './reader-offline';

const root = document.getElementById('root');
if (!root) throw new Error('u.html has no #root element');

/**
 * The token is read from the fragment (never sent to a server) and kept for this tab only, so a
 * reload after the link session ended can ask for a code again; the address bar drops it.
 */
const KEY = 'vita.linkToken';
const fromHash = window.location.hash.slice(1);
if (fromHash) {
  window.sessionStorage.setItem(KEY, fromHash);
  window.history.replaceState(null, '', window.location.pathname);
}
const token = window.sessionStorage.getItem(KEY);

const api = createLinkApi({
  fetch: window.fetch.bind(window),
  getCookie: (name) => readCookie(document.cookie, name),
});

/**
 * The document reader's files, served by this app (vite.config.ts): each file the client adds is read
 * on the phone (docs/behaviour.md#reading-documents).
 */
const READER_FOLDER = '/ocr';

registerReaderOffline();

createRoot(root).render(
  <StrictMode>
    <ClientLinkPage api={api} logger={console} token={token} readerFolder={READER_FOLDER} />
  </StrictMode>,
);
