/**
 * What a row says about a document the device read (docs/behaviour.md#reading-documents), in
 * English for the staff screens and each language of the client page.
 */
import type { ReadingVerdict } from './verdict.js';

const MONTHS_EN = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTHS_ES = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];

/** The texts of one language. */
export interface ReadingTexts {
  otherForm: (form: string, category: string) => string;
  move: (form: string) => string;
  keep: string;
  otherYear: (year: number) => string;
  expired: (isoDate: string) => string;
}

function parts(isoDate: string): { y: string; m: number; d: number } {
  return { y: isoDate.slice(0, 4), m: Number(isoDate.slice(5, 7)) - 1, d: Number(isoDate.slice(8, 10)) };
}

export const READING_TEXTS: Readonly<Record<'en' | 'es', ReadingTexts>> = {
  en: {
    otherForm: (form, category) => `This looks like a ${form}, not a ${category}.`,
    move: (form) => `Move to ${form}`,
    keep: 'Keep here',
    otherYear: (year) => `This form is for ${year}.`,
    expired: (iso) => {
      const { y, m, d } = parts(iso);
      return `This ID expired on ${MONTHS_EN[m]} ${d}, ${y}.`;
    },
  },
  es: {
    otherForm: (form, category) => `Parece un ${form}, no un ${category}.`,
    move: (form) => `Mover a ${form}`,
    keep: 'Dejar aquí',
    otherYear: (year) => `Este formulario es de ${year}.`,
    expired: (iso) => {
      const { y, m, d } = parts(iso);
      return `Esta identificación venció el ${d} de ${MONTHS_ES[m]} de ${y}.`;
    },
  },
};

/** The sentence a row shows for `verdict` of a document in `category`. */
export function verdictText(texts: ReadingTexts, verdict: ReadingVerdict, category: string): string {
  switch (verdict.kind) {
    case 'other-form':
      return texts.otherForm(verdict.form, category);
    case 'other-year':
      return texts.otherYear(verdict.year);
    case 'expired':
      return texts.expired(verdict.date);
  }
}
