/** The five categories every client has. They cannot be deleted (docs/behaviour.md#categories). */
export const FIXED_CATEGORIES = [
  '13614-C',
  'Michigan/Locality Intake',
  'License/Other Identification',
  'Digital Consent Form',
  'Banking Info',
] as const;

/** The sixteen templates a volunteer may add as custom categories, in the order the picker shows them. */
export const CATEGORY_TEMPLATES = [
  'W-2',
  '1099-NEC',
  '1099-INT',
  '1099-DIV',
  '1099-B',
  '1095-A',
  '1095-B',
  '1095-C',
  '1098-T',
  'SSA-1099',
  'Schedule C Info',
  'Important Notes',
  '1040-NR Intake',
  'Identity Protection PIN',
  'Student Intake Form',
  'Other',
] as const;

export type FixedCategory = (typeof FIXED_CATEGORIES)[number];
export type CategoryTemplate = (typeof CATEGORY_TEMPLATES)[number];

/** Longest note accepted when adding a category; keeps names (and storage keys) a sane length. */
export const MAX_CATEGORY_NOTE_LENGTH = 80;

/** True for the five fixed categories. Every other category is custom and may be deleted. */
export function isFixedCategory(name: string): name is FixedCategory {
  return (FIXED_CATEGORIES as readonly string[]).includes(name);
}

/** True when `name` is one of the sixteen addable templates. */
export function isCategoryTemplate(name: string): name is CategoryTemplate {
  return (CATEGORY_TEMPLATES as readonly string[]).includes(name);
}

/**
 * The category name for a template and an optional note: the template alone, or `Template (note)`.
 * The note is trimmed and inner whitespace collapsed; an empty note counts as none.
 */
export function categoryName(template: CategoryTemplate, note?: string | null): string {
  const cleaned = (note ?? '').replace(/\s+/g, ' ').trim();
  return cleaned ? `${template} (${cleaned})` : template;
}
