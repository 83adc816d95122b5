// The client's request page (/u) as a client meets it: the link from the mail, the mailed code, the
// page's words in the link's language, and what a phone needs of each screen.
import { CLIENT_LINK_TEXTS, type ClientLinkLanguage } from '@vita-docs/core';
import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';
import type { ApiSession, Person } from './api.js';
import type { TestApp, Visitor } from './app.js';
import { seeHeading, signIn } from './journeys.js';
import { checkScreen } from './screens.js';
import { startWithVolunteer } from './seed.js';
import { test } from './test.js';

/** The client of {@link clientPageBesideStaff}. */
const DORA = 'dora.client@client.example.org';

/** A request link to the client, in `language`, for `categories`; its URL. */
export async function requestLink(
  api: ApiSession,
  clientId: string,
  language: ClientLinkLanguage,
  categories = ['13614-C', 'Banking Info'],
): Promise<string> {
  const { url } = await api.call<{ url: string }>('POST', `/clients/${clientId}/link`, {
    categories,
    language,
  });
  return url;
}

/** A checklist row of the client page, by its category. */
export const linkRow = (page: Page, docType: string) =>
  page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 2, name: docType, exact: true }) });

/**
 * The client opens the link and enters the code mailed to `to`; the consent step is next. `onCodeScreen`
 * looks at the code screen first.
 */
export async function proveWithCode(
  app: TestApp,
  client: Visitor,
  url: string,
  to: string,
  language: ClientLinkLanguage,
  onCodeScreen?: () => Promise<void>,
): Promise<void> {
  const t = CLIENT_LINK_TEXTS[language];
  const after = Date.now() - 1000;
  await client.page.goto(url);
  await client.page.getByLabel(t.codeLabel).waitFor();
  await onCodeScreen?.();
  const code = await app.server.latestCode(to, { after });
  await client.page.getByLabel(t.codeLabel).fill(code);
  await client.page.getByRole('button', { name: t.continue }).click();
}

/** What a phone needs of a client screen, measured in the page as it is drawn. */
async function phoneProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
    const h1s = document.querySelectorAll('h1').length;
    if (h1s !== 1) problems.push(`${h1s} h1 elements`);
    for (const el of Array.from(document.querySelectorAll('input, textarea, select'))) {
      const input = el as HTMLInputElement;
      const box = input.getBoundingClientRect();
      if (input.type === 'file') {
        // Visually hidden (clipped to nothing), never the browser's own "Choose Files" control.
        const style = getComputedStyle(input);
        if (box.width > 1 || box.height > 1 || (style.clipPath === 'none' && style.clip === 'auto'))
          problems.push(
            `a native file control is visible (${Math.round(box.width)}×${Math.round(box.height)})`,
          );
        continue;
      }
      if (input.type === 'hidden') continue;
      const size = parseFloat(getComputedStyle(input).fontSize);
      if (input.type !== 'checkbox' && size < 16) problems.push(`${name(input)} font ${size}px`);
      const target = input.type === 'checkbox' ? (input.closest('label') ?? input) : input;
      const t = target.getBoundingClientRect();
      if (t.width < 44 || t.height < 44)
        problems.push(`${input.type} target ${Math.round(t.width)}×${Math.round(t.height)}`);
      if (input.type === 'checkbox' && (box.width < 24 || box.height < 24))
        problems.push(`checkbox ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
    for (const el of Array.from(document.querySelectorAll('button, a[href], label:has(input[type=file])'))) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (box.width < 44 || box.height < 44)
        problems.push(`${name(el)} target ${Math.round(box.width)}×${Math.round(box.height)}`);
      if (box.right > document.documentElement.clientWidth + 0.5)
        problems.push(`${name(el)} spills past the page`);
    }
    return problems;
  });
}

/** The screen as it is now: what a phone needs, then axe at phone and desktop size. */
export async function checkClientScreen(page: Page, name: string): Promise<void> {
  expect(await phoneProblems(page), name).toEqual([]);
  await checkScreen(page, name);
}

/** The client types their name to sign, ticks `I agree` and goes on to the checklist. */
export async function signConsent(page: Page, language: ClientLinkLanguage, name: string): Promise<void> {
  const t = CLIENT_LINK_TEXTS[language];
  await page.getByLabel(t.signName).fill(name);
  await page.getByRole('checkbox', { name: t.consentAgree }).check();
  await page.getByRole('button', { name: t.continue }).click();
}

/**
 * The client's page as the client first sees it: a link for `categories` requested by the
 * volunteer's `api`, opened in a new profile, the code mailed to `email` typed and the consent signed
 * as `name`. Returns the profile, on the checklist.
 */
async function openClientPage(
  app: TestApp,
  api: ApiSession,
  clientId: string,
  email: string,
  language: ClientLinkLanguage,
  name: string,
  categories = ['13614-C', 'Banking Info'],
): Promise<Visitor> {
  const url = await requestLink(api, clientId, language, categories);
  const client = await app.visit();
  await proveWithCode(app, client, url, email, language);
  await signConsent(client.page, language, name);
  return client;
}

/**
 * A fresh app whose `volunteer` has one client, Dora, with the volunteer's Banking Info screen open
 * (`staff`, to read what is stored) beside Dora's page in Spanish, on its checklist (`client`).
 */
async function clientPageBesideStaff(
  startApp: () => Promise<TestApp>,
  admin: Person,
  volunteer: Person,
): Promise<{ app: TestApp; api: ApiSession; clientId: string; staff: Visitor; client: Visitor }> {
  const { app, clientId, api } = await startWithVolunteer(startApp, admin, volunteer, 'Dora');
  const staff = await app.visit();
  await signIn(staff.page, app.server, volunteer, `/clients/${clientId}/docs/Banking%20Info`);
  const client = await openClientPage(app, api, clientId, DORA, 'es', 'Dora Client');
  await seeHeading(client.page, 'Hola Dora, por favor agregue estos documentos');
  return { app, api, clientId, staff, client };
}

/** {@link clientPageBesideStaff}'s app, made before a describe block's tests and stopped after them. */
export interface ClientPageWorld {
  app: TestApp;
  api: ApiSession;
  clientId: string;
  staff: Visitor;
  client: Visitor;
}

/** Registers the describe block's hooks: {@link clientPageBesideStaff} before its tests, stopped after. */
export function clientPageWorld(admin: Person, volunteer: Person): ClientPageWorld {
  const world = {} as ClientPageWorld;
  test.beforeAll(async ({ startApp }) => {
    Object.assign(world, await clientPageBesideStaff(startApp, admin, volunteer));
  });
  test.afterAll(async () => {
    await world.api?.dispose();
    await world.app?.stop();
  });
  return world;
}

/** The stored files of one of the client's categories, as the volunteer's API lists them. */
export async function categoryFiles(api: ApiSession, clientId: string, docType: string) {
  const { items } = await api.call<{ items: { key: string; filename: string }[] }>(
    'GET',
    `/docs/list/${clientId}?docType=${encodeURIComponent(docType)}`,
  );
  return items;
}
