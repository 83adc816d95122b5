/**
 * The client's side of a document-request link (docs/behaviour.md#requesting-documents-from-a-client):
 * open (mails the code), verify (code, and client PIN when there is one → link session cookie), then
 * the checklist, consent, uploads into the requested categories, `I don't have this`, and Done.
 * A link session reaches only what came in through its own link: nothing stored before is readable.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  buildDocKey,
  CLIENT_LINK_TEXTS,
  clientLinkText,
  fillPlaces,
  maskEmail,
  VOLUNTEER_DONE_MAIL,
} from '@vita-docs/core/contract';
import { sealingPair } from '../auth/journal-keys.js';
import { consentForClients } from '../client-links/consent.js';
import {
  CONSENT_CATEGORY,
  consentRecordPdf,
  fileConsentRecord,
  knownTimeZone,
  signedDay,
} from '../client-links/consent-record.js';
import { programmeName, whoAsks } from '../client-links/programme.js';
import { programmeReads } from '../reading.js';
import { hmac, randomDigits, safeEqual } from '../auth/crypto.js';
import { verifyPin } from '../auth/passwords.js';
import { hitRateLimit } from '../auth/rate-limit.js';
import {
  auditLinkUploadOnce,
  claimLinkWrite,
  claimTry,
  finishLink,
  forgetConsent,
  LINK_IP_LIMITS,
  linkGone,
  linkState,
  linkUploader,
  MAX_WRONG_TOTAL,
  recordConsent,
  setAnswer,
  settleWrongTry,
  type LinkRow,
} from '../client-links/links.js';
import {
  checklistRows,
  knownLinkByToken,
  openLinkByToken,
  openLinkOfSession,
  openSessionOnce,
  recordLinkEvent,
  reserveLinkUpload,
  storeLinkCode,
  volunteerOf,
  OTHER_CATEGORY,
  type OpenLink,
} from '../client-links/link-sessions.js';
import { ensureDocType, hasDocType } from '../clients/clients.js';
import { deleteDocumentRows, findDocument } from '../documents/documents.js';
import { moveDocument } from '../documents/rename.js';
import { refusalOf, settle } from '../documents/lifecycle.js';
import { presignUpload } from '../documents/presign.js';
import { badRequest, forbidden, HttpError, notFound, tooManyRequests, unauthorized } from '../http/errors.js';
import { publicRoute } from '../http/route.js';
import { cookieSecure } from '../http/security.js';
import type { Services } from '../services.js';

/** The database handle, passed on to the domain modules (routes build no statement). */
type Db = Services['db'];

const EN = CLIENT_LINK_TEXTS.en;
/** The link session's cookie reaches only the link session's own API. */
const LINK_COOKIE_PATH = '/api/link/session';
const cookieName = (secure: boolean) => (secure ? '__Secure-vita_link' : 'vita_link');

/** Codes mailed per link per hour. */
const CODES_PER_HOUR = 5;

const wrongAnswer = () => new HttpError(400, EN.wrongAnswer);
const lockedError = () => new HttpError(429, EN.locked, { 'retry-after': '1800' }, 'rate_limited');

async function limitIp(db: Db, request: FastifyRequest, what: keyof typeof LINK_IP_LIMITS): Promise<void> {
  const { max, window } = LINK_IP_LIMITS[what];
  if (!(await hitRateLimit(db, `link-${what}:${request.ip}`, max, window)))
    throw tooManyRequests('Too many requests. Please wait a few minutes and try again.', window);
}

/** The link session of this request: 401 without one (or idle 60 minutes), 410 once its link closed. */
async function linkSession(services: Services, request: FastifyRequest): Promise<OpenLink> {
  const token = request.cookies[cookieName(cookieSecure(services, request))];
  if (!token || token.length > 100) throw unauthorized(EN.expired);
  const session = await openLinkOfSession(services.db, token);
  if (!session) throw unauthorized(EN.expired);
  return session;
}

/**
 * {@link linkSession} for a request that writes: each counts against the link's writes a minute and a
 * day (429 past `LINK_WRITES_PER_MINUTE` or `LINK_WRITES_PER_DAY`), so no script fills the audit log
 * or the database through it.
 */
