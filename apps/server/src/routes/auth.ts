import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { messages, passkeyMessages, RESEND_COOLDOWN_SECONDS } from '@vita-docs/core/contract';
import { audit } from '../audit.js';
import {
  issueResetGrant,
  liveResetGrant,
  registerAccount,
  setPinHash,
  useResetGrant,
} from '../auth/accounts.js';
import {
  codeAllowance,
  consumeCode,
  issueCode,
  openChallenge,
  type Asker,
  type CodeCheck,
  type CodePurpose,
} from '../auth/codes.js';
import { randomToken, sha256 } from '../auth/crypto.js';
import { knownDevice, rememberDevice } from '../auth/devices.js';
import { networkOf } from '../auth/network.js';
import { hashPin, verifyPin } from '../auth/passwords.js';
import { hitRateLimit, refundRateLimit } from '../auth/rate-limit.js';
import { countPasskeys, passkeyRule, staffRule } from '../auth/passkey-policy.js';
import { listPasskeys, removeAllPasskeys } from '../auth/passkeys.js';
import { createSession, revokeSession, revokeUserSessions, type UserRow } from '../auth/sessions.js';
import { claimTry, clearFailures } from '../auth/throttle.js';
import { badRequest, forbidden, HttpError, tooManyRequests, unauthorized } from '../http/errors.js';
import { publicRoute, userRoute } from '../http/route.js';
import { clearSessionCookie, cookieSecure, setSessionCookie } from '../http/security.js';
import { codeMail, lockedMail, pinChangedMail } from '../mail/mailer.js';
import type { Services } from '../services.js';
import { isDirectLocal } from '../http/local.js';
import { findUser, toUser } from '../users/users.js';

/** The database handle, passed on to the domain modules (routes build no statement). */
type Db = Services['db'];

const RESET_COOKIE = 'vita_reset';
const RESET_GRANT_MINUTES = 10;

export const TEXT = {
  badCredentials: 'Email or Password PIN is incorrect.',
  pending:
    'Your account is waiting for approval by an admin or officer. Please try again once it is approved.',
  suspended: 'Your account is suspended for the off-season. Ask an officer or admin to reactivate it.',
  badCode: 'That code is not valid or has expired. Check the latest email or request a new code.',
  codeUsedUp: 'Too many wrong codes. Use Resend code to get a new one.',
  tooManyAttempts: 'Too many attempts. Please wait a few minutes and try again.',
  tooManyCodes: 'Too many codes were requested for this email. Please wait an hour and try again.',
  tooManyCodesToday: 'Too many codes were requested for this email today. Please try again tomorrow.',
  locked: 'Too many wrong Password PINs were entered for this email. Use Forgot Password to set a new one.',
  noChallenge: 'There is no code to resend. Please start again.',
  resetExpired: 'Your reset session has expired. Please start again from Forgot Password.',
  pinsDiffer: 'The two Password PINs do not match.',
} as const;

/** The refusal of a code that did not work: the same 400 either way, worded so the person knows what to do. */
const codeRefusal = (check: Exclude<CodeCheck, 'ok'>) =>
  badRequest(check === 'exhausted' ? TEXT.codeUsedUp : TEXT.badCode);

/** The pre-session a code request came from, hashed so the codes table holds no live cookie value. */
const requesterOf = (request: FastifyRequest) => sha256(`pre|${request.auth.preId}`);

/** Who asks for a code: this browser, on this network (see codes.ts for the shares they are counted in). */
const askerOf = (request: FastifyRequest): Asker => ({
  requester: requesterOf(request),
  network: networkOf(request.ip),
});

/**
 * Limits are generous per IP because a whole intake site often shares one address. Guesses take
 * their slot before they are checked (so parallel guesses cannot overrun a limit) and a success
 * gives it back: what is really limited is failures.
 */
const LIMITS = {
  register: { max: 100, window: 3600 },
  loginPerIp: { max: 100, window: 900 },
  /** A browser the account signed in on before; other browsers go through the account's throttle (throttle.ts). */
  loginPerDevice: { max: 10, window: 900 },
  codePerIp: { max: 50, window: 900 },
  forgotPerIp: { max: 50, window: 3600 },
  resendPerIp: { max: 60, window: 3600 },
  /**
   * One resend per browser per cooldown, counted whether or not the account exists (no enumeration).
   * Per browser, not per email, so a stranger's resends never make the owner wait.
   */
  resendPerBrowser: { max: 1, window: RESEND_COOLDOWN_SECONDS },
} as const;
type LimitName = keyof typeof LIMITS;

