import { canManageAllUsers } from '@vita-docs/core/contract';
import type { FastifyInstance } from 'fastify';
import { audit } from '../audit.js';
import { forbidden } from '../http/errors.js';
import { actorOf, userRoute } from '../http/route.js';
import { readingSwitches, setOwnReading, setProgrammeReads } from '../reading.js';
import type { Services } from '../services.js';

/**
 * The switches of reading documents on the device (docs/behaviour.md#reading-documents): each
 * person's own (Account; a preference, not audited, like the passkey offer's `Not now`) and the
 * programme's (Settings, admins only; audited like the other settings).
 */
export function readingRoutes(app: FastifyInstance, { db }: Services): void {
  userRoute(app, 'myReading', async ({ user }) => readingSwitches(db, user.email));

  userRoute(app, 'setMyReading', async ({ user, body }) => setOwnReading(db, user.email, body.on));

  userRoute(app, 'setProgrammeReading', async ({ user, body, request }) => {
    if (!canManageAllUsers(actorOf(user))) throw forbidden();
    const on = await setProgrammeReads(db, body.on, user.email);
    await audit(db, {
      actor: user.email,
      action: 'reading.set',
      ip: request.ip,
      detail: `documents checked on the device: ${on ? 'on' : 'off'}`,
    });
    return { on };
  });
}