async function linkWriteSession(services: Services, request: FastifyRequest): Promise<OpenLink> {
  const session = await linkSession(services, request);
  await claimLinkWrite(services.db, session.link);
  return session;
}

function setLinkCookie(services: Services, request: FastifyRequest, reply: FastifyReply, token: string) {
  const secure = cookieSecure(services, request);
  void reply.setCookie(cookieName(secure), token, {
    path: LINK_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure,
  });
}

export function linkSessionRoutes(app: FastifyInstance, services: Services): void {
  linkEntryRoutes(app, services);
  linkChecklistRoutes(app, services);
  linkUploadRoutes(app, services);
}

/** Opening the link (the code is mailed) and proving who one is (code, PIN). */
function linkEntryRoutes(app: FastifyInstance, services: Services): void {
  linkOpenRoute(app, services);
  linkVerifyRoute(app, services);
}

function linkOpenRoute(app: FastifyInstance, services: Services): void {
  const { db } = services;

  publicRoute(app, 'linkOpen', async ({ body, request }) => {
    await limitIp(db, request, 'open');
    const known = await knownLinkByToken(db, body.token);
    const who = await whoAsks(db, known.link, known.client);
    // A link that ended says how: `done` thanks the client again (their documents arrived), anything
    // else is the expired text. Only the token's holder learns it, and nothing about the client.
    const ended = linkState(known.link);
    if (ended !== 'open')
      return {
        state: ended === 'done' ? ('done' as const) : ('expired' as const),
        language: known.link.language,
        ...who,
        codeSentTo: null,
        needsPin: false,
      };
    const { link, client } = known;
    if (!link.opened_at) await recordLinkEvent(db, link, { action: 'link.open', ip: request.ip }, 'opened');
    const codeLive = link.code_expires_at !== null && link.code_expires_at > new Date();
    if (client.email && (body.resend || !codeLive)) {
      if (!(await hitRateLimit(db, `link-code:${link.id}`, CODES_PER_HOUR, 3600)))
        throw tooManyRequests('Too many codes were sent. Please wait an hour and try again.', 3600);
      const code = randomDigits(6);
      await storeLinkCode(db, link.id, hmac(services.secret, `link|${link.id}|${code}`));
      // Never the code in the subject: it shows on lock screens.
      const sent = await services.mailer.send({
        to: client.email,
        subject: clientLinkText(link.language, 'codeSubject', who),
        text: clientLinkText(link.language, 'codeBody', { ...who, code }),
      });
      await recordLinkEvent(db, link, {
        action: 'link.code',
        ip: request.ip,
        detail: sent ? (body.resend ? 'sent again' : 'sent') : 'the mail could not be sent',
      });
    }
    return {
      state: 'open' as const,
      language: link.language,
      ...who,
      codeSentTo: client.email ? maskEmail(client.email) : null,
      needsPin: client.pin_hash !== null,
    };
  });
}

/** A wrong answer: audited; the fifth in a row locks the link (audited), the 15th in all closes it. */
async function wrongTry(db: Db, link: LinkRow, request: FastifyRequest): Promise<never> {
  const ip = request.ip;
  await recordLinkEvent(db, link, { action: 'link.fail', ip });
  const outcome = await settleWrongTry(db, link.id);
  if (outcome === 'closed') {
    await recordLinkEvent(db, link, {
      action: 'link.lock',
      ip,
      detail: `closed after ${MAX_WRONG_TOTAL} wrong answers`,
    });
    throw linkGone();
  }
  if (outcome === 'locked') {
    await recordLinkEvent(db, link, {
      action: 'link.lock',
      ip,
      detail: '5 wrong answers: locked for 30 minutes',
    });
    throw lockedError();
  }
  throw wrongAnswer();
}