/** Takes a slot under the limit or refuses; returns the key so a success can give it back. */
async function limit(
  services: Services,
  name: LimitName,
  subject: string,
  message: string = TEXT.tooManyAttempts,
): Promise<string> {
  const { max, window } = LIMITS[name];
  const key = `${name}:${subject}`;
  if (!(await hitRateLimit(services.db, key, max, window))) throw tooManyRequests(message, window);
  return key;
}

/** Refuses a new code when this browser or its network had its hourly or daily share for the email. */
async function assertCodeAllowed(
  db: Db,
  asked: Asker & { email: string; purpose: CodePurpose },
): Promise<void> {
  const allowance = await codeAllowance(db, asked);
  if (allowance === 'hour') throw tooManyRequests(TEXT.tooManyCodes, 3600);
  if (allowance === 'day') throw tooManyRequests(TEXT.tooManyCodesToday, 24 * 3600);
}

/**
 * Work done after the answer is sent, where the answer must not reveal, by content or by timing,
 * whether an account exists for the email (forgot-password, the lock notice). Failures are logged.
 */
function inBackground(log: FastifyBaseLogger, what: string, work: () => Promise<unknown>): void {
  setImmediate(() => {
    work().catch((err: unknown) => log.error({ err }, `${what} failed`));
  });
}

/**
 * Takes a PIN try: a slot of the address's limit, and one of the device's own allowance or of the
 * account's throttle (throttle.ts), so a stranger's guesses cannot keep the owner out of a browser
 * they signed in on before. Returns the slots a right PIN gives back, and whether a wrong one is the
 * try that locks new browsers out.
 */
async function claimPinTry(
  services: Services,
  request: FastifyRequest,
  email: string,
): Promise<{ slots: string[]; locksIfWrong: boolean }> {
  const slots = [await limit(services, 'loginPerIp', request.ip)];
  const device = knownDevice(services.secret, request, email);
  if (device) {
    slots.push(await limit(services, 'loginPerDevice', `${email}:${device}`));
    return { slots, locksIfWrong: false };
  }
  const verdict = await claimTry(services.db, email);
  if (!verdict.allowed)
    throw tooManyRequests(verdict.locked ? TEXT.locked : TEXT.tooManyAttempts, verdict.retryAfterSeconds);
  return { slots, locksIfWrong: verdict.locksIfWrong };
}

/**
 * A resend is only for this browser's own open challenge (a correct PIN, or a reset request, in the
 * last 10 minutes). The per-email cooldown is counted for any email, so its answer reveals nothing.
 */
async function resend(
  services: Services,
  request: FastifyRequest,
  purpose: CodePurpose,
  requested: string | undefined,
): Promise<() => Promise<boolean>> {
  const { db, secret, mailer } = services;
  await limit(services, 'resendPerIp', request.ip);
  const asker = askerOf(request);
  const challenge = await openChallenge(db, asker.requester, purpose);
  const email = requested ?? challenge;
  if (!email) throw badRequest(TEXT.noChallenge);
  await limit(
    services,
    'resendPerBrowser',
    `${purpose}:${asker.requester}`,
    `Please wait ${RESEND_COOLDOWN_SECONDS} seconds before asking for another code.`,
  );
  /** Issues and mails the new code; true when a mail went out (or nothing was due). */
  return async (): Promise<boolean> => {
    if (challenge !== email) return true;
    const user = await findUser(db, email);
    if (purpose === 'login' && !user?.approved) return true;
    const asked = { email, purpose, ...asker };
    if ((await codeAllowance(db, asked)) !== 'ok') return true;
    // A reset challenge may be for an email without an account: its new code is not sent (see forgotInit).
    const code = await issueCode(db, secret, { ...asked, kind: 'resend' });
    const passkeys = purpose === 'reset' && user ? await listPasskeys(db, email) : [];
    return user ? mailer.send(codeMail(email, purpose, code, passkeys)) : true;
  };
}

/**
 * The account routes: registration ({@link registrationRoute}), signing in and out
 * ({@link signInRoutes}) and a forgotten PIN ({@link forgotPinRoutes}).
 */
export function authRoutes(app: FastifyInstance, services: Services): void {
  registrationRoute(app, services);
  signInRoutes(app, services);
  forgotPinRoutes(app, services);
}

