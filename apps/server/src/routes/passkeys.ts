import { canManageAllUsers, messages, passkeyMessages } from '@vita-docs/core/contract';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { declinePasskeyOffer } from '../auth/accounts.js';
import { audit } from '../audit.js';
import { sha256 } from '../auth/crypto.js';
import {
  CONFIRMATION_MINUTES,
  confirm,
  isConfirmed,
  issueConfirmation,
  sessionHashOf,
  useConfirmation,
} from '../auth/passkey-confirmations.js';
import { countPasskeys, requireForStaff, setRequireForStaff, staffRule } from '../auth/passkey-policy.js';
import type { UserRow } from '../auth/sessions.js';
import {
  authenticate,
  authenticationOptions,
  deviceName,
  listPasskeys,
  registerPasskey,
  removeAllPasskeys,
  removePasskey,
  registrationOptions,
  relyingParty,
  type RelyingParty,
} from '../auth/passkeys.js';
import { hitRateLimit, refundRateLimit } from '../auth/rate-limit.js';
import { deriveSubkey } from '../storage/encryption.js';
import { badRequest, forbidden, notFound, tooManyRequests } from '../http/errors.js';
import { actorOf, publicRoute, userRoute } from '../http/route.js';
import {
  passkeyAddedMail,
  passkeyConfirmationMail,
  passkeyRemovedMail,
  passkeysRemovedMail,
} from '../mail/mailer.js';
import type { Services } from '../services.js';
import { findUser, toUser } from '../users/users.js';
import { startSession, TEXT } from './auth.js';

/** Asked again 30 days after `Not now`. */
const OFFER_AGAIN_DAYS = 30;

/**
 * Failed assertions against one account's passkeys (a valid signature is never refused: see
 * `authenticate`); a sign-in that succeeds gives its slot back. Answers to no challenge of this
 * server's for this browser are refused before this and spend nothing. `login-options` itself is not
 * limited: it stores nothing (auth/passkeys.ts), so a flood has nothing to fill or use up.
 */
const LOGIN_FAILURES_PER_ACCOUNT = { max: 10, window: 900 };

/** What sign-in challenges are signed with (a sub-key of the HMAC secret of its own). */
const loginChallengeKey = (services: Services) =>
  deriveSubkey(services.secret, 'vita-docs/passkey-sign-in-challenge/v1');

/** Confirmation codes a person may be mailed per hour under the passkey rule. */
const CONFIRMATION_LIMIT = { max: 5, window: 3600 };

/** The browser a ceremony belongs to, hashed as the code requests are (auth.ts `requesterOf`). */
const requesterOf = (request: FastifyRequest) => sha256(`pre|${request.auth.preId}`);

/** The relying party, or a 404 when this server has no `PUBLIC_URL` (passkeys are off). */
function rpOrRefuse(services: Services): RelyingParty {
  const rp = relyingParty(services.config);
  if (!rp) throw notFound('Passkeys are not set up on this server.');
  return rp;
}

/** The held-back session's confirmation (passkey-confirmations.ts): refused for any other session. */
function heldBack(request: FastifyRequest): string {
  const token = request.auth.sessionToken;
  if (!request.auth.passkeyDue || !token) throw badRequest(passkeyMessages.confirmNotNeeded);
  return sessionHashOf(token);
}

/**
 * Passkeys (docs/behaviour.md#passkeys): signing in with one ({@link passkeySignInRoutes}), a
 * person's own ({@link ownPasskeyRoutes}, with the mailed confirmation the passkey rule asks
 * for: {@link confirmationRoutes}) and the admin's ({@link adminPasskeyRoutes}).
 */
export function passkeyRoutes(app: FastifyInstance, services: Services): void {
  if (!relyingParty(services.config))
    services.log.warn('Passkeys are off: set PUBLIC_URL (the address people open) to offer them.');
  passkeySignInRoutes(app, services);
  ownPasskeyRoutes(app, services);
  confirmationRoutes(app, services);
  adminPasskeyRoutes(app, services);
}

function passkeySignInRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;

  publicRoute(app, 'passkeyStatus', async () => ({ enabled: relyingParty(services.config) !== null }));

  publicRoute(app, 'passkeyLoginOptions', async ({ request }) => {
    const rp = rpOrRefuse(services);
    const options = await authenticationOptions(rp, loginChallengeKey(services), requesterOf(request));
    return { options: options as unknown as Record<string, unknown> };
  });

  publicRoute(app, 'passkeyLoginVerify', async ({ body, request, reply }) => {
    const rp = rpOrRefuse(services);
    const response = body.response as unknown as AuthenticationResponseJSON;
    const accountSlot = (email: string) => `passkeyFailuresPerAccount:${email}`;
    const key = loginChallengeKey(services);
    const outcome = await authenticate(db, rp, key, requesterOf(request), response, (email) =>
      hitRateLimit(db, accountSlot(email), LOGIN_FAILURES_PER_ACCOUNT.max, LOGIN_FAILURES_PER_ACCOUNT.window),
    );
    if (outcome.kind === 'limited')
      throw tooManyRequests(TEXT.tooManyAttempts, LOGIN_FAILURES_PER_ACCOUNT.window);
    if (outcome.kind !== 'signedIn') throw badRequest(messages.passkeyFailed);
    const user = await findUser(db, outcome.email);
    if (!user) throw badRequest(messages.passkeyFailed);
    await refundRateLimit(db, accountSlot(user.email));
    // As after a right PIN: a suspended or unapproved account is told why, and gets no session.
    if (user.suspended) throw forbidden(TEXT.suspended);
    if (!user.approved) throw forbidden(TEXT.pending);
    await audit(db, { actor: user.email, action: 'passkey.use', ip: request.ip });
    await startSession(services, request, reply, user, { passkeyDue: false });
    return { ok: true as const, user: toUser(user) };
  });
}

function ownPasskeyRoutes(app: FastifyInstance, services: Services): void {
  const { db, config, mailer } = services;

  userRoute(app, 'listPasskeys', async ({ user }) => {
    const rows = await listPasskeys(db, user.email);
    const declined = user.passkey_offer_declined_at;
    const askAgain = !declined || Date.now() - declined.getTime() > OFFER_AGAIN_DAYS * 86_400_000;
    const staff = user.is_admin || user.role === 'officer';
    const enabled = relyingParty(config) !== null;
    return {
      passkeys: rows.map((r) => ({
        id: r.id,
        name: r.name,
        createdAt: r.createdAt.toISOString(),
        lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
      })),
      offer: enabled && rows.length === 0 && askAgain,
      required: enabled && rows.length === 0 && staff && (await requireForStaff(db, config)),
    };
  });

  userRoute(app, 'passkeyRegisterOptions', async ({ user, request }) => {
    // Under the passkey rule, PIN + code alone does not add the passkey: the mailed code first.
    if (request.auth.passkeyDue && !(await isConfirmed(db, heldBack(request))))
      throw forbidden(passkeyMessages.confirmFirst);
    const options = await registrationOptions(db, rpOrRefuse(services), user, requesterOf(request));
    return { options: options as unknown as Record<string, unknown> };
  });

  userRoute(app, 'passkeyRegisterVerify', async ({ user, body, request, reply }) => {
    const rp = rpOrRefuse(services);
    const userAgent = request.headers['user-agent'];
    const made = await registerPasskey(db, rp, {
      user,
      requester: requesterOf(request),
      response: body.response as unknown as RegistrationResponseJSON,
      name: body.name || deviceName(userAgent),
      ...(request.auth.passkeyDue && {
        mayKeep: (trx: typeof db) => useConfirmation(trx, heldBack(request)),
      }),
    });
    if (made === 'not allowed') throw forbidden(passkeyMessages.confirmFirst);
    if (!made) throw badRequest(passkeyMessages.createFailed);
    await audit(db, { actor: user.email, action: 'passkey.create', ip: request.ip, detail: made.name });
    // Every new passkey is told to its owner: whoever holds a session could otherwise add one silently.
    await mailer.send(
      passkeyAddedMail(user.email, { name: made.name, createdAt: made.createdAt }, userAgent),
    );
    // A session that owed a passkey starts afresh without the debt (the old one ends, so every
    // server process forgets it).
    await startSession(services, request, reply, user, { passkeyDue: false });
    return { id: made.id, name: made.name, createdAt: made.createdAt.toISOString(), lastUsedAt: null };
  });

  userRoute(app, 'deletePasskey', async ({ user, params, request }) => {
    // Whether the rule binds this person is asked before the removal's transaction: asked inside, it
    // would take a second connection while holding one (a burst of removals then drains the pool).
    const keepsOne = (await staffRule(db, services.config, user)) !== 'none';
    const gone = await removePasskey(db, user.email, params.id, () => {
      if (keepsOne) throw forbidden(passkeyMessages.staffKeepsPasskey);
    });
    if (!gone) throw notFound('Passkey not found.');
    await audit(db, { actor: user.email, action: 'passkey.remove', ip: request.ip, detail: gone.name });
    await mailer.send(passkeyRemovedMail(user.email, gone.name, request.headers['user-agent']));
    return { ok: true as const };
  });

  userRoute(app, 'removeOwnPasskeys', async ({ user, request }) => {
    await refuseIfStaffKeeps(services, user);
    const count = await removeAllPasskeys(db, user.email);
    await audit(db, {
      actor: user.email,
      action: 'passkey.remove',
      ip: request.ip,
      detail: `all ${count} passkeys`,
    });
    if (count > 0) await mailer.send(passkeyRemovedMail(user.email, count, request.headers['user-agent']));
    return { ok: true as const };
  });

  userRoute(app, 'passkeyNotNow', async ({ user }) => {
    await declinePasskeyOffer(db, user.email);
    return { ok: true as const };
  });
}