function linkVerifyRoute(app: FastifyInstance, services: Services): void {
  const { db } = services;

  publicRoute(app, 'linkVerify', async ({ body, request, reply }) => {
    await limitIp(db, request, 'verify');
    const { link, client } = await openLinkByToken(db, body.token);
    if (!(await claimTry(db, link.id))) throw lockedError();
    const codeOk =
      !client.email ||
      (body.code !== undefined &&
        link.code_hash !== null &&
        link.code_expires_at !== null &&
        link.code_expires_at > new Date() &&
        safeEqual(hmac(services.secret, `link|${link.id}|${body.code}`), link.code_hash));
    // The PIN is checked even when the code is wrong: the answer takes as long either way.
    const pinOk = client.pin_hash === null || (await verifyPin(client.pin_hash, body.pin ?? ''));
    if (!codeOk || !pinOk) return wrongTry(db, link, request);
    const token = await openSessionOnce(db, link, Boolean(client.email), request.ip);
    if (!token) return wrongTry(db, link, request);
    setLinkCookie(services, request, reply, token);
    return { ok: true as const };
  });
}

/** The checklist, consent, `I don't have this` and Done. */
function linkChecklistRoutes(app: FastifyInstance, services: Services): void {
  linkChecklistRoute(app, services);
  linkConsentRoute(app, services);
  linkAnswerRoute(app, services);
  linkDoneRoute(app, services);
  linkJournalKeyRoute(app, services);
}

/**
 * The link's journal key: the client's phone seals the files it queued under it (IndexedDB), so a reload
 * loses none. Derived from the storage key and the link (journal-keys.ts), handed only to a live session of that link
 * (never cached): once the link is revoked, done or expired, what the phone kept never opens again.
 */
function linkJournalKeyRoute(app: FastifyInstance, services: Services): void {
  publicRoute(app, 'linkJournalKey', async ({ request, reply }) => {
    const { link } = await linkSession(services, request);
    void reply.header('cache-control', 'no-store');
    const { keyId, key } = services.journalKeys.forLink(link.id);
    return {
      keyId,
      key: key.toString('base64'),
      ...sealingPair(key),
      expiresAt: link.expires_at.toISOString(),
    };
  });
}

function linkChecklistRoute(app: FastifyInstance, services: Services): void {
  const { db } = services;

  publicRoute(app, 'linkChecklist', async ({ request }) => {
    const { link, client } = await linkSession(services, request);
    return {
      firstName: client.first_name,
      ...(await whoAsks(db, link, client)),
      message: link.message,
      language: link.language,
      consented: link.consent_version !== null,
      consent: await consentForClients(db),
      readDocuments: await programmeReads(db),
      expiresAt: link.expires_at.toISOString(),
      rows: await checklistRows(db, link),
    };
  });
}

function linkConsentRoute(app: FastifyInstance, services: Services): void {
  const { db } = services;

  publicRoute(app, 'linkConsent', async ({ body, request }) => {
    const { link, client } = await linkWriteSession(services, request);
    // What the page says it showed is not evidence alone: it must be the text served now (an admin may
    // have changed it since the page loaded), and that is the version recorded.
    const { version, ...statement } = await consentForClients(db);
    if (body.version !== version)
      throw badRequest(
        'The statement has changed since this page opened. Reload the page and read it again.',
      );
    const language = body.language ?? link.language;
    const name = body.name.trim().replace(/\s+/g, ' ');
    if (!name) throw badRequest(CLIENT_LINK_TEXTS[language].signName);
    // Signed again (another session, a retry): recorded once.
    if (!(await recordConsent(db, link.id, version))) return { ok: true as const };
    const at = new Date();
    const timeZone = knownTimeZone(body.timeZone);
    const who = await whoAsks(db, link, client);
    const bytes = await consentRecordPdf({
      language,
      ...who,
      statement: statement[language],
      name,
      at,
      timeZone,
      address: request.ip,
      browser: (request.headers['user-agent'] ?? '').slice(0, 300) || '-',
      link: `/u (request link ${link.id})`,
    });
    const key = await fileConsentRecord(services, {
      clientId: client.id,
      uploadedBy: linkUploader(link.id),
      filename: `Consent ${signedDay(at, timeZone)}.pdf`,
      bytes,
    }).catch(async (error: unknown) => {
      // No record, no consent: the client signs again.
      await forgetConsent(db, link.id);
      throw error;
    });
    await recordLinkEvent(db, link, {
      action: 'link.consent',
      keys: [key],
      ip: request.ip,
      detail: `signed "${name}", consent text version ${version} (${language}), filed in ${CONSENT_CATEGORY}`,
    });
    return { ok: true as const };
  });
}

