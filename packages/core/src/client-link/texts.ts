/**
 * Every text the client sees through a document-request link, and the mails they get, in each language
 * the volunteer may pick (docs/behaviour.md#requesting-documents-from-a-client). One typed table per
 * language: `satisfies` makes a missing or extra key a type error, and texts.test.ts checks it at run time.
 * The staff screens stay English as the spec writes them (packages/ui texts).
 */
import type { ScanTexts } from '../flows/scan/scan-texts.js';
import type { QualityWarning } from '../quality/assess.js';

export const CLIENT_LINK_LANGUAGES = ['en', 'es'] as const;
export type ClientLinkLanguage = (typeof CLIENT_LINK_LANGUAGES)[number];

/** The consent statement's version: a ticked consent is audited with it. */
export const CONSENT_VERSION = '2026-1';

const en = {
  codeSent: 'We sent a 6-digit code to {email}.',
  pinPrompt: 'Enter your client PIN.',
  codeLabel: '6-digit code',
  pinLabel: 'Client PIN',
  continue: 'Continue',
  resendCode: 'Send a new code',
  wrongAnswer: 'That did not match. Check and try again.',
  locked: 'Too many wrong tries. Try again in 30 minutes.',
  expired: 'This link has expired. Ask your volunteer for a new one.',
  consent:
    'I agree that the volunteers of this tax programme will see the documents I add here, to prepare my tax return. They are deleted at the end of the tax season.',
  consentAgree: 'I agree',
  greeting: 'Hi {firstName}, please add these documents',
  uploadFiles: 'Upload files',
  takePhoto: 'Take Photo',
  scanPages: 'Scan pages',
  dontHave: "I don't have this",
  dontHaveNote: 'Note (optional)',
  dontHaveSave: 'Save',
  dontHaveMarked: "You said you don't have this.",
  undoDontHave: 'Undo',
  remove: 'Remove',
  done: "I'm done",
  thanks: 'Thank you. Your volunteer has been told.',
  language: 'Español',
  working: 'Working…',
  loading: 'Loading…',
  uploading: 'Uploading…',
  uploadFailed: 'This file could not be added.',
  retry: 'Try again',
  added: 'Added',
  scanTitle: 'Scan pages',
  scanAddPage: 'Add page',
  scanHint: 'Take a photo of each page, in order. You can also drop photos here.',
  cancel: 'Cancel',
  scanDoneOne: 'Done (1 page)',
  scanDoneMany: 'Done ({count} pages)',
  scanMaking: 'Making the PDF…',
  scanPagesLabel: 'Pages',
  scanPage: 'Page {number}',
  retake: 'Retake',
  keepAnyway: 'Keep anyway',
  rotateLeft: 'Rotate left',
  rotateRight: 'Rotate right',
  moveUp: 'Move up',
  moveDown: 'Move down',
  scanRefused:
    'These files cannot be scan pages: {names}. Add photos (JPEG, PNG, WebP or BMP), or use Upload files.',
  scanTooMany: 'A scan can have at most 30 pages.',
  scanDiscardOne: 'Discard the scanned page?',
  scanDiscardMany: 'Discard the {count} scanned pages?',
  scanFailed: 'The scan could not be made into a PDF: {reason}',
  photoTooDark: 'This photo looks too dark.',
  photoWashedOut: 'This photo looks washed out.',
  photoBlurry: 'This photo looks blurry.',
  pageBlank: 'This page looks blank.',
  photoTooSmall: 'This photo is too small to read.',
  preview: 'Preview of {name}',
  mailSubject: 'Please add your tax documents',
  mailBody:
    'Hi {firstName},\n\nYour tax volunteer asks you to add some documents. Open this link (it works for {days} days):\n\n{url}\n',
  mailMessage: 'Message from your volunteer:\n{message}\n',
  codeSubject: 'Your code for your tax documents',
  codeBody: 'Your code is {code}. It works for 10 minutes.',
  reminderSubject: 'Reminder: please add your tax documents',
  reminderBody:
    "Hi {firstName},\n\nYour tax volunteer is still waiting for some documents. Open the link from the first mail, or ask your volunteer for a new one. When you have added everything, press “I'm done”.\n",
} as const;

export type ClientLinkTextKey = keyof typeof en;
export type ClientLinkTexts = Readonly<Record<ClientLinkTextKey, string>>;