/**
 * Under the passkey rule, an admin or officer keeps at least one passkey: removing the last from a
 * session would leave PIN + code, and so the mailbox alone, as the way to the next passkey
 * ({@link passkeyRule} answers `enrol`). An admin removes them instead (audited, mailed).
 */
async function refuseIfStaffKeeps(services: Services, user: UserRow): Promise<void> {
  if ((await staffRule(services.db, services.config, user)) === 'none') return;
  throw forbidden(passkeyMessages.staffKeepsPasskey);
}

/** Under the passkey rule, the code a held-back session is mailed before it enrols its first passkey. */
function confirmationRoutes(app: FastifyInstance, services: Services): void {
  const { db, mailer, secret } = services;

  userRoute(app, 'passkeyConfirmationRequest', async ({ user, request }) => {
    const sessionHash = heldBack(request);
    const slot = `passkeyConfirmation:${user.email}`;
    if (!(await hitRateLimit(db, slot, CONFIRMATION_LIMIT.max, CONFIRMATION_LIMIT.window)))
      throw tooManyRequests(TEXT.tooManyCodes, CONFIRMATION_LIMIT.window);
    const code = await issueConfirmation(db, secret, { email: user.email, sessionHash });
    const emailSent = await mailer.send(passkeyConfirmationMail(user.email, code, CONFIRMATION_MINUTES));
    return { ok: true as const, emailSent };
  });

  userRoute(app, 'passkeyConfirm', async ({ user, body, request }) => {
    const sessionHash = heldBack(request);
    if (!(await confirm(db, secret, { email: user.email, sessionHash, code: body.code })))
      throw badRequest(passkeyMessages.badConfirmCode);
    return { ok: true as const };
  });
}

function adminPasskeyRoutes(app: FastifyInstance, services: Services): void {
  const { db, config, mailer } = services;

  userRoute(app, 'userPasskeys', async ({ user, params }) => {
    if (!canManageAllUsers(actorOf(user))) throw forbidden();
    if (!(await findUser(db, params.email))) throw notFound(messages.userNotFound);
    return { count: await countPasskeys(db, params.email) };
  });

  userRoute(app, 'removeUserPasskeys', async ({ user, params, request }) => {
    if (!canManageAllUsers(actorOf(user))) throw forbidden();
    if (!(await findUser(db, params.email))) throw notFound(messages.userNotFound);
    const count = await removeAllPasskeys(db, params.email);
    await audit(db, {
      actor: user.email,
      action: 'passkey.remove',
      ip: request.ip,
      detail: `all ${count} passkeys of ${params.email}`,
    });
    if (count > 0) await mailer.send(passkeysRemovedMail(params.email, count));
    return { ok: true as const };
  });

  userRoute(app, 'getPasskeyPolicy', async ({ user }) => {
    if (!canManageAllUsers(actorOf(user))) throw forbidden();
    return { requireForStaff: await requireForStaff(db, config) };
  });

  userRoute(app, 'setPasskeyPolicy', async ({ user, body, request }) => {
    if (!canManageAllUsers(actorOf(user))) throw forbidden();
    await setRequireForStaff(db, body.requireForStaff, user.email);
    await audit(db, {
      actor: user.email,
      action: 'passkey.policy',
      ip: request.ip,
      detail: `passkeys required for admins and officers: ${body.requireForStaff ? 'on' : 'off'}`,
    });
    return { requireForStaff: await requireForStaff(db, config) };
  });
}
