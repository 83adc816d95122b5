import { canManageAllUsers, seasonClosePhrase } from '@vita-docs/core/contract';
import type { FastifyInstance } from 'fastify';
import { badRequest, forbidden, HttpError } from '../http/errors.js';
import { actorOf, userRoute } from '../http/route.js';
import { closeSeason, currentSeason, seasonSummary } from '../season.js';
import type { Services } from '../services.js';

/** The admin's season close (docs/behaviour.md#season-close). */
export function seasonRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;
  userRoute(app, 'seasonSummary', async ({ user }) => {
    if (!canManageAllUsers(actorOf(user))) throw forbidden();
    return seasonSummary(db, currentSeason(new Date()));
  });

  userRoute(app, 'closeSeason', async ({ user, body, request }) => {
    if (!canManageAllUsers(actorOf(user))) throw forbidden();
    const year = currentSeason(new Date());
    if (body.confirm !== seasonClosePhrase(year))
      throw badRequest(`Type ${seasonClosePhrase(year)} to confirm.`);
    const done = await closeSeason(services, year, user.email, request.ip);
    if (!done) throw new HttpError(409, 'The season is being closed by another request. Reload in a minute.');
    return done;
  });
}
