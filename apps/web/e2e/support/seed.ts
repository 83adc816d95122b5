import { ApiSession, seedPeople } from './api.js';
import type { Person } from './api.js';
import type { TestApp } from './app.js';

/**
 * A fresh app whose admin approved `volunteer`, with one client of the volunteer's made over the API,
 * and the volunteer's API session still signed in (dispose it before stopping the app).
 */
export async function startWithVolunteer(
  startApp: () => Promise<TestApp>,
  admin: Person,
  volunteer: Person,
  clientFirstName: string,
): Promise<{ app: TestApp; clientId: string; api: ApiSession }> {
  const app = await startApp();
  try {
    await (await seedPeople(app.server, admin, [{ person: volunteer }])).dispose();
    const api = await ApiSession.open(app.server);
    await api.signIn(volunteer);
    const { clientId } = await api.createClient(clientFirstName, 'Client');
    return { app, clientId, api };
  } catch (error) {
    await app.stop();
    throw error;
  }
}

/**
 * A fresh app whose admin approved `volunteer`, with one client of the volunteer's made over the
 * API; `prepare` does more as the volunteer (an upload, say) before that session ends.
 */
export async function startWithClient(
  startApp: () => Promise<TestApp>,
  admin: Person,
  volunteer: Person,
  clientFirstName: string,
  prepare?: (api: ApiSession, clientId: string, app: TestApp) => Promise<void>,
): Promise<{ app: TestApp; clientId: string }> {
  const { app, clientId, api } = await startWithVolunteer(startApp, admin, volunteer, clientFirstName);
  try {
    await prepare?.(api, clientId, app);
  } catch (error) {
    await api.dispose();
    await app.stop();
    throw error;
  }
  await api.dispose();
  return { app, clientId };
}
