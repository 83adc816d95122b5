import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** A random URL-safe token of `bytes` bytes of entropy (default 32 = 256 bits). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A random numeric code of `length` digits, uniformly distributed (leading zeros kept). */
export function randomDigits(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += String(randomInt(10));
  return out;
}

/** SHA-256 of a token, for storing session ids and grants: a leaked table reveals no live token. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** HMAC-SHA256 keyed with the server secret, for values an attacker could brute-force (codes). */
export function hmac(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value).digest('base64url');
}

/** Constant-time string comparison. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
