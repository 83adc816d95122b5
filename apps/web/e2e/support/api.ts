import { request } from '@playwright/test';
import type { APIRequestContext } from '@playwright/test';
import type { TestServer } from '@vita-docs/test-server';

/** A person as the tests create them. */
export interface Person {
  firstName: string;
  lastName: string;
  email: string;
  pin: string;
}

const PIN = 'correct horse 7';

/** A person with a unique email, so test files never collide. */
export function person(firstName: string, lastName: string): Person {
  return {
    firstName,
    lastName,
    email: `${firstName.toLowerCase()}.${lastName.toLowerCase()}@example.org`,
    pin: PIN,
  };
}

/**
 * A signed-in (or not yet) API session outside the browser, to arrange the world quickly: register,
 * sign in with the code from the dev outbox, approve, set roles, create clients.
 */
export class ApiSession {
  private constructor(
    private readonly server: TestServer,
    private readonly ctx: APIRequestContext,
  ) {}

  static async open(server: TestServer): Promise<ApiSession> {
    return new ApiSession(server, await request.newContext({ baseURL: server.url }));
  }

  /** One API call with the CSRF header from the cookie, as the web app sends it. */
  async call<T = unknown>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (method !== 'GET') headers['x-csrf-token'] = await this.csrf();
    const res = await this.ctx.fetch(`/api${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { data: body }),
    });
    if (!res.ok()) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
    return (await res.json()) as T;
  }

  async register(p: Person): Promise<void> {
    await this.call('POST', '/auth/register', p);
  }

  async signIn(p: Person): Promise<void> {
    const after = Date.now();
    await this.call('POST', '/auth/login-init', { email: p.email, pin: p.pin });
    const code = await this.server.latestCode(p.email, { after });
    await this.call('POST', '/auth/login-verify', { email: p.email, code });
  }

  async approve(email: string, role: 'volunteer' | 'officer' = 'volunteer'): Promise<void> {
    await this.call('POST', `/admin/users/${encodeURIComponent(email)}/approve`, { approved: true });
    if (role !== 'volunteer')
      await this.call('POST', `/admin/users/${encodeURIComponent(email)}/role`, { role });
  }

  async createClient(firstName: string, lastName: string): Promise<{ clientId: string; email: string }> {
    const email = `${firstName.toLowerCase()}.${lastName.toLowerCase()}@client.example.org`;
    const { client } = await this.call<{ client: { clientId: string; email: string } }>(
      'POST',
      '/clients/new',
      {
        firstName,
        lastName,
        email,
        phone: '555-0100',
      },
    );
    return client;
  }

  async deleteUser(email: string): Promise<void> {
    await this.call('DELETE', `/admin/users/${encodeURIComponent(email)}`);
  }

  async dispose(): Promise<void> {
    await this.ctx.dispose();
  }

  private async csrf(): Promise<string> {
    const find = async () =>
      (await this.ctx.storageState()).cookies.find((c) => c.name === 'csrf_token')?.value;
    let token = await find();
    if (!token) {
      // Any answer sets the cookie, a 401 included.
      await this.ctx.get('/api/me');
      token = await find();
    }
    if (!token) throw new Error('the server set no csrf_token cookie');
    return token;
  }
}

/** Registers and approves people through an admin session (the first account of a fresh server is the admin). */
export async function seedPeople(
  server: TestServer,
  admin: Person,
  others: { person: Person; role?: 'volunteer' | 'officer'; approved?: boolean }[],
) {
  const session = await ApiSession.open(server);
  await session.register(admin);
  await session.signIn(admin);
  for (const { person: p, role, approved = true } of others) {
    await session.register(p);
    if (approved) await session.approve(p.email, role);
  }
  return session;
}
