import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_COOKIE, CSRF_HEADER, isStateChanging, passkeyMessages } from '@vita-docs/core/contract';
import { hmac, randomToken, safeEqual, sha256 } from '../auth/crypto.js';
import { resolveSession, sessionEndReason, type UserRow } from '../auth/sessions.js';
import type { SessionEndReason } from '../db/schema.js';
import type { Services } from '../services.js';
import { badRequest, HttpError } from './errors.js';

const SESSION_COOKIE = 'vita_session';
const PRE_SESSION_COOKIE = 'vita_pre';

/**
 * A site-wide cookie's name: with the `__Host-` prefix when it is `Secure`, so a browser keeps it
 * only if this very host set it over https for the whole site (a sibling sub-domain or a plain-http
 * page cannot plant a session or a CSRF cookie).
 */
const named = (base: string, secure: boolean) => (secure ? `__Host-${base}` : base);

/** Who is calling: the signed-in user (if any) and what the CSRF token is bound to. */
export interface AuthState {
  user: UserRow | null;
  sessionToken: string | null;
  /** Random id of the browser before sign-in; binds CSRF tokens and code requests to it. */
  preId: string;
  /** The session owes a passkey (the passkey rule): it reaches only {@link WHILE_PASSKEY_DUE}. */
  passkeyDue?: boolean;
  /** Set when the browser holds a session cookie that must go (signed out, stale or revoked). */
  dropSessionCookie: boolean;
  /** Why that cookie's session was ended by someone else, when it was (told in the 401). */
  endedReason?: SessionEndReason | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthState;
  }
}

/** The prefix of presigned storage URLs' paths. */
const CSRF_EXEMPT_PREFIX = '/api/storage/';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** `Secure` cookies except on plain-http localhost, unless configured otherwise. */
export function cookieSecure(services: Services, request: FastifyRequest): boolean {
  const mode = services.config.cookieSecure;
  if (mode !== 'auto') return mode === 'always';
  return request.protocol === 'https' || !LOCAL_HOSTS.has(request.hostname.replace(/:\d+$/, ''));
}

function csrfTokenFor(services: Services, auth: AuthState): string {
  const binding = auth.sessionToken ? `s:${sha256(auth.sessionToken)}` : `p:${auth.preId}`;
  return hmac(services.secret, `csrf|${binding}`);
}

/** Sets the session cookie (at sign-in) — HttpOnly, SameSite=Strict. */
export function setSessionCookie(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
): void {
  request.auth.sessionToken = token;
  request.auth.dropSessionCookie = false;
  const secure = cookieSecure(services, request);
  void reply.setCookie(named(SESSION_COOKIE, secure), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure,
  });
}

/** Clears the session cookie (at sign-out). */
export function clearSessionCookie(request: FastifyRequest): void {
  request.auth.sessionToken = null;
  request.auth.user = null;
  request.auth.dropSessionCookie = true;
}

/**
 * What a session that owes a passkey may still reach: who it is, signing out, the mailed confirmation
 * and making the passkey.
 */
const WHILE_PASSKEY_DUE = new Set([
  'GET /api/me',
  'POST /api/auth/logout',
  'GET /api/me/passkeys',
  'POST /api/me/passkeys/confirmation',
  'POST /api/me/passkeys/confirm',
  'POST /api/me/passkeys/register-options',
  'POST /api/me/passkeys/register-verify',
]);

/**
 * The path a request is handled under: the matched route's pattern or, where no route matched, the
 * request's path percent-decoded with runs of `/` made one. Never the raw URL: the router decodes it,
 * so `/%61pi/auth/logout` reaches the `/api/auth/logout` handler though its raw URL does not start
 * with `/api/`.
 */
export function requestPath(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (route !== undefined && !route.includes('*')) return route;
  const raw = request.url.split('?')[0] ?? '';
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A malformed escape: the raw path is judged as it is.
  }
  return decoded.replace(/\/{2,}/g, '/');
}

const isApi = (path: string) => path.startsWith('/api/');
/** Paths whose requests carry their own signature instead of cookies (presigned storage URLs). */
const isStorage = (path: string) => path.startsWith(CSRF_EXEMPT_PREFIX);

function assertPasskeyNotDue(request: FastifyRequest): void {
  if (WHILE_PASSKEY_DUE.has(`${request.method} ${requestPath(request)}`)) return;
  throw new HttpError(403, passkeyMessages.required, {}, 'passkey_required');
}