function linkAnswerRoute(app: FastifyInstance, services: Services): void {
  const { db } = services;

  publicRoute(app, 'linkAnswer', async ({ body, request }) => {
    const { link, client } = await linkWriteSession(services, request);
    if (!link.categories.includes(body.docType)) throw forbidden('That document was not requested.');
    // A category the volunteer removed since the request takes nothing more.
    if (!(await hasDocType(db, client.id, body.docType))) throw forbidden('That document was not requested.');
    const note = (body.missing && body.note?.trim()) || null;
    // The same answer again changes nothing and is not audited again.
    if (!(await setAnswer(db, link.id, body.docType, { missing: body.missing, note })))
      return { ok: true as const };
    await recordLinkEvent(db, link, {
      action: 'link.missing',
      ip: request.ip,
      detail: `${body.docType}: ${body.missing ? "I don't have this" : 'taken back'}`,
    });
    return { ok: true as const };
  });
}

function linkDoneRoute(app: FastifyInstance, services: Services): void {
  const { db } = services;

  publicRoute(app, 'linkDone', async ({ request, reply }) => {
    // Not counted as a write: it happens once (the link is then finished), and must work for a client
    // whose budget of writes is spent.
    const { link, client } = await linkSession(services, request);
    if (!(await finishLink(db, link.id))) throw linkGone();
    void reply.clearCookie(cookieName(cookieSecure(services, request)), { path: LINK_COOKIE_PATH });
    await recordLinkEvent(db, link, { action: 'link.done', ip: request.ip });
    const owner = await volunteerOf(db, client);
    if (owner) {
      // The client's first name and last initial only: no other personal data in a mail.
      const values = {
        client: `${client.first_name} ${client.last_name.slice(0, 1)}.`,
        programme: await programmeName(db),
      };
      await services.mailer.send({
        to: owner,
        subject: fillPlaces(VOLUNTEER_DONE_MAIL.subject, values),
        text: fillPlaces(VOLUNTEER_DONE_MAIL.text, values),
      });
    }
    return { ok: true as const };
  });
}

/** Uploads through the link: only into its requested categories, only its own files, at most 100. */
function linkUploadRoutes(app: FastifyInstance, services: Services): void {
  linkPresignRoute(app, services);
  linkCompleteRoute(app, services);
  linkRemoveRoute(app, services);
  linkMoveRoute(app, services);
}

function linkPresignRoute(app: FastifyInstance, services: Services): void {
  const { db } = services;

  publicRoute(app, 'linkPresign', async ({ body, request }) => {
    const { link, client } = await linkWriteSession(services, request);
    if (!link.consent_version) throw forbidden('Please agree to the statement first.');
    if (body.docType === OTHER_CATEGORY && !link.categories.includes(OTHER_CATEGORY)) {
      // `Something else`: the client's `Other` category, added if the client has none.
      await ensureDocType(db, client.id, OTHER_CATEGORY);
    } else {
      if (!link.categories.includes(body.docType)) throw forbidden('That document was not requested.');
      // A category the volunteer removed since the request takes nothing more.
      if (!(await hasDocType(db, client.id, body.docType)))
        throw forbidden('That document was not requested.');
    }
    // A retry of this link's own upload finds it; another's file with the same bytes is none of its business.
    const uploader = linkUploader(link.id);
    return presignUpload(
      services,
      {
        clientId: client.id,
        docType: body.docType,
        filename: body.filename,
        contentType: body.contentType,
        size: body.size,
        sha256: body.sha256,
        uploadedBy: uploader,
        sameAs: uploader,
      },
      (reservation) => reserveLinkUpload(db, link.id, reservation),
      `${request.protocol}://${request.host}`,
    );
  });
}

/**
 * One of this link's own uploads; 404 for any other key (another client's, one stored before). With
 * `sayWhyRefused`, one of its own refused after it arrived (a volunteer's list settled it first) answers
 * with the reason instead.
 */
