/**
 * The tax year a form is for, from its text. Forms print their year beside the title or number
 * (`2025 Form W-2`, `Form 1099-INT … For calendar year 2025`); they also print revision dates
 * (`Rev. January 2024`), catalogue numbers and dates of birth, which are not the tax year. Only the
 * places a tax year is printed count, and two different years there mean unsure: no answer.
 */
import { normaliseText } from './normalise.js';

const YEAR = '(20[0-9]{2})';
const PLACES: readonly RegExp[] = [
  new RegExp(`(?:calendar|tax)\\s*year\\s*${YEAR}\\b`, 'g'),
  new RegExp(`\\b${YEAR}\\s*(?:form\\s*)?(?:w-?2|[1l]099|[1l]098|[1l]095|ssa-?[1l]099|13614|schedule)`, 'g'),
  new RegExp(
    `(?:form\\s*)?(?:w-?2|[1l]099-?[a-z]{1,3}|[1l]098-?t|[1l]095-?[abc]|ssa-?[1l]099)\\s*\\(?${YEAR}\\b(?!\\s*\\))`,
    'g',
  ),
  new RegExp(`statement\\s*(?:for\\s*)?${YEAR}\\b`, 'g'),
  new RegExp(`benefits\\s*(?:paid\\s*)?(?:in|for)\\s*${YEAR}\\b`, 'g'),
];

/** How many lines from the top a year printed on a line of its own counts as the form's (its title block). */
const TITLE_LINES = 8;

/** The tax year printed on the form, or undefined when none is found or the places disagree. */
export function taxYearOf(text: string): number | undefined {
  const page = normaliseText(text).replace(/rev\.?\s*(?:[a-z]+\s*)?20[0-9]{2}/g, ' ');
  const years = new Set<number>();
  // Forms print the tax year large, beginning a line of the title block (a date would go on: `/`, `-`).
  for (const line of text
    .split(/\r?\n/)
    .filter((l) => l.trim())
    .slice(0, TITLE_LINES)) {
    const m = /^\s*(20[0-9]{2})\b(?!\s*[-/.,])/.exec(line);
    if (m) years.add(Number(m[1]));
  }
  for (const place of PLACES) for (const m of page.matchAll(place)) years.add(Number(m[1]));
  return years.size === 1 ? [...years][0] : undefined;
}
