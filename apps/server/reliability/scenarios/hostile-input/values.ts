/**
 * The values a hostile request carries: what goes into a field, a parameter, a query or a header,
 * and how each becomes bytes (JSON, a URL piece, a header value).
 */
import { createHash } from 'node:crypto';

/** A string too long to keep in a generated sample: `unit` repeated, built when sent. */
export class Huge {
  constructor(
    readonly unit: string,
    readonly times: number,
  ) {}
}
/**
 * `length` characters of text that does not compress (a repeated one would shrink to nothing in the
 * database and hide a value too long to index), the same for the same `seed`.
 */
export class Noise {
  constructor(
    readonly length: number,
    readonly seed: number,
  ) {}

  text(): string {
    const chunks: string[] = [];
    for (let i = 0, size = 0; size < this.length; i += 1) {
      const chunk = createHash('sha256').update(`${this.seed}:${i}`).digest('base64url');
      chunks.push(chunk);
      size += chunk.length;
    }
    return chunks.join('').slice(0, this.length);
  }
}
/** JSON nested `depth` levels deep. */
export class Deep {
  constructor(
    readonly depth: number,
    readonly shape: 'array' | 'object',
  ) {}
}
/** JSON text inserted as is (prototype keys and duplicate keys, which objects cannot carry). */
export class RawJson {
  constructor(readonly text: string) {}
}
/** An object as a list of entries, so `__proto__` and friends are sent as plain keys. */
export class Entries {
  constructor(readonly entries: ReadonlyArray<readonly [string, Val]>) {}
}
/** Raw bytes (invalid UTF-8 among them): inside a JSON string, or unencoded in a URL or header. */
export class Bytes {
  constructor(readonly bytes: readonly number[]) {}
}

export type Val =
  | string
  | number
  | boolean
  | null
  | Huge
  | Noise
  | Deep
  | RawJson
  | Entries
  | Bytes
  | Val[]
  | { [key: string]: Val };

/** What a call of the contract carries before it is made hostile. */
export interface Parts {
  params: Record<string, Val>;
  query: Array<readonly [string, Val]>;
  body: Record<string, Val> | undefined;
}

const isPlainObject = (value: Val): value is { [key: string]: Val } =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.getPrototypeOf(value) === Object.prototype;

/** JSON for `value`, as bytes (raw bytes stay raw, everything else is UTF-8). */
export function toJson(value: Val, out: Buffer[] = []): Buffer[] {
  const text = (s: string) => out.push(Buffer.from(s, 'utf8'));
  if (value instanceof Huge) text(JSON.stringify(value.unit.repeat(value.times)));
  else if (value instanceof Noise) text(JSON.stringify(value.text()));
  else if (value instanceof Deep) {
    text(
      value.shape === 'array'
        ? '['.repeat(value.depth) + ']'.repeat(value.depth)
        : '{"a":'.repeat(value.depth) + '1' + '}'.repeat(value.depth),
    );
  } else if (value instanceof RawJson) text(value.text);
  else if (value instanceof Bytes) {
    text('"');
    out.push(Buffer.from(value.bytes));
    text('"');
  } else if (value instanceof Entries) {
    text('{');
    value.entries.forEach(([key, item], i) => {
      text(`${i > 0 ? ',' : ''}${JSON.stringify(key)}:`);
      toJson(item, out);
    });
    text('}');
  } else if (Array.isArray(value)) {
    text('[');
    value.forEach((item, i) => {
      if (i > 0) text(',');
      toJson(item, out);
    });
    text(']');
  } else if (isPlainObject(value)) toJson(new Entries(Object.entries(value)), out);
  else text(JSON.stringify(value) ?? 'null');
  return out;
}

/** UTF-8 bytes of a string, lone surrogates included (encoded as their own three bytes, as a careless client would). */
function looseUtf8(s: string): Buffer {
  const bytes: number[] = [];
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 0x80) bytes.push(cp);
    else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else bytes.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return Buffer.from(bytes);
}

/** The bytes a value stands for in a URL or header. */
export function valueBytes(value: Val): Buffer {
  if (typeof value === 'string') return looseUtf8(value);
  if (value instanceof Huge) return looseUtf8(value.unit.repeat(value.times));
  if (value instanceof Noise) return Buffer.from(value.text());
  if (value instanceof Bytes) return Buffer.from(value.bytes);
  return Buffer.concat(toJson(value));
}

const UNRESERVED = /[A-Za-z0-9\-_.~]/;
/** Percent-encodes every byte but the unreserved ones. */
const percent = (bytes: Buffer) =>
  [...bytes]
    .map((b) =>
      UNRESERVED.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
/** A value for a URL: percent-encoded, or (`raw`) its bytes as they are. */
export const urlPiece = (value: Val, raw: boolean) =>
  raw ? valueBytes(value).toString('latin1') : percent(valueBytes(value));
