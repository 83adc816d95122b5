import { fullName } from '@vita-docs/core';
import type { ApprovalsFlow } from '@vita-docs/core';
import { Card, Section } from '../../components/section';
import { useFlow } from '../../hooks/use-flow';
import { texts } from '../../texts';

/** Pending Approvals: Approve, and Set Role (admin) or Set Volunteer (officer). */
export function PendingApprovals({ flow, actorIsAdmin }: { flow: ApprovalsFlow; actorIsAdmin: boolean }) {
  const state = useFlow(flow);
  return (
    <Section
      title="Pending Approvals"
      status={state.status}
      count={state.items.length}
      empty={texts.noPendingApprovals}
      error={state.error}
    >
      <ul className="card-list">
        {state.items.map((user) => {
          const busy = state.busy !== null;
          return (
            <Card
              key={user.email}
              title={fullName(user)}
              actions={
                <>
                  <button
                    type="button"
                    className="button button--primary"
                    disabled={busy}
                    onClick={() => void flow.send({ type: 'approve', email: user.email })}
                  >
                    Approve
                  </button>
                  {actorIsAdmin ? (
                    <button
                      type="button"
                      className="button"
                      disabled={busy}
                      onClick={() => void flow.send({ type: 'setRole', email: user.email })}
                    >
                      Set Role
                    </button>
                  ) : (
                    <button
                      type="button"
                      className="button"
                      disabled={busy}
                      onClick={() => void flow.send({ type: 'setVolunteer', email: user.email })}
                    >
                      Set Volunteer
                    </button>
                  )}
                </>
              }
            >
              <p className="card__line">{user.email}</p>
              {user.suspended && <p className="card__line">{texts.returningVolunteer}</p>}
            </Card>
          );
        })}
      </ul>
    </Section>
  );
}
