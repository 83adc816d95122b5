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
  whoAsked: '{volunteer} from {programme} asked for your tax documents.',
  alreadySent: 'You already sent your documents. Thank you.',
  stillMissing: 'Some documents are still missing. Send what you added anyway?',
  sendAnyway: 'Send anyway',
  goBack: 'Go back',
  signName: 'Type your full name to sign',
  recordTitle: 'Consent to share tax documents',
  recordProgramme: 'Programme: {programme}',
  recordVolunteer: 'Requested by: {volunteer}',
  recordSignedBy: 'Signed by typing the name: {name}',
  recordSignedAt: 'Date and time: {when}',
  recordAddress: 'Address it came from: {address}',
  recordBrowser: 'Browser: {browser}',
  recordLink: 'Through the request link: {link}',
  recordStatement: 'The statement, as shown:',
  somethingElse: 'Something else',
  somethingElseHint: 'Any other document you want your volunteer to have.',
  mailSubject: '{programme}: Please add your tax documents',
  mailBody:
    'Hi {firstName},\n\n{volunteer} from {programme} asks you to add some documents for your tax return. Open this link (it works for {days} days):\n\n{url}\n',
  mailMessage: 'Message from {volunteer}:\n{message}\n',
  codeSubject: '{programme}: Your code for your tax documents',
  codeBody:
    'Your code is {code}. It works for 10 minutes.\n\n{volunteer} from {programme} asked for your tax documents.\n',
  reminderSubject: '{programme}: Reminder: please add your tax documents',
  reminderBody:
    "Hi {firstName},\n\n{volunteer} from {programme} is still waiting for some documents. Open the link from the first mail, or ask {volunteer} for a new one. When you have added everything, press “I'm done”.\n",
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
  whoAsked: '{volunteer}, de {programme}, le pidió sus documentos de impuestos.',
  alreadySent: 'Ya envió sus documentos. Gracias.',
  stillMissing: 'Todavía faltan algunos documentos. ¿Enviar lo que agregó de todos modos?',
  sendAnyway: 'Enviar de todos modos',
  goBack: 'Volver',
  signName: 'Escriba su nombre completo para firmar',
  recordTitle: 'Consentimiento para compartir documentos de impuestos',
  recordProgramme: 'Programa: {programme}',
  recordVolunteer: 'Pedido por: {volunteer}',
  recordSignedBy: 'Firmado escribiendo el nombre: {name}',
  recordSignedAt: 'Fecha y hora: {when}',
  recordAddress: 'Dirección de origen: {address}',
  recordBrowser: 'Navegador: {browser}',
  recordLink: 'Por el enlace de solicitud: {link}',
  recordStatement: 'La declaración, como se mostró:',
  somethingElse: 'Otro documento',
  somethingElseHint: 'Cualquier otro documento que quiera darle a su voluntario.',
  mailSubject: '{programme}: Por favor agregue sus documentos de impuestos',
  mailBody:
    'Hola {firstName}:\n\n{volunteer}, de {programme}, le pide que agregue algunos documentos para su declaración de impuestos. Abra este enlace (funciona por {days} días):\n\n{url}\n',
  mailMessage: 'Mensaje de {volunteer}:\n{message}\n',
  codeSubject: '{programme}: Su código para sus documentos de impuestos',
  codeBody:
    'Su código es {code}. Funciona por 10 minutos.\n\n{volunteer}, de {programme}, le pidió sus documentos de impuestos.\n',
  reminderSubject: '{programme}: Recordatorio: por favor agregue sus documentos de impuestos',
  reminderBody:
    'Hola {firstName}:\n\n{volunteer}, de {programme}, todavía espera algunos documentos. Abra el enlace del primer correo o pida uno nuevo a {volunteer}. Cuando haya agregado todo, presione “Terminé”.\n',
} as const satisfies ClientLinkTexts;

/**
 * The mail to the client's volunteer when the client presses `I'm done`: staff mail, English as the
 * staff screens; the client's first name and last initial only (`{client}`), no other personal data.
 */
export const VOLUNTEER_DONE_MAIL = {
  subject: '{programme}: {client} sent documents',
  text: "{client} sent documents.\n\nOpen the client's documents page in {programme} to see them.\n",
} as const;

/** The programme's name until an admin sets one in Settings. */
export const PROGRAMME_NAME_DEFAULT = 'VITA Documents';

/** The texts of each language, by language. */
export const CLIENT_LINK_TEXTS: Readonly<Record<ClientLinkLanguage, ClientLinkTexts>> = { en, es };

/** One text in a language, with its `{name}` places filled. */
export function clientLinkText(
  language: ClientLinkLanguage,
  key: ClientLinkTextKey,
  values: Readonly<Record<string, string | number>> = {},
): string {
  return fillPlaces(CLIENT_LINK_TEXTS[language][key], values);
}

/** A text with its `{name}` places filled (a place without a value stays as written). */
export function fillPlaces(text: string, values: Readonly<Record<string, string | number>>): string {
  return text.replace(/\{(\w+)\}/g, (all, name: string) => (name in values ? String(values[name]) : all));
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
