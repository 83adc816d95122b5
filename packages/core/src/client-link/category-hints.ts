/**
 * What to bring for each category the client is asked for (docs/behaviour.md#requesting-documents-from-a-client):
 * one plain sentence per fixed category and template, in each language of the client page. A category
 * added with a note (`W-2 (Acme Inc.)`) shows its template's sentence and the note as the volunteer wrote it.
 */
import type { CategoryTemplate, FixedCategory } from '../domain/categories.js';
import type { ClientLinkLanguage } from './languages.js';

type Hints = Readonly<Record<FixedCategory | CategoryTemplate, string>>;

const en = {
  '13614-C': 'The intake form (Form 13614-C) your volunteer gave you, filled in and signed, every page.',
  'Michigan/Locality Intake':
    'The Michigan or city tax questions form your volunteer gave you, filled in, every page.',
  'License/Other Identification':
    "A photo ID for you (and your spouse): driver's license, state ID or passport. Also the Social Security card or ITIN letter of everyone on the return.",
  'Digital Consent Form': 'The consent form your volunteer asked you to sign, every page.',
  'Banking Info':
    'A check or a letter from your bank with the routing and account numbers, for a direct deposit of your refund.',
  'W-2': 'Each W-2 from an employer: the form that shows your wages and the tax taken out.',
  '1099-NEC': 'Each 1099-NEC: the form from someone who paid you for work as a contractor.',
  '1099-INT': 'Each 1099-INT: the form from your bank that shows the interest you earned.',
  '1099-DIV': 'Each 1099-DIV: the form that shows dividends from stocks or funds.',
  '1099-B': 'Each 1099-B: the form from your broker that shows stocks or other investments you sold.',
  '1095-A': 'The 1095-A from the Health Insurance Marketplace, if you bought health insurance there.',
  '1095-B': 'The 1095-B from your health insurer that shows who had health coverage.',
  '1095-C': 'The 1095-C from your employer about the health insurance it offered you.',
  '1098-T':
    'The 1098-T from your college that shows the tuition paid, and receipts for books if you have them.',
  'SSA-1099': 'The SSA-1099 from Social Security that shows the benefits you received.',
  'Schedule C Info': 'For your own business: what it earned and what it spent, a summary or the receipts.',
  'Important Notes': 'Any letter from the IRS or the state, or anything else your volunteer should know.',
  '1040-NR Intake': 'The intake form for nonresidents your volunteer gave you, filled in, every page.',
  'Identity Protection PIN':
    'The letter from the IRS (CP01A) or the page from the IRS website with your Identity Protection PIN.',
  'Student Intake Form': 'The student intake form your volunteer gave you, filled in, every page.',
  Other: 'The document your volunteer asked for.',
} as const satisfies Hints;

const es = {
  '13614-C':
    'El formulario de admisión (Formulario 13614-C) que le dio su voluntario, completo y firmado, todas las páginas.',
  'Michigan/Locality Intake':
    'El formulario de preguntas de impuestos de Michigan o de la ciudad que le dio su voluntario, completo, todas las páginas.',
  'License/Other Identification':
    'Una identificación con foto para usted (y su cónyuge): licencia de manejo, identificación estatal o pasaporte. También la tarjeta del Seguro Social o la carta del ITIN de cada persona en la declaración.',
  'Digital Consent Form':
    'El formulario de consentimiento que su voluntario le pidió firmar, todas las páginas.',
  'Banking Info':
    'Un cheque o una carta de su banco con los números de ruta y de cuenta, para el depósito directo de su reembolso.',
  'W-2': 'Cada W-2 de un empleador: el formulario que muestra su salario y los impuestos retenidos.',
  '1099-NEC': 'Cada 1099-NEC: el formulario de quien le pagó por trabajo como contratista.',
  '1099-INT': 'Cada 1099-INT: el formulario de su banco que muestra los intereses que ganó.',
  '1099-DIV': 'Cada 1099-DIV: el formulario que muestra los dividendos de acciones o fondos.',
  '1099-B':
    'Cada 1099-B: el formulario de su corredor que muestra las acciones u otras inversiones que vendió.',
  '1095-A': 'El 1095-A del Mercado de Seguros Médicos, si compró su seguro médico allí.',
  '1095-B': 'El 1095-B de su aseguradora que muestra quién tuvo cobertura médica.',
  '1095-C': 'El 1095-C de su empleador sobre el seguro médico que le ofreció.',
  '1098-T':
    'El 1098-T de su universidad que muestra la matrícula pagada, y los recibos de libros si los tiene.',
  'SSA-1099': 'El SSA-1099 del Seguro Social que muestra los beneficios que recibió.',
  'Schedule C Info': 'Para su propio negocio: lo que ganó y lo que gastó, un resumen o los recibos.',
  'Important Notes':
    'Cualquier carta del IRS o del estado, o cualquier otra cosa que su voluntario deba saber.',
  '1040-NR Intake':
    'El formulario de admisión para no residentes que le dio su voluntario, completo, todas las páginas.',
  'Identity Protection PIN':
    'La carta del IRS (CP01A) o la página del sitio web del IRS con su PIN de Protección de Identidad.',
  'Student Intake Form':
    'El formulario de admisión para estudiantes que le dio su voluntario, completo, todas las páginas.',
  Other: 'El documento que le pidió su voluntario.',
} as const satisfies Hints;

/** The sentences of each language, by category. */
export const CATEGORY_HINTS: Readonly<Record<ClientLinkLanguage, Hints>> = { en, es };

/**
 * What to bring for `docType` in `language`: the sentence of its fixed category or template, and for a
 * category added with a note (`W-2 (Acme Inc.)`) that note as written; null for a name that is neither.
 */
export function categoryHint(
  language: ClientLinkLanguage,
  docType: string,
): { hint: string | null; note: string | null } {
  const hints: Readonly<Record<string, string>> = CATEGORY_HINTS[language];
  const exact = hints[docType];
  if (exact) return { hint: exact, note: null };
  const noted = /^(.+?) \((.+)\)$/.exec(docType);
  const template = noted?.[1];
  if (template && hints[template]) return { hint: hints[template], note: noted[2] ?? null };
  return { hint: null, note: null };
}
