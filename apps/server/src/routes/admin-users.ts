import type { FastifyInstance } from 'fastify';
import { canApproveUsers, canDeleteUser, canManageAllUsers, canSetRole } from '@vita-docs/core/contract';
import { audit } from '../audit.js';
import { revokeUserSessions } from '../auth/sessions.js';
import { forbidden, notFound } from '../http/errors.js';
import { appOrigin } from '../http/origin.js';
import { actorOf, userRoute } from '../http/route.js';
import { approvedMail } from '../mail/mailer.js';
import type { Services } from '../services.js';
import { deleteUserRow, findUser, listUserRows, setApproval, setRole, toUser } from '../users/users.js';

/** The database handle, passed on to the domain modules (routes build no statement). */
type Db = Services['db'];

const USER_NOT_FOUND = 'User not found.';

/** Reading accounts: the list (pending ones for approvers, all for admins) and one account. */
function userReadRoutes(app: FastifyInstance, db: Db): void {
  userRoute(app, 'listUsers', async ({ user, query }) => {
    const actor = actorOf(user);
    const allowed = query.status === 'pending' ? canApproveUsers(actor) : canManageAllUsers(actor);
    if (!allowed) throw forbidden();
    const rows = await listUserRows(db, query.status === 'pending');
    return { items: rows.map(toUser) };
  });

  userRoute(app, 'getUser', async ({ user, params }) => {
    if (!canManageAllUsers(actorOf(user))) throw forbidden();
    const target = await findUser(db, params.email);
    if (!target) throw notFound(USER_NOT_FOUND);
    return { user: toUser(target) };
  });
}

/** Approving an account (mailing the person once) or withdrawing approval. */
function approvalRoute(app: FastifyInstance, services: Services): void {
  const { db, mailer, config } = services;
  userRoute(app, 'approveUser', async ({ user, params, body, request }) => {
    const actor = actorOf(user);
    if (!canApproveUsers(actor)) throw forbidden();
    const target = await findUser(db, params.email);
    if (!target) throw notFound(USER_NOT_FOUND);
    if (!body.approved) {
      // Taking approval away locks someone out: admins only, and never from an admin.
      if (!canDeleteUser(actor, { email: target.email, role: target.role, isAdmin: target.is_admin })) {
        throw forbidden('Only an admin can withdraw approval, and never from an admin.');
      }
    }
    const { updated, approvedNow } = await setApproval(db, target.email, body.approved, user.email);
    // Deleted by another request since it was found.
    if (!updated) throw notFound(USER_NOT_FOUND);
    if (!body.approved) await revokeUserSessions(db, target.email);
    await audit(db, {
      actor: user.email,
      action: body.approved ? 'user.approve' : 'user.unapprove',
      ip: request.ip,
      detail: target.email,
    });
    if (approvedNow) {
      // The answer does not wait for the mail server (the mailer logs a failure; it never throws).
      void mailer.send(
        approvedMail(approvedNow.email, approvedNow.first_name, `${appOrigin(config, request)}/login`),
      );
    }
    return { ok: true as const, user: toUser(updated) };
  });
}

/** Changing an account's role; the person's sessions end so the new permissions apply at once. */
function roleRoute(app: FastifyInstance, db: Db): void {
  userRoute(app, 'setUserRole', async ({ user, params, body, request }) => {
    if (!canApproveUsers(actorOf(user))) throw forbidden();
    const target = await findUser(db, params.email);
    if (!target) throw notFound(USER_NOT_FOUND);
    const actor = actorOf(user);
    if (!canSetRole(actor, { email: target.email, role: target.role, isAdmin: target.is_admin }, body.role)) {
      if (target.is_admin) throw forbidden("An admin's role cannot be changed.");
      throw forbidden(
        actor.isAdmin || !canApproveUsers(actor)
          ? undefined
          : 'Officers may only set the volunteer role, and not on other officers.',
      );
    }
    const updated = await setRole(db, target.email, body.role);
    // Deleted by another request since it was found.
    if (!updated) throw notFound(USER_NOT_FOUND);
    // New permissions take effect at the next sign-in; existing sessions end now.
    if (target.role !== body.role) await revokeUserSessions(db, target.email, 'role_changed');
    await audit(db, {
      actor: user.email,
      action: 'user.role',
      ip: request.ip,
      detail: `${target.email}: ${target.role} -> ${body.role}`,
    });
    return { ok: true as const, user: toUser(updated) };
  });
}

/** Deleting an account; its clients stay, orphaned, for reassignment. */
function deleteUserRoute(app: FastifyInstance, db: Db): void {
  userRoute(app, 'deleteUser', async ({ user, params, request }) => {
    if (!canManageAllUsers(actorOf(user))) throw forbidden();
    const target = await findUser(db, params.email);
    if (!target) throw notFound(USER_NOT_FOUND);
    if (!canDeleteUser(actorOf(user), { email: target.email, role: target.role, isAdmin: target.is_admin })) {
      throw forbidden(target.is_admin ? 'Admin accounts cannot be deleted.' : undefined);
    }
    // Their clients stay, orphaned, remembering who had them, until an officer reassigns them.
    await deleteUserRow(db, target.email);
    await audit(db, { actor: user.email, action: 'user.delete', ip: request.ip, detail: target.email });
    return { ok: true as const };
  });
}

export function adminUserRoutes(app: FastifyInstance, services: Services): void {
  userReadRoutes(app, services.db);
  approvalRoute(app, services);
  roleRoute(app, services.db);
  deleteUserRoute(app, services.db);
}
