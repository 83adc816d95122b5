import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail; resolves false (never throws) when the mail could not be handed over. */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: Mail): Promise<boolean>;
  close(): void;
}

/**
 * Real delivery through an SMTP server (`SMTP_URL`); nodemailer loads only when one is configured.
 * A server that accepts the connection and then says nothing must not hold the sign-in that sends
 * the code: each wait is bounded by `timeoutMs` (the socket's silence, once talking, by 2.5×), so a
 * mail that cannot go answers `emailSent: false` within about 2 × `timeoutMs`. Timeouts set in the
 * URL's query win.
 */
export async function smtpMailer(
  url: string,
  from: string,
  log: FastifyBaseLogger,
  timeoutMs: number,
): Promise<Mailer> {
  const { default: nodemailer } = await import('nodemailer');
  // nodemailer reads every option from the URL when it is given one, so the bounds go in its query.
  const bounded = new URL(url);
  const bounds = {
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: Math.round(2.5 * timeoutMs),
    dnsTimeout: timeoutMs,
  };
  for (const [name, value] of Object.entries(bounds))
    if (!bounded.searchParams.has(name)) bounded.searchParams.set(name, String(value));
  const transport = nodemailer.createTransport(bounded.href);
  return {
    kind: 'smtp',
    async send(mail) {
      try {
        await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
        return true;
      } catch (err) {
        log.error({ err }, 'mail could not be sent'); // no address: the log holds no personal data
        return false;
      }
    },
    close: () => transport.close(),
  };
}

/**
 * Development outbox used while no SMTP server is configured: mails are kept in the database
 * (served at GET /api/dev/outbox) and printed to the log so a newcomer can read their code.
 */
export function outboxMailer(db: Db, log: FastifyBaseLogger): Mailer {
  return {
    kind: 'outbox',
    async send(mail) {
      try {
        await db
          .insertInto('dev_outbox')
          .values({ recipient: mail.to, subject: mail.subject, body: mail.text })
          .execute();
        log.info({ to: mail.to, subject: mail.subject }, `[dev outbox] ${mail.text.split('\n')[0] ?? ''}`);
        return true;
      } catch (err) {
        log.error({ err }, 'dev outbox write failed');
        return false;
      }
    },
    close: () => undefined,
  };
}

/** The texts of the code mails. */
export function codeMail(to: string, purpose: 'login' | 'reset', code: string, passkeys = 0): Mail {
  const what = purpose === 'login' ? 'sign-in' : 'password reset';
  // A reset does not remove passkeys: saying how many there are makes one added by a thief visible.
  const passkeyLine =
    purpose === 'reset' ? [`Your account has ${passkeys === 1 ? '1 passkey' : `${passkeys} passkeys`}.`] : [];
  return {
    to,
    // Never the code itself: subjects show on lock screens, in notifications and in mail logs.
    subject: `Your VITA Documents ${what} code`,
    text: [
      `Your ${what} code is ${code}.`,
      '',
      'It expires in 10 minutes and works once.',
      'If you did not ask for it, you can ignore this email.',
      ...passkeyLine,
    ].join('\n'),
  };
}

/** Sent after every Password PIN change. */
export function pinChangedMail(to: string): Mail {
  return {
    to,
    subject: 'Your VITA Documents Password PIN was changed',
    text: [
      'Your Password PIN was just changed, and every device signed in to your account was signed out.',
      '',
      'If you did not do this, tell your site coordinator right away: someone may have access to your email.',
    ].join('\n'),
  };
}

/**
 * Sent once when wrong PINs lock new browsers out of an account: the owner learns someone is
 * guessing, and the two ways back in.
 */
export function lockedMail(to: string): Mail {
  return {
    to,
    subject: 'Your VITA Documents account is locked on new browsers',
    text: [
      'Someone entered a wrong Password PIN for your account 100 times in a row, so it can no longer be signed in to from a browser you have not signed in on before.',
      '',
      'To lift the lock, sign in on a computer or phone you have signed in on before, or set a new Password PIN with Forgot Password on the sign-in page.',
      '',
      'If these tries were not yours, tell your site coordinator: someone may be trying to guess your Password PIN.',
    ].join('\n'),
  };
}

/** Sent when an officer or admin approves an account: it can sign in now, and where. */
export function approvedMail(to: string, firstName: string, signInUrl: string): Mail {
  return {
    to,
    subject: 'Your VITA Documents account is approved',
    text: [
      `Hello ${firstName},`,
      '',
      'Your VITA Documents account was approved, so you can sign in now:',
      '',
      signInUrl,
      '',
      'Sign in with this email address and your Password PIN; we then email you a code to finish signing in.',
    ].join('\n'),
  };
}

/** Sent when an admin removes all of a person's passkeys (a lost phone). */
export function passkeysRemovedMail(to: string, count: number): Mail {
  return {
    to,
    subject: 'Your VITA Documents passkeys were removed',
    text: [
      `An admin removed ${count === 1 ? 'the passkey' : `all ${count} passkeys`} of your account. Sign in with your email, Password PIN and code; you can then create a new passkey.`,
      '',
      'If you did not ask for this, tell your site coordinator.',
    ].join('\n'),
  };
}
