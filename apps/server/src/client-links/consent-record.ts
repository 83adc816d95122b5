/**
 * The client's signed consent as a record (docs/behaviour.md#requesting-documents-from-a-client,
 * docs/security.md): a PDF made here, on the server, from the statement the server served under the
 * version the page signed (never from words the page sends), with the typed name, the date and time in
 * the phone's time zone, the address and browser the signature came from and the link it came through
 * (its id, never its token). It is filed in the client's `Digital Consent Form` category like any upload
 * through the link (`From client`), so an admin's later change of wording alters no signed record.
 */
import { createHash } from 'node:crypto';
import { clientLinkText, type ClientLinkLanguage } from '@vita-docs/core/contract';
import type { PDFFont } from 'pdf-lib';
import { findDocument, reserveDocument } from '../documents/documents.js';
import { settle, type LifecycleServices } from '../documents/lifecycle.js';
import { HttpError } from '../http/errors.js';

export const CONSENT_CATEGORY = 'Digital Consent Form';

/** The record's name: `Consent 2026-11-29.pdf`. */
const RECORD_NAME = /^Consent \d{4}-\d{2}-\d{2}\.pdf$/;

/**
 * True for a signed consent record the server filed for a link (not a file the client added): it counts
 * neither toward the link's 100 files nor among the files that came back.
 */
export function isConsentRecord(doc: { doc_type: string; filename: string; uploaded_by: string | null }) {
  return (
    doc.doc_type === CONSENT_CATEGORY &&
    RECORD_NAME.test(doc.filename) &&
    Boolean(doc.uploaded_by?.startsWith('link:'))
  );
}

export interface ConsentSignature {
  language: ClientLinkLanguage;
  programme: string;
  volunteer: string;
  /** The statement as served to the page under the version it signed. */
  statement: string;
  name: string;
  at: Date;
  timeZone: string;
  address: string;
  browser: string;
  /** The link's id and path: never its token. */
  link: string;
}

/** A time zone the server knows, else UTC: the record's time is then still exact, in UTC. */
export function knownTimeZone(zone: string | undefined): string {
  if (!zone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

/** `2026-11-29` in the signer's time zone: the record's file date. */
export function signedDay(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/** `November 29, 2026 at 4:05:09 AM GMT-05:00 (America/Chicago)`, in the record's language. */
function signedWhen(at: Date, timeZone: string, language: ClientLinkLanguage): string {
  const when = new Intl.DateTimeFormat(language === 'es' ? 'es-US' : 'en-US', {
    timeZone,
    dateStyle: 'long',
    timeStyle: 'long',
  }).format(at);
  const offset =
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  return `${when} (${offset}, ${timeZone})`;
}

/**
 * The standard fonts speak WinAnsi (Latin-1 and a little more: every English and Spanish letter); a
 * character they cannot draw (another script in a typed name) is drawn as `?` rather than failing the
 * signature. The record's text layer then says `?` where the phone showed that character.
 */
function drawable(font: PDFFont, text: string): string {
  let out = '';
  for (const ch of text.replace(/\s+/g, ' ')) {
    try {
      font.encodeText(ch);
      out += ch;
    } catch {
      out += '?';
    }
  }
  return out;
}

/** Breaks `text` into lines no wider than `width` at `size`. */
function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of drawable(font, text).split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(next, size) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** The signed record as a one-page (or longer) Letter PDF. */
export async function consentRecordPdf(sig: ConsentSignature): Promise<Uint8Array> {
  // pdf-lib on the first consent signed, not at the server's start (a tenth of its start-up imports).
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  pdf.setTitle(clientLinkText(sig.language, 'recordTitle'));
  pdf.setProducer(sig.programme);
  pdf.setCreationDate(sig.at);
  pdf.setModificationDate(sig.at);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const [width, height, margin] = [612, 792, 72];
  let page = pdf.addPage([width, height]);
  let y = height - margin;
  const write = (text: string, font: PDFFont, size: number, gap = 4) => {
    for (const line of wrap(font, text, size, width - 2 * margin)) {
      if (y - size < margin) {
        page = pdf.addPage([width, height]);
        y = height - margin;
      }
      page.drawText(line, { x: margin, y: y - size, size, font });
      y -= size + gap;
    }
    y -= 6;
  };
  const t = (key: Parameters<typeof clientLinkText>[1], values: Record<string, string> = {}) =>
    clientLinkText(sig.language, key, values);
  write(t('recordTitle'), bold, 16);
  write(t('recordProgramme', { programme: sig.programme }), regular, 11);
  write(t('recordVolunteer', { volunteer: sig.volunteer }), regular, 11);
  write(t('recordStatement'), bold, 11);
  write(sig.statement, regular, 12);
  write(t('recordSignedBy', { name: sig.name }), regular, 11);
  write(t('recordSignedAt', { when: signedWhen(sig.at, sig.timeZone, sig.language) }), regular, 11);
  write(t('recordAddress', { address: sig.address }), regular, 11);
  write(t('recordBrowser', { browser: sig.browser }), regular, 11);
  write(t('recordLink', { link: sig.link }), regular, 11);
  return pdf.save({ useObjectStreams: false });
}

/**
 * Files the record among the client's documents as the link's own upload (`uploadedBy`, so it is
 * marked `From client` and counted with what came back): reserved, written, then settled as any upload.
 */
export async function fileConsentRecord(
  services: LifecycleServices & { config: { maxUploadBytes: number } },
  record: { clientId: string; uploadedBy: string; filename: string; bytes: Uint8Array },
): Promise<string> {
  const { db, store } = services;
  const key = await reserveDocument(db, {
    clientId: record.clientId,
    docType: CONSENT_CATEGORY,
    filename: record.filename,
    contentType: 'application/pdf',
    maxBytes: services.config.maxUploadBytes,
    expiresAt: new Date(Date.now() + 10 * 60_000),
    uploadedBy: record.uploadedBy,
    declaredSize: record.bytes.byteLength,
    declaredSha256: createHash('sha256').update(record.bytes).digest('hex'),
  });
  await store.put(key, record.bytes, 'application/pdf');
  const row = await findDocument(db, key);
  const settled = row && row.state !== 'stored' ? await settle(services, row) : undefined;
  if (settled && settled.state !== 'stored')
    throw new HttpError(500, 'The signed consent could not be filed. Please try again.');
  return key;
}
