/**
 * Known devices: after a sign-in, the browser keeps a signed note that this email signed in on it.
 * Failed PINs sent without that note (from anywhere else) are limited per account; a known device
 * has its own allowance, so a stranger's wrong guesses cannot lock the owner out of their own device.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hmac, randomToken, safeEqual } from './crypto.js';

const DEVICE_COOKIE = 'vita_device';
/** Accounts remembered per browser (a shared intake laptop signs several volunteers in). */
const MAX_ACCOUNTS = 8;
const DEVICE_DAYS = 180;

const sign = (secret: Buffer, email: string, id: string) =>
  hmac(secret, `device|${email}|${id}`).slice(0, 32);

/** This browser's device id for `email`, when it holds a valid note for it; else null. */
export function knownDevice(secret: Buffer, request: FastifyRequest, email: string): string | null {
  for (const entry of (request.cookies[DEVICE_COOKIE] ?? '').split('~')) {
    const [id, mac] = entry.split('.');
    if (id && mac && /^[A-Za-z0-9_-]{16,64}$/.test(id) && safeEqual(mac, sign(secret, email, id))) return id;
  }
  return null;
}

/** Remembers that `email` signed in on this browser (keeping the notes of other accounts). */
export function rememberDevice(
  secret: Buffer,
  request: FastifyRequest,
  reply: FastifyReply,
  email: string,
  secure: boolean,
): void {
  const others = (request.cookies[DEVICE_COOKIE] ?? '')
    .split('~')
    .filter((entry) => /^[A-Za-z0-9_-]{16,64}\.[A-Za-z0-9_-]{32}$/.test(entry));
  if (knownDevice(secret, request, email)) return;
  const id = randomToken(18);
  const notes = [`${id}.${sign(secret, email, id)}`, ...others].slice(0, MAX_ACCOUNTS);
  void reply.setCookie(DEVICE_COOKIE, notes.join('~'), {
    path: '/api/auth',
    httpOnly: true,
    sameSite: 'strict',
    secure,
    maxAge: DEVICE_DAYS * 24 * 3600,
  });
}
