import { canManageAllUsers } from '@vita-docs/core/contract';
import type { FastifyInstance } from 'fastify';
import { audit } from '../audit.js';
import { consentSettings, setConsentSettings } from '../client-links/consent.js';
import { programmeName, setProgrammeName } from '../client-links/programme.js';
import { forbidden } from '../http/errors.js';
import { actorOf, userRoute } from '../http/route.js';
import { programmeOverview } from '../overview.js';
import { retentionReach, setRetentionDays } from '../retention.js';
import type { Services } from '../services.js';

/**
 * The admin's programme settings (the retention rule, docs/behaviour.md#retention; the link consent
 * statement and the programme's name, docs/behaviour.md#requesting-documents-from-a-client) and overview.
 */
export function settingsRoutes(app: FastifyInstance, { db }: Services): void {
  userRoute(app, 'overview', async ({ user }) => {
    if (!canManageAllUsers(actorOf(user))) throw forbidden();
    return programmeOverview(db, new Date());
  });

  userRoute(app, 'getRetention', async ({ user }) => {
    if (!canManageAllUsers(actorOf(user))) throw forbidden();
    return retentionReach(db, new Date());
  });

  userRoute(app, 'setRetention', async ({ user, body, request }) => {
    if (!canManageAllUsers(actorOf(user))) throw forbidden();
    await audit(db, {
      actor: user.email,
      action: 'retention.set',
      ip: request.ip,
      detail: body.days === null ? 'off' : `${body.days} days`,
    });
    await setRetentionDays(db, body.days, user.email);
    return retentionReach(db, new Date());
  });

  userRoute(app, 'getConsentText', async ({ user }) => {
    if (!canManageAllUsers(actorOf(user))) throw forbidden();
    return consentSettings(db);
  });

  userRoute(app, 'getProgrammeName', async ({ user }) => {
    if (!canManageAllUsers(actorOf(user))) throw forbidden();
    return { name: await programmeName(db) };
  });

  userRoute(app, 'setProgrammeName', async ({ user, body, request }) => {
    if (!canManageAllUsers(actorOf(user))) throw forbidden();
    const name = await setProgrammeName(db, body.name, user.email);
    await audit(db, { actor: user.email, action: 'programme.set', ip: request.ip, detail: name });
    return { name };
  });

  userRoute(app, 'setConsentText', async ({ user, body, request }) => {
    if (!canManageAllUsers(actorOf(user))) throw forbidden();
    const saved = await setConsentSettings(db, body, user.email);
    await audit(db, {
      actor: user.email,
      action: 'consent.set',
      ip: request.ip,
      detail: `consent text version ${saved.version}`,
    });
    return saved;
  });
}
