/**
 * The expiry date of an ID, from its PDF417 barcode (a US driver's license or state ID, AAMVA) or
 * its machine-readable zone (a passport). Only the date leaves these functions: the name, number
 * and address the barcode also holds are dropped here, so nothing else read from an ID is kept.
 */
import { parse as parseAamva } from 'aamva-parser';
import { parse as parseMrz } from 'mrz';

/** `YYYY-MM-DD` of a date, in UTC (the parsers give midnight UTC). */
function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The expiry of an AAMVA barcode's text (`@\n\x1e\rANSI …`), or undefined if it holds none. */
export function aamvaExpiry(barcodeText: string): string | undefined {
  if (!/ANSI|AAMVA/.test(barcodeText)) return undefined;
  try {
    const date = parseAamva(barcodeText).expirationDate;
    return date && !Number.isNaN(date.getTime()) ? isoDate(date) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * MRZ lines in OCR text: 44-character passport lines of `A-Z0-9<`. OCR reads the filler `<` as `«`
 * or `‹` and strews a stray mark (`?`, `.`, `'`) among the fillers; those are not MRZ characters, so
 * they are dropped, and the check digits then tell whether what is left was read right.
 */
function mrzLines(text: string): string[] | undefined {
  const lines = text
    .split(/\r?\n/)
    .map((l) =>
      l
        .toUpperCase()
        .replace(/[«‹]/g, '<')
        .replace(/[^A-Z0-9<]/g, ''),
    )
    .filter((l) => /^[A-Z0-9<]{40,46}$/.test(l) && l.includes('<<'));
  for (let i = 0; i + 1 < lines.length; i += 1) {
    const first = lines[i] ?? '';
    const second = lines[i + 1] ?? '';
    if (first.startsWith('P') && first.length >= 42 && second.length >= 42)
      return [first.slice(0, 44).padEnd(44, '<'), second.slice(0, 44).padEnd(44, '<')];
  }
  return undefined;
}

/**
 * The expiry in a passport's machine-readable zone found in OCR text, or undefined. Only a zone
 * whose expiry check digit holds counts: OCR misreads `<` and digits, and a misread date must not
 * say an ID expired.
 */
export function mrzExpiry(text: string): string | undefined {
  const lines = mrzLines(text);
  if (!lines) return undefined;
  try {
    const result = parseMrz(lines, { autocorrect: true });
    const field = result.details.find((d) => d.field === 'expirationDate');
    const check = result.details.find((d) => d.field === 'expirationDateCheckDigit');
    const yymmdd = result.fields.expirationDate;
    if (!field?.valid || !check?.valid || !yymmdd || !/^\d{6}$/.test(yymmdd)) return undefined;
    // Passports last ten years at most: a two-digit year is this century.
    return `20${yymmdd.slice(0, 2)}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
  } catch {
    return undefined;
  }
}
