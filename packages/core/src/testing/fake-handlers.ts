/** The behaviour of the fake server, one handler per modelled call. */
import type { EndpointArgs } from '../api/client.js';
import type { EndpointName, Endpoints } from '../api/endpoints.js';
import { ApiError } from '../api/errors.js';
import type { Client, User } from '../api/schemas.js';
import type { FakeWorld } from './fake-api.js';

export type Handlers = { [K in EndpointName]?: (args: EndpointArgs<Endpoints[K]>) => unknown };

const ok = { ok: true } as const;
export const fail = (status: number, message: string) => new ApiError('http', status, message);

/** The client, or the server's 404. */
export function findClient(world: FakeWorld, id: string): Client {
  const found = world.clients.get(id);
  if (!found) throw fail(404, 'Client not found.');
  return found;
}

/** Who is signed in, or the server's 401. */
function signedIn(world: FakeWorld): User {
  const account = world.session && world.users.get(world.session.email);
  if (!account) throw fail(401, 'Please sign in.');
  return account.user;
}

/** Sign-in in two steps, the session, and the forgotten PIN. */
function authHandlers(world: FakeWorld): Handlers {
  let codes = 0;
  const pending = new Map<string, string>(); // `${purpose}:${email}` → code
  const me = () => signedIn(world);

  function mail(to: string, purpose: 'login' | 'forgot'): { ok: true; emailSent: boolean } {
    if (!world.emailDelivery) return { ok: true, emailSent: false };
    codes += 1;
    const code = String(100_000 + codes * 7919).slice(-6);
    pending.set(`${purpose}:${to}`, code);
    world.outbox.push({ to, purpose, code });
    return { ok: true, emailSent: true };
  }

  function checkCode(purpose: 'login' | 'forgot', email: string, code: string): void {
    const expected = pending.get(`${purpose}:${email}`);
    if (!expected || expected !== code.replace(/\s+/g, ''))
      throw fail(400, 'That code is not valid. Request a new one.');
    pending.delete(`${purpose}:${email}`);
  }

  return {
    loginInit({ body }) {
      const email = body.email.trim().toLowerCase();
      const account = world.users.get(email);
      if (!account || account.pin !== body.pin) throw fail(401, 'Email or Password PIN is incorrect.');
      if (!account.user.approved) throw fail(403, 'Your account is waiting for approval.');
      return mail(email, 'login');
    },
    loginVerify({ body }) {
      const email = body.email.trim().toLowerCase();
      checkCode('login', email, body.code);
      const account = world.users.get(email);
      if (!account) throw fail(401, 'Email or Password PIN is incorrect.');
      world.session = { email };
      return { ok: true, user: account.user };
    },
    loginResend: ({ body }) => mail((body.email ?? '').trim().toLowerCase(), 'login'),
    me: () => ({ user: me() }),
    config() {
      me();
      return { maxUploadBytes: world.maxUploadBytes };
    },
    logout() {
      world.session = null;
      return ok;
    },
    forgotInit: ({ body }) => mail(body.email.trim().toLowerCase(), 'forgot'),
    forgotResend: ({ body }) => mail((body.email ?? '').trim().toLowerCase(), 'forgot'),
    forgotVerify({ body }) {
      const email = body.email.trim().toLowerCase();
      checkCode('forgot', email, body.code);
      world.resetFor = email;
      return ok;
    },
    forgotReset({ body }) {
      const account = world.resetFor && world.users.get(world.resetFor);
      if (!account) throw fail(400, 'Verify your code first.');
      if (body.newPin1 !== body.newPin2) throw fail(400, 'The two Password PINs do not match.');
      account.pin = body.newPin1;
      world.resetFor = null;
      return ok;
    },
  };
}

/** Clients, their volunteers and reassignment; accounts. */
function accountHandlers(world: FakeWorld): Handlers {
  const me = () => signedIn(world);
  const client = (id: string) => findClient(world, id);
  return {
    listClients() {
      const user = me();
      return { items: [...world.clients.values()].filter((c) => user.isAdmin || c.createdBy === user.email) };
    },
    listAllClients: () => ({ items: [...world.clients.values()] }),
    deleteClient({ body }) {
      const id =
        body.clientId ?? [...world.clients.values()].find((c) => c.email === body.clientEmail)?.clientId;
      if (!id || !world.clients.delete(id)) throw fail(404, 'Client not found.');
      for (const key of world.docs.keys()) if (key.startsWith(`${id}/`)) world.docs.delete(key);
      return ok;
    },
    clientMeta: ({ params }) => ({
      createdBy: client(params.id).createdBy,
      clientEmail: client(params.id).email,
    }),
    volunteers: () => ({
      items: [...world.users.values()]
        .map((a) => a.user)
        .filter((u) => u.approved)
        .map(({ email, firstName, lastName, role, isAdmin }) => ({
          email,
          firstName,
          lastName,
          role,
          isAdmin,
        })),
    }),
    reassignClient({ body }) {
      const found = body.clientId ? client(body.clientId) : undefined;
      if (!found || found.createdBy !== body.from)
        throw fail(409, 'The client has changed; reload and try again.');
      const updated = { ...found, createdBy: body.newVolunteerEmail, previousCreatedBy: null };
      world.clients.set(found.clientId, updated);
      return { ok: true, client: updated };
    },
    reassignOrphan({ body }) {
      const found = client(body.clientId);
      const updated = { ...found, createdBy: body.newVolunteerEmail, previousCreatedBy: null };
      world.clients.set(found.clientId, updated);
      return { ok: true, client: updated };
    },
    listUsers: ({ query }) => ({
      items: [...world.users.values()]
        .map((a) => a.user)
        .filter((u) => query?.status !== 'pending' || !u.approved),
    }),
    deleteUser({ params }) {
      const account = world.users.get(params.email.toLowerCase());
      if (!account) throw fail(404, 'User not found.');
      if (account.user.isAdmin) throw fail(403, 'Admins cannot be deleted.');
      world.users.delete(account.user.email);
      for (const c of world.clients.values()) {
        if (c.createdBy === account.user.email)
          world.clients.set(c.clientId, { ...c, createdBy: null, previousCreatedBy: account.user.email });
      }
      return ok;
    },
  };
}

/** The handlers of sign-in, clients and accounts over one world (documents: `fake-doc-handlers.ts`). */
export function fakeHandlers(world: FakeWorld): Handlers {
  return { ...authHandlers(world), ...accountHandlers(world) };
}
