import type { TestServer } from '@vita-docs/test-server';
import type { Page } from '@playwright/test';
import type { Person } from './api.js';

/** The landing of a path: waits until the page's URL is exactly `pathAndQuery` on the app's origin. */
export async function atPath(page: Page, pathAndQuery: string): Promise<void> {
  await page.waitForURL((url) => `${url.pathname}${url.search}` === pathAndQuery);
}

/** The page's h1, waited for by its exact text. */
export async function seeHeading(page: Page, text: string | RegExp): Promise<void> {
  await page.getByRole('heading', { level: 1, name: text }).waitFor();
}

/** Fills the login form and waits for the verify page; `from` is where the login page was opened. */
export async function submitCredentials(page: Page, who: Person): Promise<void> {
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password PIN').fill(who.pin);
  await page.getByRole('button', { name: 'Login' }).click();
}

/**
 * Signs `who` in over the API inside the page's own browser profile (the context's request client
 * shares its cookies), then opens where {@link signInViaUi} from `loginPath` would have ended: for
 * journeys whose subject comes after the sign-in. The
 * screens' two steps cost seconds a time and are the subject of the sign-in journeys (accounts,
 * codes, passkeys, idle sign-out), which keep {@link signInViaUi}.
 */
export async function signIn(
  page: Page,
  server: TestServer,
  who: Person,
  loginPath = '/login',
): Promise<void> {
  // Where the screens' sign-in from `loginPath` ends: its `next`, the page asked for, or home.
  const [pathname, query = ''] = loginPath.split('?');
  const path = pathname === '/login' ? (new URLSearchParams(query).get('next') ?? '/home') : loginPath;
  // Relative addresses: the profile's base URL (the app's own origin, localhost for passkeys).
  const request = page.context().request;
  // Any answer sets the CSRF cookie, a 401 included.
  await request.get('/api/me');
  const csrf = (await page.context().cookies()).find((c) => c.name === 'csrf_token')?.value;
  if (!csrf) throw new Error('the server set no csrf_token cookie');
  const post = async (url: string, data: unknown) => {
    const res = await request.post(url, { data, headers: { 'x-csrf-token': csrf } });
    if (!res.ok()) throw new Error(`POST ${url}: ${res.status()} ${await res.text()}`);
  };
  const after = Date.now();
  await post('/api/auth/login-init', { email: who.email, pin: who.pin });
  await post('/api/auth/login-verify', {
    email: who.email,
    code: await server.latestCode(who.email, { after }),
  });
  await page.goto(path);
}

/** The whole two-step login in the browser, reading the code from the dev outbox. Ends where the app sends the person. */
export async function signInViaUi(
  page: Page,
  server: TestServer,
  who: Person,
  loginPath = '/login',
): Promise<void> {
  await page.goto(loginPath);
  const after = Date.now();
  await submitCredentials(page, who);
  await page.waitForURL((url) => url.pathname === '/login/verify');
  const code = await server.latestCode(who.email, { after });
  await page.getByLabel('6-digit code').fill(code);
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.waitForURL((url) => url.pathname !== '/login/verify');
}

type ShiftWindow = Window & { layoutShifts?: number[] };

/** From the next page load on, records layout shifts not caused by the person's own input. */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: number[] = [];
    (window as ShiftWindow).layoutShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
      })[]) {
        if (!entry.hadRecentInput) shifts.push(entry.value);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The layout shift so far (CLS-like sum), read after two frames so the last shift is reported. */
export async function layoutShiftSoFar(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() =>
            resolve(((window as ShiftWindow).layoutShifts ?? []).reduce((a, b) => a + b, 0)),
          ),
        ),
      ),
  );
}
