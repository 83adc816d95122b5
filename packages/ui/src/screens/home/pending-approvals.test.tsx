import type { ApprovalsFlow, ApprovalsState } from '@vita-docs/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PendingApprovals } from './pending-approvals';

const person = (email: string, suspended?: true) => ({
  email,
  firstName: 'Vera',
  lastName: 'Volunteer',
  role: 'volunteer' as const,
  isAdmin: false,
  approved: false,
  createdAt: '2025-01-10T10:00:00.000Z',
  ...(suspended ? { suspended } : {}),
});

/** A flow that only holds `state`: what the card renders is all that is asked here. */
const holding = (state: ApprovalsState): ApprovalsFlow => ({
  getState: () => state,
  subscribe: () => () => undefined,
  send: async () => undefined,
});

describe('Pending Approvals', () => {
  it('says which of the people waiting are returning volunteers', () => {
    const html = renderToStaticMarkup(
      <PendingApprovals
        flow={holding({
          status: 'ready',
          items: [person('new@example.org'), person('back@example.org', true)],
          busy: null,
          error: null,
        })}
        actorIsAdmin
      />,
    );
    const cards = html.split('<li').slice(1);
    expect(cards).toHaveLength(2);
    expect(cards[0]).not.toContain('Returning volunteer');
    expect(cards[1]).toContain('Returning volunteer: suspended at the end of last season.');
  });
});
