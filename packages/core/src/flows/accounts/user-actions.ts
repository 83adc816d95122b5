import type { ApiClient } from '../../api/client.js';
import type { User } from '../../api/schemas.js';
import { makeOfficerQuestion, messages } from '../../domain/messages.js';
import type { Role } from '../../domain/roles.js';
import type { Dialogs } from '../../ports.js';

/** The calls and dialogs the approval and role actions use. */
export interface UserActionPorts {
  api: Pick<ApiClient, 'approveUser' | 'setUserRole'>;
  platform: Dialogs;
}

/** Sets the role and confirms it with its alert (`Role updated.` or `Role set to Volunteer.`). */
export async function setRole({ api, platform }: UserActionPorts, user: User, role: Role): Promise<User> {
  const { user: updated } = await api.setUserRole({ params: { email: user.email }, body: { role } });
  await platform.alert(role === 'volunteer' ? messages.roleSetToVolunteer : messages.roleUpdated);
  return updated;
}

/** Asks the admin whether to make the user Officer; Cancel means Volunteer. */
export async function chooseRole(ports: UserActionPorts, user: User): Promise<User> {
  const officer = await ports.platform.confirm(makeOfficerQuestion(user));
  return setRole(ports, user, officer ? 'officer' : 'volunteer');
}

/**
 * Approves the account; an admin then picks its role, an officer leaves it Volunteer
 * (docs/behaviour.md#accounts).
 */
export async function approve(ports: UserActionPorts, user: User, actorIsAdmin: boolean): Promise<User> {
  const { user: approved } = await ports.api.approveUser({
    params: { email: user.email },
    body: { approved: true },
  });
  return actorIsAdmin ? chooseRole(ports, approved) : approved;
}
