import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mailsSent, PIN, register, seedPeople, signIn, startApp, type TestApp } from './harness.js';

describe('approving and managing accounts', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  beforeAll(async () => {
    app = await startApp();
    people = await seedPeople(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  const user = (email: string) => `/api/admin/users/${encodeURIComponent(email)}`;

  it('lets officers list pending accounts but not all users', async () => {
    const pending = await people.officer.get('/api/admin/users?status=pending');
    expect(pending.status).toBe(200);
    expect(pending.body.items.map((u: { email: string }) => u.email)).toEqual(['pending@example.org']);
    expect((await people.officer.get('/api/admin/users?status=all')).status).toBe(403);
    expect((await people.officer.get(user('vola@example.org'))).status).toBe(403);
    const all = await people.admin.get('/api/admin/users?status=all');
    expect(all.body.items).toHaveLength(5);
    expect((await people.admin.get('/api/admin/users?status=everyone')).body.error).toBe(
      'status must be pending or all.',
    );
  });

  it('lets an officer approve and set volunteer, but never officer', async () => {
    await register(app, 'newbie@example.org');
    expect(
      (await people.officer.post(`${user('newbie@example.org')}/approve`, { approved: true })).body.user,
    ).toMatchObject({
      approved: true,
      role: 'volunteer',
    });
    const asOfficer = await people.officer.post(`${user('newbie@example.org')}/role`, { role: 'officer' });
    expect(asOfficer.status).toBe(403);
    expect(asOfficer.body.error).toMatch(/Officers may only set the volunteer role/);
    expect(
      (await people.officer.post(`${user('newbie@example.org')}/role`, { role: 'volunteer' })).status,
    ).toBe(200);
    expect(
      (await people.officer.post(`${user('newbie@example.org')}/approve`, { approved: false })).status,
    ).toBe(403);
  });

  it('mails the approved account a sign-in link on the address the approver used, and nothing on a withdrawal', async () => {
    const email = 'mailme@example.org';
    await register(app, email, 'Mai', 'Lee');
    const mails = () => app.outbox().then((all) => all.filter((m) => m.to === email));
    expect((await people.admin.post(`${user(email)}/approve`, { approved: true })).status).toBe(200);
    await vi.waitFor(async () => expect(await mails()).toHaveLength(1));
    const [mail] = await mails();
    expect(mail).toMatchObject({ subject: 'Your VITA Documents account is approved' });
    expect(mail!.text.split('\n')).toContain(`${app.url}/login`);
    expect((await people.admin.post(`${user(email)}/approve`, { approved: false })).status).toBe(200);
    await mailsSent(app, people.admin);
    expect(await mails()).toHaveLength(1);
  });

  it('lets an admin make an officer, and nobody change an admin', async () => {
    await register(app, 'promote@example.org');
    await people.admin.post(`${user('promote@example.org')}/approve`, { approved: true });
    const promoted = await people.admin.post(`${user('promote@example.org')}/role`, { role: 'officer' });
    expect(promoted.body.user).toMatchObject({ role: 'officer', isAdmin: false });
    expect(
      (await people.officer.post(`${user('promote@example.org')}/role`, { role: 'volunteer' })).status,
    ).toBe(403);
    for (const actor of [people.admin, people.officer]) {
      const res = await actor.post(`${user('admin@example.org')}/role`, { role: 'volunteer' });
      expect(res.status).toBe(403);
    }
    expect(
      (await people.admin.post(`${user('admin@example.org')}/role`, { role: 'volunteer' })).body.error,
    ).toBe("An admin's role cannot be changed.");
    expect((await people.admin.del(user('admin@example.org'))).status).toBe(403);
  });

  it('ends the sessions of a user whose role changes', async () => {
    await register(app, 'rolechange@example.org');
    await people.admin.post(`${user('rolechange@example.org')}/approve`, { approved: true });
    const session = await signIn(app, 'rolechange@example.org');
    expect((await session.get('/api/me')).status).toBe(200);
    const other = await signIn(app, 'rolechange@example.org');
    await people.admin.post(`${user('rolechange@example.org')}/role`, { role: 'officer' });
    // Each ended session is told why at its next request, by a code of its own.
    for (const ended of [session, other]) {
      const answer = await ended.get('/api/me');
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({
        error: 'Your role was changed. Please sign in again.',
        code: 'role_changed',
      });
    }
    // Told once: the answer drops the cookie, so the browser is plainly signed out afterwards.
    expect((await session.get('/api/me')).body).toEqual({ error: 'Please sign in.', code: 'not_signed_in' });
  });

  it('shows one user to admins only, with 404 for unknown', async () => {
    const one = await people.admin.get(user('vola@example.org'));
    expect(one.body.user).toMatchObject({
      email: 'vola@example.org',
      approved: true,
      role: 'volunteer',
      isAdmin: false,
    });
    expect((await people.admin.get(user('ghost@example.org'))).body).toEqual({
      error: 'User not found.',
      code: expect.any(String),
    });
    expect((await people.admin.get('/api/admin/users/not-an-email')).status).toBe(400);
  });

  it('refuses every admin route to a volunteer, and 401s the signed-out', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/users?status=pending'],
      ['GET', '/api/admin/users?status=all'],
      ['GET', user('vola@example.org')],
      ['POST', `${user('pending@example.org')}/approve`, { approved: true }],
      ['POST', `${user('volb@example.org')}/role`, { role: 'volunteer' }],
      ['DELETE', user('volb@example.org')],
    ];
    for (const [method, path, body] of routes) {
      expect((await people.volA.call(method, path, body)).status, `${method} ${path}`).toBe(403);
      expect((await people.anonymous.call(method, path, body)).status, `${method} ${path}`).toBe(401);
    }
  });

  it('deletes a user: their sessions end and they cannot sign in', async () => {
    await register(app, 'leaving@example.org');
    await people.admin.post(`${user('leaving@example.org')}/approve`, { approved: true });
    const session = await signIn(app, 'leaving@example.org');
    expect((await people.officer.del(user('leaving@example.org'))).status).toBe(403);
    expect((await people.admin.del(user('leaving@example.org'))).body).toEqual({ ok: true });
    expect((await session.get('/api/me')).status).toBe(401);
    const again = await app.agent().prime();
    expect(
      (await again.post('/api/auth/login-init', { email: 'leaving@example.org', pin: PIN })).status,
    ).toBe(401);
    expect((await people.admin.del(user('leaving@example.org'))).status).toBe(404);
  });
});