async function ownUpload(db: Db, link: LinkRow, key: string, sayWhyRefused = false) {
  const row = await findDocument(db, key);
  const uploader = linkUploader(link.id);
  if (!row || row.uploaded_by !== uploader || row.client_id !== link.client_id) {
    const refusal =
      row || !sayWhyRefused
        ? undefined
        : await refusalOf(db, key, { clientId: link.client_id, uploadedBy: uploader });
    throw refusal ?? notFound('That upload was not started, or it was deleted.');
  }
  return row;
}

function linkCompleteRoute(app: FastifyInstance, services: Services): void {
  const { db } = services;

  publicRoute(app, 'linkComplete', async ({ body, request }) => {
    const { link, client } = await linkWriteSession(services, request);
    const row = await ownUpload(db, link, body.key, true);
    let doc = row;
    if (row.state !== 'stored') {
      const settled = await settle(services, row, { ip: request.ip });
      if (settled.state === 'refused') throw settled.error;
      if (settled.state === 'waiting')
        throw new HttpError(409, 'The file has not arrived. Please upload it again.');
      doc = (await findDocument(db, body.key)) ?? row;
    }
    // The store may have verified the bytes at the PUT already: each completed upload is recorded here,
    // once however often its `complete` is sent.
    await auditLinkUploadOnce(db, { linkId: link.id, clientId: client.id, key: row.key, ip: request.ip });
    return {
      ok: true as const,
      file: {
        key: doc.key,
        filename: doc.filename,
        size: Number(doc.size ?? 0),
        contentType: doc.content_type,
      },
    };
  });
}

function linkRemoveRoute(app: FastifyInstance, services: Services): void {
  const { db, store } = services;

  publicRoute(app, 'linkRemove', async ({ body, request }) => {
    const { link } = await linkWriteSession(services, request);
    const row = await ownUpload(db, link, body.key);
    await recordLinkEvent(db, link, { action: 'link.remove', ip: request.ip, keys: [row.key] });
    const deleted = await deleteDocumentRows(db, [row.key], { keepClaims: true });
    await store
      .delete(deleted)
      .catch((err: unknown) => services.log.warn({ err }, 'bytes left for the sweeper'));
    return { ok: true as const };
  });
}

/**
 * `Mover a {form}`: one of this link's own stored uploads moves to another category the link asked
 * for (or Other, where `Something else` puts files), keeping its name, as the staff's move does; the
 * move is audited as the link's (`link.move`). Any other key is 404, as for remove.
 */
function linkMoveRoute(app: FastifyInstance, services: Services): void {
  const { db } = services;

  publicRoute(app, 'linkMove', async ({ body, request }) => {
    const { link, client } = await linkWriteSession(services, request);
    const row = await ownUpload(db, link, body.key);
    if (row.state !== 'stored') throw notFound('That upload was not started, or it was deleted.');
    if (body.docType === row.doc_type) return { ok: true as const, newKey: row.key, docType: body.docType };
    if (body.docType === OTHER_CATEGORY && !link.categories.includes(OTHER_CATEGORY)) {
      await ensureDocType(db, client.id, OTHER_CATEGORY);
    } else if (!link.categories.includes(body.docType) || !(await hasDocType(db, client.id, body.docType))) {
      throw forbidden('That document was not requested.');
    }
    const newKey = buildDocKey(client.id, body.docType, Number(row.ord), row.filename);
    const taken = () => new HttpError(409, `A file with this name is already in “${body.docType}”.`);
    if (await findDocument(db, newKey)) throw taken();
    const result = await moveDocument(
      services,
      { key: row.key, newKey, filename: row.filename, clientId: client.id },
      {
        actor: linkUploader(link.id),
        ip: request.ip,
        action: 'link.move',
        detail: `${row.doc_type} → ${body.docType}`,
      },
    );
    if (result === 'gone') throw notFound('That upload was not started, or it was deleted.');
    if (result === 'taken') throw taken();
    return { ok: true as const, newKey, docType: body.docType };
  });
}