/**
 * Resolves the session on every API request, enforces the CSRF header on state-changing ones, and
 * keeps the `csrf_token` cookie in step with the (pre-)session it is bound to.
 */
export function installSecurity(app: FastifyInstance, services: Services): void {
  const policy = {
    idleMinutes: services.config.sessionIdleMinutes,
    maxHours: services.config.sessionMaxHours,
  };

  app.decorateRequest('auth', null as unknown as AuthState);

  app.addHook('onRequest', async (request) => {
    const cookies = request.cookies;
    const secure = cookieSecure(services, request);
    const preCookie = cookies[named(PRE_SESSION_COOKIE, secure)];
    const preId = preCookie && /^[A-Za-z0-9_-]{20,64}$/.test(preCookie) ? preCookie : randomToken(18);
    const auth: AuthState = { user: null, sessionToken: null, preId, dropSessionCookie: false };
    request.auth = auth;
    // Only origin-form targets (`/path`): an absolute-form one (`http://host/api/…`) is routed like its
    // path by some servers and not by others, so it is not let through to be judged either way.
    if (!request.raw.url?.startsWith('/')) {
      throw badRequest('The request target must be a path.');
    }
    const path = requestPath(request);
    if (!isApi(path) || isStorage(path)) return;

    const token = cookies[named(SESSION_COOKIE, secure)];
    if (token && token.length <= 100) {
      const found = { passkeyDue: false };
      auth.user = await resolveSession(services.db, token, policy, services.sessions, found);
      if (auth.user) auth.sessionToken = token;
      else {
        auth.dropSessionCookie = true;
        auth.endedReason = await sessionEndReason(services.db, token);
      }
      if (auth.user && found.passkeyDue) {
        auth.passkeyDue = true;
        assertPasskeyNotDue(request);
      }
    }
    if (isStateChanging(request.method)) {
      const sent = request.headers[CSRF_HEADER];
      if (typeof sent !== 'string' || !safeEqual(sent, csrfTokenFor(services, auth))) {
        throw new HttpError(
          403,
          'Your security token is missing or out of date. Reload the page and try again.',
          {},
          'bad_token',
        );
      }
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const auth = request.auth;
    // Only API answers manage the cookies: a static file (a lazily loaded chunk) knows nothing of the
    // session and must not reset the CSRF token to the signed-out one.
    const path = requestPath(request);
    if (!auth || !isApi(path) || isStorage(path)) return payload;
    const secure = cookieSecure(services, request);
    if (request.cookies[named(PRE_SESSION_COOKIE, secure)] !== auth.preId) {
      void reply.setCookie(named(PRE_SESSION_COOKIE, secure), auth.preId, {
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        secure,
      });
    }
    const expected = csrfTokenFor(services, auth);
    if (request.cookies[named(CSRF_COOKIE, secure)] !== expected) {
      // Readable by the page (not HttpOnly): the client echoes it in the x-csrf-token header.
      void reply.setCookie(named(CSRF_COOKIE, secure), expected, {
        path: '/',
        httpOnly: false,
        sameSite: 'strict',
        secure,
      });
    }
    if (auth.dropSessionCookie) {
      void reply.clearCookie(named(SESSION_COOKIE, secure), {
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        secure,
      });
    }
    return payload;
  });
}

/** Baseline security headers for every response. */
export function installSecurityHeaders(app: FastifyInstance, services: Services): void {
  const s3Origin = services.config.s3?.endpoint ? new URL(services.config.s3.endpoint).origin : '';
  const csp = [
    "default-src 'self'",
    // WebAssembly may be compiled (not `eval`): the document reader's OCR and barcode reading are wasm.
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    `img-src 'self' blob: data: ${s3Origin}`.trim(),
    `connect-src 'self' ${s3Origin}`.trim(),
    `frame-src 'self' blob: ${s3Origin}`.trim(),
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  app.addHook('onSend', async (request, reply, payload) => {
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', csp);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('permissions-policy', 'camera=(self), microphone=(), geolocation=()');
    // Presigned view URLs may be framed by the app itself; they set their own CSP for that.
    const path = requestPath(request);
    if (!isStorage(path)) reply.header('x-frame-options', 'DENY');
    // API answers hold people's data: no browser or proxy cache keeps them.
    if (isApi(path)) reply.header('cache-control', 'no-store');
    // Served over https (directly or through a trusted proxy): browsers must never fall back to http.
    if (request.protocol === 'https')
      reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    return payload;
  });
}
