const UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/**
 * A byte count for people: B, KB, MB, GB in steps of 1024.
 * Whole bytes are shown without decimals, larger units with one decimal (`1.5 MB`).
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '0 B';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** A size in MB with two decimals, as the upload queue shows it. */
export function formatMegabytes(bytes: number): string {
  return `${(Math.max(0, bytes) / (1024 * 1024)).toFixed(2)} MB`;
}

/** A multi-page scan's file name from the local time it was made: `Scan 2026-02-03 14-05.pdf`. */
export function scanFileName(at: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const day = `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}`;
  return `Scan ${day} ${two(at.getHours())}-${two(at.getMinutes())}.pdf`;
}

/**
 * A size limit for people: {@link formatBytes} without a trailing `.0`, so the 25 MB upload limit
 * (25 × 1024 × 1024 bytes) reads `25 MB`, and 1.5 MB stays `1.5 MB`.
 */
export function formatSizeLimit(bytes: number): string {
  return formatBytes(bytes).replace(/\.0(?= )/, '');
}

/** First and last name, as the screens show a person. */
export function fullName(person: { firstName: string; lastName: string }): string {
  return `${person.firstName} ${person.lastName}`.trim();
}

/**
 * Text as a search compares it: accents dropped, lower case, spaces collapsed (`Adá  LOVELACE` →
 * `ada lovelace`), so people find names however they type them.
 */
export function searchFold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Dates as every screen writes them, in one place: `Nov 29, 2026, 5:00 AM` for a moment (in the
 * person's own time zone), `Nov 29, 2026` for a date alone. Made on first use: the first page's
 * script does not pay for them.
 */
let formats: {
  dateTime: Intl.DateTimeFormat;
  date: Intl.DateTimeFormat;
  utcDate: Intl.DateTimeFormat;
} | null = null;

function dateFormats() {
  const day = { month: 'short', day: 'numeric', year: 'numeric' } as const;
  formats ??= {
    dateTime: new Intl.DateTimeFormat('en-US', { ...day, hour: 'numeric', minute: '2-digit' }),
    date: new Intl.DateTimeFormat('en-US', day),
    utcDate: new Intl.DateTimeFormat('en-US', { ...day, timeZone: 'UTC' }),
  };
  return formats;
}

// Newer ICU data puts a narrow no-break space before AM/PM: one plain space, whatever the browser's.
const plainSpaces = (text: string) => text.replace(/\s/gu, ' ');

/** `Nov 29, 2026, 5:00 AM`: a moment in the person's own time zone. */
export function formatDateTime(at: string | number | Date): string {
  return plainSpaces(dateFormats().dateTime.format(new Date(at)));
}

/**
 * `Nov 29, 2026`: a date alone; `utc` for a calendar day the server keeps as UTC midnight (a
 * submission day, a retention day), which every time zone must read as the same day.
 */
export function formatDate(at: string | number | Date, { utc = false }: { utc?: boolean } = {}): string {
  const { date, utcDate } = dateFormats();
  return plainSpaces((utc ? utcDate : date).format(new Date(at)));
}