const es = {
  codeSent: 'Enviamos un código de 6 dígitos a {email}.',
  pinPrompt: 'Escriba su PIN de cliente.',
  codeLabel: 'Código de 6 dígitos',
  pinLabel: 'PIN de cliente',
  continue: 'Continuar',
  resendCode: 'Enviar un código nuevo',
  wrongAnswer: 'No coincide. Revise e intente de nuevo.',
  locked: 'Demasiados intentos fallidos. Intente de nuevo en 30 minutos.',
  expired: 'Este enlace ha vencido. Pida uno nuevo a su voluntario.',
  consent:
    'Acepto que los voluntarios de este programa de impuestos vean los documentos que agrego aquí, para preparar mi declaración. Se borran al final de la temporada de impuestos.',
  consentAgree: 'Acepto',
  greeting: 'Hola {firstName}, por favor agregue estos documentos',
  uploadFiles: 'Subir archivos',
  takePhoto: 'Tomar foto',
  scanPages: 'Escanear páginas',
  dontHave: 'No tengo esto',
  dontHaveNote: 'Nota (opcional)',
  dontHaveSave: 'Guardar',
  dontHaveMarked: 'Usted dijo que no tiene esto.',
  undoDontHave: 'Deshacer',
  remove: 'Quitar',
  done: 'Terminé',
  thanks: 'Gracias. Ya le avisamos a su voluntario.',
  language: 'English',
  working: 'Un momento…',
  loading: 'Cargando…',
  uploading: 'Subiendo…',
  uploadFailed: 'No se pudo agregar este archivo.',
  retry: 'Intentar de nuevo',
  added: 'Agregado',
  scanTitle: 'Escanear páginas',
  scanAddPage: 'Agregar página',
  scanHint: 'Tome una foto de cada página, en orden. También puede soltar fotos aquí.',
  cancel: 'Cancelar',
  scanDoneOne: 'Listo (1 página)',
  scanDoneMany: 'Listo ({count} páginas)',
  scanMaking: 'Creando el PDF…',
  scanPagesLabel: 'Páginas',
  scanPage: 'Página {number}',
  retake: 'Tomar de nuevo',
  keepAnyway: 'Usarla así',
  rotateLeft: 'Girar a la izquierda',
  rotateRight: 'Girar a la derecha',
  moveUp: 'Subir',
  moveDown: 'Bajar',
  scanRefused:
    'Estos archivos no pueden ser páginas: {names}. Agregue fotos (JPEG, PNG, WebP o BMP) o use Subir archivos.',
  scanTooMany: 'Un escaneo puede tener como máximo 30 páginas.',
  scanDiscardOne: '¿Descartar la página escaneada?',
  scanDiscardMany: '¿Descartar las {count} páginas escaneadas?',
  scanFailed: 'No se pudo crear el PDF del escaneo: {reason}',
  photoTooDark: 'Esta foto se ve muy oscura.',
  photoWashedOut: 'Esta foto se ve descolorida.',
  photoBlurry: 'Esta foto se ve borrosa.',
  pageBlank: 'Esta página parece estar en blanco.',
  photoTooSmall: 'Esta foto es muy pequeña para leerla.',
  preview: 'Vista previa de {name}',
  mailSubject: 'Por favor agregue sus documentos de impuestos',
  mailBody:
    'Hola {firstName}:\n\nSu voluntario de impuestos le pide que agregue algunos documentos. Abra este enlace (funciona por {days} días):\n\n{url}\n',
  mailMessage: 'Mensaje de su voluntario:\n{message}\n',
  codeSubject: 'Su código para sus documentos de impuestos',
  codeBody: 'Su código es {code}. Funciona por 10 minutos.',
  reminderSubject: 'Recordatorio: por favor agregue sus documentos de impuestos',
  reminderBody:
    'Hola {firstName}:\n\nSu voluntario de impuestos todavía espera algunos documentos. Abra el enlace del primer correo o pida uno nuevo a su voluntario. Cuando haya agregado todo, presione “Terminé”.\n',
} as const satisfies ClientLinkTexts;

/** The texts of each language, by language. */
export const CLIENT_LINK_TEXTS: Readonly<Record<ClientLinkLanguage, ClientLinkTexts>> = { en, es };

/** One text in a language, with its `{name}` places filled. */
export function clientLinkText(
  language: ClientLinkLanguage,
  key: ClientLinkTextKey,
  values: Readonly<Record<string, string | number>> = {},
): string {
  return CLIENT_LINK_TEXTS[language][key].replace(/\{(\w+)\}/g, (all, name: string) =>
    name in values ? String(values[name]) : all,
  );
}

const WARNING_KEYS = {
  tooDark: 'photoTooDark',
  washedOut: 'photoWashedOut',
  blurry: 'photoBlurry',
  blank: 'pageBlank',
  tooSmall: 'photoTooSmall',
} as const satisfies Record<QualityWarning, ClientLinkTextKey>;

/** A photo's quality warning in the client's language (the staff's `qualityWarningMessage`). */
export function clientQualityWarning(language: ClientLinkLanguage, warning: QualityWarning): string {
  return CLIENT_LINK_TEXTS[language][WARNING_KEYS[warning]];
}

/** The Scan pages dialog's words in the client's language (the staff's are `STAFF_SCAN_TEXTS`). */
export function clientScanTexts(language: ClientLinkLanguage): ScanTexts {
  const t = CLIENT_LINK_TEXTS[language];
  const fill = (key: ClientLinkTextKey, values: Readonly<Record<string, string | number>>) =>
    clientLinkText(language, key, values);
  return {
    refused: (names) => fill('scanRefused', { names: names.join(', ') }),
    tooManyPages: t.scanTooMany,
    discard: (count) => (count === 1 ? t.scanDiscardOne : fill('scanDiscardMany', { count })),
    failed: (reason) => fill('scanFailed', { reason }),
    title: t.scanTitle,
    addPage: t.scanAddPage,
    hint: t.scanHint,
    cancel: t.cancel,
    done: (count) => (count === 1 ? t.scanDoneOne : fill('scanDoneMany', { count })),
    making: t.scanMaking,
    pagesLabel: t.scanPagesLabel,
    page: (number) => fill('scanPage', { number }),
    retake: t.retake,
    rotateLeft: t.rotateLeft,
    rotateRight: t.rotateRight,
    moveUp: t.moveUp,
    moveDown: t.moveDown,
    remove: t.remove,
    warning: (warning) => clientQualityWarning(language, warning),
  };
}

/** `jane@example.org` → `j•••@example.org`: enough for the client to recognise it, little for anyone else. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}
