import { fullName } from '@vita-docs/core';
import type { Client, OptimisticListFlow } from '@vita-docs/core';
import { useState } from 'react';
import { Card, Section } from '../../components/section';
import { ReassignDialog } from '../../components/reassign-dialog';
import { useFlow } from '../../hooks/use-flow';
import { texts } from '../../texts';

interface OrphanedClientsProps {
  flow: OptimisticListFlow<Client>;
  onReassigned: () => void;
}

/** Orphaned Clients (Needs Reassignment), with the Reassign modal. */
export function OrphanedClients({ flow, onReassigned }: OrphanedClientsProps) {
  const state = useFlow(flow);
  const [reassigning, setReassigning] = useState<Client | null>(null);
  return (
    <Section
      title="Orphaned Clients (Needs Reassignment)"
      status={state.status}
      count={state.items.length}
      empty={texts.noOrphanedClients}
      error={state.error}
    >
      <ul className="card-list">
        {state.items.map((client) => (
          <Card
            key={client.clientId}
            title={fullName(client)}
            actions={
              <button type="button" className="button" onClick={() => setReassigning(client)}>
                Reassign
              </button>
            }
          >
            <p className="card__line">Client ID: {client.clientId}</p>
            <p className="card__line">Previous volunteer: {client.previousCreatedBy ?? 'unknown'}</p>
          </Card>
        ))}
      </ul>
      {reassigning && (
        <ReassignDialog
          clientId={reassigning.clientId}
          clientName={fullName(reassigning)}
          clientEmail={reassigning.email}
          onClose={() => setReassigning(null)}
          onReassigned={() => {
            setReassigning(null);
            void flow.send({ type: 'reload' });
            onReassigned();
          }}
        />
      )}
    </Section>
  );
}
