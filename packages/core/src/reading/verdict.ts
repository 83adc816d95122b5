/**
 * What a reading means for the category a document is in: another form (move it?), another tax
 * year, an expired ID, or nothing. Only one thing is said per document, the most useful first.
 */
import type { FIXED_CATEGORIES } from '../domain/categories.js';
import type { ReadableForm } from './forms.js';
import type { DocumentReading } from './reader.js';

/** The template a category was made from (`W-2 (Acme)` → `W-2`), or the fixed category itself. */
export function categoryForm(category: string): string {
  return category.replace(/\s*\(.*\)$/, '');
}

/**
 * The tax year a season's returns are for: the season runs in the calendar year after it (returns
 * filed in 2026 are for 2025).
 */
export function seasonTaxYear(now: Date): number {
  return now.getUTCFullYear() - 1;
}

/** What the row says about a document it read. */
export type ReadingVerdict =
  | { kind: 'other-form'; form: ReadableForm }
  | { kind: 'other-year'; year: number }
  | { kind: 'expired'; date: string };

/** Categories with no form of their own: whatever is filed there is where the volunteer meant it. */
const ANY_FORM = new Set(['Other', 'Important Notes']);
const ID_CATEGORY: (typeof FIXED_CATEGORIES)[number] = 'License/Other Identification';

/** The verdict on `reading` of a document in `category`, or undefined when there is nothing to say. */
export function readingVerdict(
  reading: DocumentReading,
  category: string,
  now: Date,
): ReadingVerdict | undefined {
  const filedAs = categoryForm(category);
  if (filedAs === ID_CATEGORY && reading.idExpiry && reading.idExpiry < now.toISOString().slice(0, 10))
    return { kind: 'expired', date: reading.idExpiry };
  if (reading.form && reading.form !== filedAs && !ANY_FORM.has(filedAs))
    return { kind: 'other-form', form: reading.form };
  if (reading.form === filedAs && reading.year !== undefined && reading.year !== seasonTaxYear(now))
    return { kind: 'other-year', year: reading.year };
  return undefined;
}
