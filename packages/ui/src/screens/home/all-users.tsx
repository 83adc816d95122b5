import { canDeleteUser, fullName } from '@vita-docs/core';
import type { Actor, OptimisticListFlow, User } from '@vita-docs/core';
import { useState } from 'react';
import { Link } from '../../app/router';
import { paths } from '../../app/paths';
import { ConfirmModal } from '../../components/modal';
import { Card, Section } from '../../components/section';
import { roleLabel, Tag } from '../../components/tag';
import { useFlow } from '../../hooks/use-flow';
import { deleteUserBody, texts } from '../../texts';

interface AllUsersProps {
  flow: OptimisticListFlow<User>;
  actor: Actor;
  onDeleted: () => void;
}

/** All Users: cards with role tag, status, Delete User (never for admins) and Open. */
export function AllUsers({ flow, actor, onDeleted }: AllUsersProps) {
  const state = useFlow(flow);
  const [deleting, setDeleting] = useState<User | null>(null);

  const confirmDelete = async (user: User) => {
    setDeleting(null);
    // The card goes at once; the flow reloads the list (and alerts) if the server refuses.
    await flow.send({ type: 'delete', id: user.email });
    onDeleted();
  };

  return (
    <Section
      title="All Users"
      status={state.status}
      count={state.items.length}
      empty={texts.noUsers}
      error={state.error}
    >
      <ul className="card-list">
        {state.items.map((user) => (
          <Card
            key={user.email}
            title={fullName(user)}
            actions={
              <>
                {canDeleteUser(actor, user) && (
                  <button type="button" className="button button--danger" onClick={() => setDeleting(user)}>
                    Delete User
                  </button>
                )}
                <Link className="button" to={paths.adminUser(user.email)}>
                  Open
                </Link>
              </>
            }
          >
            <p className="card__line">
              <Tag tone={user.isAdmin ? 'strong' : 'plain'}>
                {user.isAdmin ? 'Admin' : roleLabel(user.role)}
              </Tag>
            </p>
            <p className="card__line">{user.email}</p>
            <p className="card__line">Status: {user.approved ? 'Approved' : 'Pending'}</p>
          </Card>
        ))}
      </ul>
      {deleting && (
        <ConfirmModal
          title={texts.deleteUserTitle}
          message={deleteUserBody(fullName(deleting), deleting.email)}
          confirmLabel="Delete User"
          onCancel={() => setDeleting(null)}
          onConfirm={() => void confirmDelete(deleting)}
        />
      )}
    </Section>
  );
}
