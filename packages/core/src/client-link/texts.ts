/**
 * Every text the client sees through a document-request link, and the mails they get, in each language
 * the volunteer may pick (docs/behaviour.md#requesting-documents-from-a-client). One typed table per
 * language: `satisfies` makes a missing or extra key a type error, and texts.test.ts checks it at run time.
 * The staff screens stay English as the spec writes them (packages/ui texts).
 */
import type { ClientLinkLanguage } from './languages.js';

const en = {
  codeSent: 'We sent a 6-digit code to {email}.',
  pinPrompt: 'Enter your client PIN.',
  codeLabel: '6-digit code',
  pinLabel: 'Client PIN',
  continue: 'Continue',
  resendCode: 'Send a new code',
  wrongAnswer: 'That did not match. Check and try again.',
  locked: 'Too many wrong tries. Try again in 30 minutes.',
  tooFast: 'Too many changes in a short time. Wait a minute and try again.',
  tooManyToday: 'Too many changes through this link today. Try again tomorrow.',
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
  tooFast: 'Demasiados cambios en poco tiempo. Espere un minuto e intente de nuevo.',
  tooManyToday: 'Demasiados cambios con este enlace hoy. Intente de nuevo mañana.',
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

/** `jane@example.org` → `j•••@example.org`: enough for the client to recognise it, little for anyone else. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}

/**
 * The consent statement a client reads in `language`: the admin's text from settings, or the default
 * (`consent` above) while that is empty.
 */
export function consentStatement(saved: string, language: ClientLinkLanguage): string {
  return saved.trim() || CLIENT_LINK_TEXTS[language].consent;
}