/** A new account: it waits for approval, except an empty install's first, made at the server machine (admin). */
function registrationRoute(app: FastifyInstance, services: Services): void {
  const { db, log } = services;

  publicRoute(app, 'register', async ({ body, request }) => {
    await limit(services, 'register', request.ip);
    const pinHash = await hashPin(body.pin);
    // Only someone at the server machine itself may take an empty install's admin seat: on an
    // internet-reachable fresh install, a stranger could otherwise register first.
    const { outcome, noAdmin } = await registerAccount(
      db,
      { email: body.email, firstName: body.firstName, lastName: body.lastName, pinHash },
      isDirectLocal(request),
    );
    if (outcome === 'exists') {
      // Same answer as a new registration: the form does not reveal who has an account.
      log.info('registration for an existing account ignored');
      return { ok: true as const, status: 'pending' as const };
    }
    if (noAdmin && outcome !== 'first') {
      log.warn(
        'No admin exists, and this registration did not come from the server machine, so it waits for approval. ' +
          'Register the first account in a browser on the server machine, or set ADMIN_EMAIL and ADMIN_PIN.',
      );
    }
    if (outcome === 'first')
      log.warn('*** No admin existed: this first account is now an approved ADMIN. ***');
    return { ok: true as const, status: outcome === 'first' ? ('approved' as const) : ('pending' as const) };
  });
}

/** The PIN, then the mailed code (and its resend), who is signed in, signing out. */
function signInRoutes(app: FastifyInstance, services: Services): void {
  const { db, secret, mailer, log } = services;

  publicRoute(app, 'loginInit', async ({ body, request }) => {
    const pinTry = await claimPinTry(services, request, body.email);
    const user = await findUser(db, body.email);
    const pinOk = await verifyPin(user?.pin_hash ?? null, body.pin);
    if (!user || !pinOk) {
      if (user && pinTry.locksIfWrong)
        inBackground(log, 'lock notice', () => mailer.send(lockedMail(user.email)));
      throw unauthorized(TEXT.badCredentials);
    }
    for (const slot of pinTry.slots) await refundRateLimit(db, slot);
    // Ends any run of wrong PINs. New browsers cannot get here while the run locks them out, so it is
    // a right PIN on a browser the account signed in on before that lifts that lock (or a new PIN).
    await clearFailures(db, user.email);
    if (user.suspended) throw forbidden(TEXT.suspended);
    if (!user.approved) throw forbidden(TEXT.pending);
    const asked = { email: user.email, purpose: 'login' as const, ...askerOf(request) };
    await assertCodeAllowed(db, asked);
    const code = await issueCode(db, secret, { ...asked, kind: 'initial' });
    const emailSent = await mailer.send(codeMail(user.email, 'login', code));
    return { ok: true as const, emailSent };
  });

  publicRoute(app, 'loginVerify', async ({ body, request, reply }) => {
    const slot = await limit(services, 'codePerIp', request.ip);
    const check = await consumeCode(db, secret, {
      email: body.email,
      purpose: 'login',
      code: body.code,
      requester: requesterOf(request),
    });
    if (check !== 'ok') throw codeRefusal(check);
    const user = await findUser(db, body.email);
    if (!user || !user.approved) throw badRequest(TEXT.badCode);
    await refundRateLimit(db, slot);
    const rule = await passkeyRule(db, services.config, user);
    // Under the passkey rule, staff who own a passkey sign in with it: PIN + code (phishable, and
    // all a thief of the PIN and the mailbox holds) gives them no session at all.
    if (rule === 'passkey') throw new HttpError(403, messages.passkeySignInRequired, {}, 'passkey_required');
    await startSession(services, request, reply, user, { passkeyDue: rule === 'enrol' });
    return { ok: true as const, user: toUser(user) };
  });

  publicRoute(app, 'loginResend', async ({ body, request }) => {
    const send = await resend(services, request, 'login', body.email);
    return { ok: true as const, emailSent: await send() };
  });

  userRoute(app, 'me', async ({ user }) => ({ user: toUser(user) }));

  publicRoute(app, 'logout', async ({ request }) => {
    const whose = request.auth.sessionToken ? await revokeSession(db, request.auth.sessionToken) : null;
    // Signing out ends what any device kept for this person: their key is gone, so is all it sealed.
    if (whose) await services.journalKeys.destroy(whose);
    clearSessionCookie(request);
    return { ok: true as const };
  });
}

/**
 * Signs this browser in as `user` (after PIN + code, or a passkey): whatever session it had is ended
 * before the new one starts, and the browser is remembered for the account's PIN throttle.
 */
export async function startSession(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  options: { passkeyDue: boolean },
): Promise<void> {
  const { db, secret } = services;
  if (request.auth.sessionToken) await revokeSession(db, request.auth.sessionToken);
  const token = await createSession(db, user.email, {
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    passkeyDue: options.passkeyDue,
  });
  setSessionCookie(services, request, reply, token);
  rememberDevice(secret, request, reply, user.email, cookieSecure(services, request));
  request.auth.user = user;
}

