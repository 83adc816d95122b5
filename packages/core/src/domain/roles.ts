/**
 * A volunteer or officer; admins carry `isAdmin` on top of a role. Who may do what:
 * docs/behaviour.md#roles-and-permissions.
 */
export const ROLES = ['volunteer', 'officer'] as const;
export type Role = (typeof ROLES)[number];

/** The facts about an account that permission rules look at. */
export interface Actor {
  email: string;
  role: Role;
  isAdmin: boolean;
  approved: boolean;
}

/** An account a rule acts on. */
export type Target = Pick<Actor, 'email' | 'role' | 'isAdmin'>;

const isOfficerOrAdmin = (a: Actor): boolean => a.approved && (a.isAdmin || a.role === 'officer');

/** Officers and admins see pending approvals and may approve accounts. */
export function canApproveUsers(actor: Actor): boolean {
  return isOfficerOrAdmin(actor);
}

/** Only admins list all users, open a user's detail and delete users. */
export function canManageAllUsers(actor: Actor): boolean {
  return actor.approved && actor.isAdmin;
}

/**
 * Role changes: admins may set officer or volunteer; officers may only set volunteer,
 * and only on accounts that are not officers themselves. Nobody changes an admin's role.
 */
export function canSetRole(actor: Actor, target: Target, role: Role): boolean {
  if (!isOfficerOrAdmin(actor) || target.isAdmin) return false;
  if (actor.isAdmin) return true;
  return role === 'volunteer' && target.role === 'volunteer';
}

/** Admins may delete any account except an admin's (and their own). */
export function canDeleteUser(actor: Actor, target: Target): boolean {
  return canManageAllUsers(actor) && !target.isAdmin && actor.email !== target.email;
}

/** Officers and admins see orphaned clients and the volunteer list, and reassign clients. */
export function canReassignClients(actor: Actor): boolean {
  return isOfficerOrAdmin(actor);
}

/** Only admins list all clients and delete clients. */
export function canManageAllClients(actor: Actor): boolean {
  return actor.approved && actor.isAdmin;
}

/** A client's documents are open to its owner and to admins. */
export function canAccessClient(actor: Actor, client: { createdBy: string | null }): boolean {
  if (!actor.approved) return false;
  return actor.isAdmin || (client.createdBy !== null && client.createdBy === actor.email);
}

/** The tag the dashboard shows next to the greeting, if any. */
export function roleTag(actor: Pick<Actor, 'role' | 'isAdmin'>): 'Admin' | 'Officer' | null {
  if (actor.isAdmin) return 'Admin';
  return actor.role === 'officer' ? 'Officer' : null;
}
