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

/** The development outbox's mails, oldest first. */
export function outboxMails(db: Db) {
  return db.selectFrom('dev_outbox').selectAll().orderBy('id', 'asc').execute();
}

/** A day in mails: `November 3, 2026` (the server does not know the reader's time zone; days are UTC). */
const mailDay = (at: Date) =>
  at.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** A moment in mails: `November 3, 2026 at 4:05 PM UTC`. */
const mailMoment = (at: Date) =>
  `${mailDay(at)} at ${at
    .toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' })
    .replace(/\s/g, ' ')} UTC`;

/** A passkey as a mail names it. */
export interface MailPasskey {
  name: string;
  createdAt: Date;
}

/**
 * The lines of a reset mail about the account's passkeys: a reset does not remove them, so each is
 * named with its day, and a passkey a thief added is visible (and removable on the reset screen).
 */
function passkeyLines(passkeys: readonly MailPasskey[]): string[] {
  if (passkeys.length === 0) return ['', 'Your account has no passkeys.'];
  return [
    '',
    `Your account has ${passkeys.length === 1 ? '1 passkey' : `${passkeys.length} passkeys`}:`,
    ...passkeys.map((p) => `- ${p.name}, added ${mailDay(p.createdAt)}`),
    'If one of them is not yours, tick Remove all passkeys when you set your new Password PIN.',
  ];
}

/** The texts of the code mails; a reset's lists the account's passkeys. */
export function codeMail(
  to: string,
  purpose: 'login' | 'reset',
  code: string,
  passkeys: readonly MailPasskey[] = [],
): Mail {
  const what = purpose === 'login' ? 'sign-in' : 'password reset';
  return {
    to,
    // Never the code itself: subjects show on lock screens, in notifications and in mail logs.
    subject: `Your VITA Documents ${what} code`,
    text: [
      `Your ${what} code is ${code}.`,
      '',
      'It expires in 10 minutes and works once.',
      'If you did not ask for it, you can ignore this email.',
      ...(purpose === 'reset' ? passkeyLines(passkeys) : []),
    ].join('\n'),
  };
}

/** The code an admin or officer without a passkey confirms before making one (the passkey rule). */
export function passkeyConfirmationMail(to: string, code: string, minutes: number): Mail {
  return {
    to,
    subject: 'Your VITA Documents passkey confirmation code',
    text: [
      `Your passkey confirmation code is ${code}.`,
      '',
      `It expires in ${minutes} minutes and works once. Enter it on the Account page to add a passkey.`,
      'If you did not ask for it, someone may know your Password PIN: set a new one with Forgot Password on the sign-in page and tell your site coordinator.',
    ].join('\n'),
  };
}

/** Sent for every new passkey of any account, so one added by someone else does not go unnoticed. */
export function passkeyAddedMail(to: string, passkey: MailPasskey, userAgent?: string): Mail {
  return {
    to,
    subject: 'A passkey was added to your VITA Documents account',
    text: [
      `A passkey was added to your account on ${mailMoment(passkey.createdAt)}. If this wasn't you, set a new Password PIN with Forgot Password on the sign-in page and tick Remove all passkeys there (or use Remove all passkeys on the Account page), and tell your site coordinator or an admin right away. Admins and officers: ask an admin to remove your passkeys.`,
      '',
      // Quoted, and the browser beside it, so a name cannot pass for a line of the mail's own.
      `The new passkey is named: "${passkey.name}"`,
      `It was added from this browser: ${shortUserAgent(userAgent)}`,
    ].join('\n'),
  };
}

/**
 * Sent when a person removes passkeys of their own (one by name, or all): whoever holds a session
 * could otherwise take the owner's passkey away unnoticed and keep one of their own.
 */
export function passkeyRemovedMail(to: string, removed: string | number, userAgent?: string): Mail {
  const what =
    typeof removed === 'string'
      ? `The passkey "${removed}" was`
      : `All ${removed} passkeys of your account were`;
  return {
    to,
    subject: 'A passkey was removed from your VITA Documents account',
    text: [
      `${what} removed on ${mailMoment(new Date())}. If this wasn't you, set a new Password PIN with Forgot Password on the sign-in page and tell your site coordinator or an admin right away.`,
      '',
      `It was removed from this browser: ${shortUserAgent(userAgent)}`,
    ].join('\n'),
  };
}

/**
 * A user agent fit for one line of a mail: printable ASCII only (a header is the sender's to write),
 * at most 80 characters.
 */
function shortUserAgent(userAgent: string | undefined): string {
  const clean = (userAgent ?? '').replace(/[^\x20-\x7e]/g, '').trim();
  if (!clean) return 'unknown';
  return clean.length > 80 ? `${clean.slice(0, 79)}…` : clean;
}

/** Sent after every Password PIN change; says so when the account's passkeys were removed with it. */
export function pinChangedMail(to: string, passkeysRemoved = 0): Mail {
  return {
    to,
    subject: 'Your VITA Documents Password PIN was changed',
    text: [
      'Your Password PIN was just changed, and every device signed in to your account was signed out.',
      ...(passkeysRemoved > 0
        ? [
            `${passkeysRemoved === 1 ? 'Its passkey was' : `All ${passkeysRemoved} of its passkeys were`} removed.`,
          ]
        : []),
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