/** `Remove all passkeys` on the reset screen: one a thief added (the reset mail lists them) goes too. */
async function removePasskeysAtReset(db: Db, email: string, ip: string): Promise<number> {
  const removed = await removeAllPasskeys(db, email);
  if (removed > 0)
    await audit(db, {
      actor: email,
      action: 'passkey.remove',
      ip,
      detail: `all ${removed} passkeys, at a Password PIN reset`,
    });
  return removed;
}

/**
 * Under the passkey rule, an admin's or officer's passkeys are not removed at a reset: the mailbox
 * alone (the reset's code, then PIN + code and the enrol confirmation) would lead to a new passkey
 * and a full session. Refused before the grant is used, so the same grant sets the PIN without
 * removing them; an admin removes lost passkeys (audited, mailed).
 */
async function refuseStaffPasskeysAtReset(services: Services, grant: string): Promise<void> {
  const { db, config } = services;
  const email = await liveResetGrant(db, grant);
  const user = email !== undefined ? await findUser(db, email) : undefined;
  if (!user || (await staffRule(db, config, user)) === 'none') return;
  if ((await countPasskeys(db, user.email)) > 0) throw forbidden(passkeyMessages.staffPasskeysAtReset);
}

/** Forgot Password: a mailed code (and its resend) proves the mailbox; the grant cookie it gives sets a new PIN. */
function forgotPinRoutes(app: FastifyInstance, services: Services): void {
  const { db, secret, mailer, log } = services;

  publicRoute(app, 'forgotInit', async ({ body, request }) => {
    await limit(services, 'forgotPerIp', request.ip);
    const asked = { email: body.email, purpose: 'reset' as const, ...askerOf(request) };
    inBackground(log, 'forgot-init', async () => {
      // An email without an account gets a code too, one nobody is sent: wrong codes, the one that
      // uses a code up and resends are then answered alike, so they cannot tell who has an account.
      if ((await codeAllowance(db, asked)) !== 'ok') return;
      const code = await issueCode(db, secret, { ...asked, kind: 'initial' });
      if (await findUser(db, body.email))
        await mailer.send(codeMail(body.email, 'reset', code, await listPasskeys(db, body.email)));
    });
    return { ok: true as const, emailSent: true };
  });

  publicRoute(app, 'forgotVerify', async ({ body, request, reply }) => {
    const slot = await limit(services, 'codePerIp', request.ip);
    const check = await consumeCode(db, secret, {
      email: body.email,
      purpose: 'reset',
      code: body.code,
      requester: requesterOf(request),
    });
    if (check !== 'ok') throw codeRefusal(check);
    if (!(await findUser(db, body.email))) throw badRequest(TEXT.badCode);
    await refundRateLimit(db, slot);
    const grant = randomToken(32);
    await issueResetGrant(db, grant, body.email, RESET_GRANT_MINUTES);
    void reply.setCookie(RESET_COOKIE, grant, {
      path: '/api/auth',
      httpOnly: true,
      sameSite: 'strict',
      secure: cookieSecure(services, request),
      maxAge: RESET_GRANT_MINUTES * 60,
    });
    return { ok: true as const };
  });

  publicRoute(app, 'forgotResend', async ({ body, request }) => {
    inBackground(log, 'forgot-resend', await resend(services, request, 'reset', body.email));
    return { ok: true as const, emailSent: true };
  });

  publicRoute(app, 'forgotReset', async ({ body, request, reply }) => {
    const grant = request.cookies[RESET_COOKIE];
    if (!grant) throw badRequest(TEXT.resetExpired);
    if (body.newPin1 !== body.newPin2) throw badRequest(TEXT.pinsDiffer);
    if (body.removePasskeys) await refuseStaffPasskeysAtReset(services, grant);
    const email = await useResetGrant(db, grant);
    void reply.clearCookie(RESET_COOKIE, { path: '/api/auth' });
    if (email === undefined) throw new HttpError(400, TEXT.resetExpired);
    const used = { email };
    await setPinHash(db, used.email, await hashPin(body.newPin1));
    await revokeUserSessions(db, used.email);
    const removed = body.removePasskeys ? await removePasskeysAtReset(db, used.email, request.ip) : 0;
    // A new PIN ends any run of wrong guesses at the old one (and the lock it may have caused).
    await clearFailures(db, used.email);
    clearSessionCookie(request);
    log.info('password PIN reset; all sessions revoked');
    // The owner hears of every change, so a reset they did not make does not go unnoticed.
    inBackground(log, 'pin-changed mail', () => mailer.send(pinChangedMail(used.email, removed)));
    return { ok: true as const };
  });
}
