import { z } from 'zod/mini';
import { MAX_PIN_LENGTH, MIN_PIN_LENGTH } from '../domain/constants.js';
import { isCommonPin } from '../domain/common-pins.js';
import { isClientId } from '../domain/client-id.js';

// C0, DEL and C1 controls (U+0085 breaks lines for some readers), the line and paragraph separators
// (U+2028, U+2029: new lines in a mail) and invisible characters that hide what a text says (U+200B,
// U+2060, U+FEFF). The joiners U+200C and U+200D stay: names and emoji are written with them.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200b\u2060\ufeff]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Bidirectional overrides, embeddings, isolates and marks: they make text display in another order
 * than it is stored (`fdp.cmd` shown as `dmc.pdf`). File names lose them (see `safeFileName`); other
 * fields refuse them.
 */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

/** True for text shown to people as typed: no bidirectional controls. */
export function hasNoBidiControls(value: string): boolean {
  return !BIDI.test(value);
}

/** True for text a database, a file system and a person can all take: no control characters, well-formed Unicode. */
function isCleanText(value: string): boolean {
  return !CONTROL.test(value) && !LONE_SURROGATE.test(value);
}

/** Any string, bounded, refusing control characters and broken Unicode with `label` in the message. */
export function cleanString(label: string, max: number) {
  return z
    .string({ error: `${label} is required.` })
    .check(
      z.maxLength(max, { error: `${label} is too long (at most ${max} characters).` }),
      z.refine(isCleanText, { error: `${label} contains characters that are not allowed.` }),
    );
}

/** A required, trimmed line of text with a person-readable message for each failure. */
export function requiredText(label: string, max = 100) {
  return z.string({ error: `${label} is required.` }).check(
    z.trim(),
    z.minLength(1, { error: `${label} is required.` }),
    z.maxLength(max, { error: `${label} must be at most ${max} characters.` }),
    z.refine((value) => isCleanText(value) && hasNoBidiControls(value), {
      error: `${label} contains characters that are not allowed.`,
    }),
  );
}

/** A trimmed line of text that may be left blank, refusing what {@link requiredText} refuses. */
export function optionalText(label: string, max = 100) {
  return z.string({ error: `${label} must be text.` }).check(
    z.trim(),
    z.maxLength(max, { error: `${label} must be at most ${max} characters.` }),
    z.refine((value) => isCleanText(value) && hasNoBidiControls(value), {
      error: `${label} contains characters that are not allowed.`,
    }),
  );
}

/** An email address, trimmed and lower-cased so one person has one account. */
export const Email = z.pipe(
  z
    .string({ error: 'Email is required.' })
    .check(
      z.trim(),
      z.toLowerCase(),
      z.minLength(1, { error: 'Email is required.' }),
      z.maxLength(254, { error: 'Email must be at most 254 characters.' }),
      z.refine(hasNoBidiControls, { error: 'Enter a valid email address.' }),
    ),
  z.email({ error: 'Enter a valid email address.' }),
);

/** A Password PIN as chosen by a user. Length only: the hash does the rest. */
export const NewPin = z.string({ error: 'Password PIN is required.' }).check(
  z.minLength(MIN_PIN_LENGTH, { error: `Password PIN must be at least ${MIN_PIN_LENGTH} characters.` }),
  z.maxLength(MAX_PIN_LENGTH, { error: `Password PIN must be at most ${MAX_PIN_LENGTH} characters.` }),
  z.refine((pin) => !isCommonPin(pin), { error: 'Choose a less common PIN.' }),
);

/** A Password PIN as typed at login: any non-empty string of bounded length. */
export const Pin = z
  .string({ error: 'Password PIN is required.' })
  .check(
    z.minLength(1, { error: 'Password PIN is required.' }),
    z.maxLength(MAX_PIN_LENGTH, { error: 'Password PIN is incorrect.' }),
  );

/** A 6-digit code as typed; spaces are forgiven. */
export const Code = z.pipe(
  z.pipe(
    z.string({ error: 'Code is required.' }),
    z.transform((s: string) => s.replace(/\s+/g, '')),
  ),
  z.string().check(z.regex(/^\d{6}$/, { error: 'Enter the 6-digit code from the email.' })),
);

/** A phone number: digits with the usual punctuation, 7 to 15 digits. */
export const Phone = z.string({ error: 'Phone is required.' }).check(
  z.trim(),
  z.maxLength(30, { error: 'Phone must be at most 30 characters.' }),
  z.refine(
    (s) =>
      /^\+?[\d\s().-]+$/.test(s) && (s.match(/\d/g)?.length ?? 0) >= 7 && (s.match(/\d/g)?.length ?? 0) <= 15,
    { error: 'Enter a valid phone number (7 to 15 digits).' },
  ),
);

/** A random, URL-safe client id. */
export const ClientId = z
  .string({ error: 'Client id is required.' })
  .check(z.refine(isClientId, { error: 'Unknown client id.' }));

/** A category name as sent by clients (the server checks it exists). */
export const DocTypeName = z
  .string({ error: 'Document type is required.' })
  .check(
    z.minLength(1, { error: 'Document type is required.' }),
    z.maxLength(200, { error: 'Document type is too long.' }),
    z.refine(isCleanText, { error: 'Document type contains characters that are not allowed.' }),
  );

/** A storage key as sent by clients (the server parses and authorises it). */
export const DocKey = z
  .string({ error: 'File key is required.' })
  .check(
    z.minLength(1, { error: 'File key is required.' }),
    z.maxLength(1024, { error: 'File key is too long.' }),
    z.refine(isCleanText, { error: 'That file key is not valid.' }),
  );

export { Timestamp } from './session-contract.js';
