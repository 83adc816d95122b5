/**
 * What the reliability scenarios share: the server process (server-process.ts), load recording
 * (load-recording.ts), simulated volunteers that drive the server only over HTTP through core's
 * typed client and a cookie jar each (signed in through the real PIN + emailed-code flow, reading
 * the code from the dev outbox), random PDFs with the SHA-256 the client recorded, and the
 * one-row-per-scenario report.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  createApiClient,
  createFetchPutFile,
  uploadDocument,
  type ApiClient,
  type FileLike,
} from '@vita-docs/core';
import { createCookieJarFetch } from '@vita-docs/core/testing';
import { ADMIN, sleep, VOLUNTEER_PIN } from './server-process.js';

// Process control and load recording live in their own modules; the scenarios import all from here.
export * from './server-process.js';
export * from './load-recording.js';

/** How a scenario runs: the full report form, or the short form the test suite runs. */
export interface ScenarioOptions {
  short: boolean;
  /** Progress lines (the report prints them; the tests stay quiet). */
  log: (line: string) => void;
}

/** One scenario: a file in `reliability/scenarios/` exporting `scenario`. */
export interface Scenario {
  name: string;
  run(options: ScenarioOptions): Promise<Row>;
}

/** One line of the report. */
export interface Row {
  scenario: string;
  /** What was done, with the numbers. */
  done: string;
  /** What held. */
  held: string;
  /** What broke; empty when nothing did. */
  broke: string;
}

/** The newest sign-in code mailed to `email` after the outbox held `after` mails. */
export async function latestCode(url: string, email: string, after = 0): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const res = await fetch(`${url}/api/dev/outbox`);
    const mails = (await res.json()) as Array<{ to: string; text: string }>;
    const text = mails
      .slice(after)
      .filter((mail) => mail.to === email && /\b\d{6}\b/.test(mail.text))
      .at(-1)?.text;
    const code = text ? /\b(\d{6})\b/.exec(text)?.[1] : undefined;
    if (code) return code;
    await sleep(50);
  }
  throw new Error(`no code was mailed to ${email}`);
}

export async function outboxLength(url: string): Promise<number> {
  const res = await fetch(`${url}/api/dev/outbox`);
  return ((await res.json()) as unknown[]).length;
}

let addresses = 0;

/** A browser: its own cookie jar and address, the typed API client on top. */
export interface Browser {
  readonly api: ApiClient;
  /** fetch with this browser's cookies and address (for URLs the API hands out, and raw requests). */
  readonly fetch: (input: string, init?: RequestInit) => Promise<Response>;
  /** Who signed in on it ('' for none). */
  readonly email: string;
  /** The address it comes from (sent as `X-Forwarded-For`). */
  readonly address: string;
  /** The Cookie header it sends to the server (for raw node:http requests on its session). */
  cookieHeader(): string;
}

/** A new browser for `url`, coming from its own address. */
export function openBrowser(url: string, email = ''): Browser {
  addresses += 1;
  const ip = `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
  const withAddress = (input: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('x-forwarded-for', ip);
    return fetch(input, { ...init, headers });
  };
  const jar = createCookieJarFetch(withAddress, { pageUrl: url });
  return {
    api: createApiClient({ baseUrl: `${url}/api`, fetch: jar.fetch, getCookie: jar.getCookie }),
    fetch: jar.fetch,
    email,
    address: ip,
    cookieHeader: jar.cookieHeader,
  };
}

/**
 * Signs `email` in through PIN + emailed code on a new browser. The mail is read at `outbox` (a
 * server process itself: the outbox answers no request relayed by a proxy).
 */
export async function signIn(url: string, email: string, pin: string, outbox = url): Promise<Browser> {
  const browser = openBrowser(url, email);
  const before = await outboxLength(outbox);
  await browser.api.loginInit({ body: { email, pin } });
  await browser.api.loginVerify({ body: { email, code: await latestCode(outbox, email, before) } });
  return browser;
}

/** The admin, and `count` approved volunteers each signed in on its own browser. */
export async function setUpProgramme(
  url: string,
  count: number,
  outbox = url,
): Promise<{ admin: Browser; volunteers: Browser[] }> {
  const admin = await signIn(url, ADMIN.email, ADMIN.pin, outbox);
  const volunteers: Browser[] = [];
  for (let i = 0; i < count; i += 1) {
    const email = `volunteer${i}@reliability.test`;
    await openBrowser(url).api.register({
      body: { firstName: 'Vol', lastName: `Number ${i}`, email, pin: VOLUNTEER_PIN },
    });
    await admin.api.approveUser({ params: { email }, body: { approved: true } });
    volunteers.push(await signIn(url, email, VOLUNTEER_PIN, outbox));
  }
  return { admin, volunteers };
}

/** A new client of `browser`'s volunteer; returns its id. */
export async function newClient(browser: Browser, label: string): Promise<string> {
  const created = await browser.api.createClient({
    body: {
      firstName: 'Client',
      lastName: label,
      email: `${label.toLowerCase().replace(/[^a-z0-9]/g, '')}@client.test`,
      phone: '555 010 0100',
    },
  });
  return created.client.clientId;
}

/** A `size`-byte PDF: the `%PDF-1.7` line, then random bytes. */
export function randomPdf(size: number): Buffer {
  const bytes = randomBytes(size);
  bytes.write('%PDF-1.7\n', 0, 'latin1');
  return bytes;
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const asFile = (name: string, bytes: Buffer): FileLike => ({
  name,
  type: 'application/pdf',
  size: bytes.length,
  arrayBuffer: async () =>
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
});

/** Uploads as the app does (presign with size and SHA-256, PUT, complete); returns the key. */
export async function upload(
  browser: Browser,
  clientId: string,
  docType: string,
  name: string,
  bytes: Buffer,
): Promise<string> {
  return uploadDocument(
    browser.api,
    createFetchPutFile(browser.fetch),
    { clientId, docType },
    asFile(name, bytes),
  );
}

/** Reads a whole response body from a URL the API handed out. */
export async function download(browser: Browser, url: string): Promise<Buffer> {
  const res = await browser.fetch(url, { credentials: 'omit' });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}

/** Prints the rows as a Markdown table (the form `docs/reliability.md` keeps). */
export function formatTable(rows: readonly Row[]): string {
  const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
  return [
    '| Scenario | Done | Held | Broke |',
    '|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${cell(row.scenario)} | ${cell(row.done)} | ${cell(row.held)} | ${cell(row.broke) || 'nothing'} |`,
    ),
  ].join('\n');
}
