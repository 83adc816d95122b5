/**
 * The real server (`@vita-docs/test-server`) as a desk sees it: its admin signed in over main's
 * server transport, and one client (Pat) with a W-2 type to upload scans into.
 */
import { createApiClient } from '@vita-docs/core';
import type { ApiClient } from '@vita-docs/core';
import { startTestServer, type TestServer } from '@vita-docs/test-server';
import { createServerFetch, type ServerFetch } from '../src/main/server-fetch.js';

/** The admin the desk signs in as. */
export const EMAIL = 'desk@example.org';
export const PIN = 'intake-desk-pin-1';

export interface DeskServer {
  server: TestServer;
  transport: ServerFetch;
  api: ApiClient;
  clientId: string;
}

export async function startDeskServer(): Promise<DeskServer> {
  const server = await startTestServer({ env: { ADMIN_EMAIL: EMAIL, ADMIN_PIN: PIN } });
  try {
    const transport = createServerFetch({ serverUrl: server.url });
    const api = createApiClient({
      baseUrl: server.apiUrl,
      fetch: transport.fetch,
      getCookie: transport.getCookie,
    });
    const since = Date.now() - 1000;
    await api.loginInit({ body: { email: EMAIL, pin: PIN } });
    await api.loginVerify({ body: { email: EMAIL, code: await server.latestCode(EMAIL, { after: since }) } });
    const created = await api.createClient({
      body: {
        firstName: 'Pat',
        lastName: 'Client',
        email: 'pat@example.org',
        phone: '555-010-0199',
        pin: '',
      },
    });
    const clientId = created.client.clientId;
    await api.addDocType({ params: { id: clientId }, body: { template: 'W-2' } });
    return { server, transport, api, clientId };
  } catch (error) {
    await server.stop({ keepData: false });
    throw error;
  }
}
