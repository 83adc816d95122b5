// What the kept-uploads journeys (uploads-kept*.test.ts) share: their people, the fresh app they start
// with two clients of Vera's, and readers of the page's kept-uploads database.
import type { BrowserContext, Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { ApiSession, person, seedPeople } from './api.js';
import type { Person } from './api.js';
import type { TestApp } from './app.js';
import { WAIT_MS } from './browser.js';
import { categoryScreen } from './documents.js';
import { seeHeading, signIn } from './journeys.js';

export const admin = person('Amy', 'Admin');
export const vera = person('Vera', 'Kept');
export const wes = person('Wes', 'Other');
const DB = 'vita-docs-uploads';
/** The client page's kept-uploads database (apart from the staff's). */
export const LINK_JOURNAL_DB = 'vita-docs-link-uploads';
export const STORAGE_PUT = '**/api/storage/put?**';

/** Polls until `check` passes (the uploads go on in the page by themselves). */
export async function eventually(check: () => Promise<void>, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** The records of the kept-uploads database as the page's IndexedDB holds them (null: no database). */
export function keptRecords(page: Page) {
  return page.evaluate(async (name) => {
    if (!(await indexedDB.databases()).some((d) => d.name === name)) return null;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error(`cannot open ${name}`));
    });
    const all = (store: string) =>
      new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction(store).objectStore(store).getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error ?? new Error(`cannot open ${name}`));
      });
    const entries = await all('entries');
    const bytes = (await all('bytes')) as { bytes: { data: Blob } }[];
    db.close();
    const clear = await Promise.all(
      bytes.map(async ({ bytes: b }) => new TextDecoder().decode(await b.data.slice(0, 64).arrayBuffer())),
    );
    return { entries: entries.length, bytes: bytes.length, clear, text: JSON.stringify(entries) };
  }, DB);
}

/**
 * The sizes of the files the kept-uploads database `db` holds, read off their sealed Blobs (each
 * 512 KiB piece carries a 16-byte tag): what a test can tell of a kept file without its key.
 */
export function keptSizes(page: Page, db = DB): Promise<number[]> {
  return page.evaluate(async (name) => {
    const opened = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error(`cannot open ${name}`));
    });
    const records = await new Promise<{ bytes: { data: Blob; pieceBytes: number } }[]>((resolve, reject) => {
      const request = opened.transaction('bytes').objectStore('bytes').getAll();
      request.onsuccess = () => resolve(request.result as { bytes: { data: Blob; pieceBytes: number } }[]);
      request.onerror = () => reject(request.error ?? new Error(`cannot read ${name}`));
    });
    opened.close();
    return records.map(({ bytes }) => {
      const pieces = Math.max(1, Math.ceil(bytes.data.size / (bytes.pieceBytes + 16)));
      return bytes.data.size - pieces * 16;
    });
  }, db);
}

/**
 * Waits until the signed-in person's kept-uploads journal is open: its key comes from the server
 * after sign-in, so a page that goes offline before then cannot keep anything (and says so).
 */
export async function journalOpened(page: Page): Promise<void> {
  // Polled from here: page.waitForFunction takes a promise for a truthy answer and returns at once.
  await expect
    .poll(
      () => page.evaluate(async (name) => (await indexedDB.databases()).some((d) => d.name === name), DB),
      {
        timeout: WAIT_MS,
      },
    )
    .toBe(true);
}

/** Waits until the app's service worker controls the page: from then on a reload with no connection opens the app. */
export async function serviceWorkerReady(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
    timeout: WAIT_MS,
  });
}

/** Blocks the file store's PUTs as lost connections (the API stays reachable); returns the unblock. */
export async function cutUploads(context: BrowserContext): Promise<() => Promise<void>> {
  const cut = (route: { abort(code: string): Promise<void> }) => route.abort('internetdisconnected');
  await context.route(STORAGE_PUT, cut);
  return () => context.unroute(STORAGE_PUT, cut);
}

/** The admin has approved Vera and Wes; Vera has two clients, Ada and Bo. */
export async function seedKeptUploads(app: TestApp): Promise<{ adaId: string; boId: string }> {
  await (await seedPeople(app.server, admin, [{ person: vera }, { person: wes }])).dispose();
  const api = await ApiSession.open(app.server);
  await api.signIn(vera);
  const adaId = (await api.createClient('Ada', 'Lovelace')).clientId;
  const boId = (await api.createClient('Bo', 'Diddley')).clientId;
  await api.dispose();
  return { adaId, boId };
}

/** A client's category page, waited for by its heading. */
export async function openCategory(page: Page, clientId: string, docType: string) {
  await page.goto(`/clients/${clientId}/docs/${encodeURIComponent(docType)}`);
  await seeHeading(page, docType);
  return categoryScreen(page);
}

/** Signs `who` in (over the API, in the page's profile) and waits for their greeting. */
export async function signInHome(app: TestApp, page: Page, who: Person): Promise<void> {
  await signIn(page, app.server, who);
  await seeHeading(page, new RegExp(`^Hello, ${who.firstName}`));
}

export const names = (items: { filename: string }[]) => items.map((d) => d.filename).sort();
