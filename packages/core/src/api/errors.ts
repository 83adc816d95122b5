/**
 * Why a call failed: `http` — the server answered with a non-OK status; `network` — no answer at
 * all; `response` — an OK answer that does not match the contract.
 */
export type ApiErrorKind = 'http' | 'network' | 'response';

/**
 * The machine-readable reason beside every error's text (`{ error, code }`): clients branch on it,
 * never on the words, which are for people and may change.
 */
export const ERROR_CODES = [
  /** The request is malformed or a field is not valid. */
  'invalid_request',
  /** No live session: sign in (again). */
  'not_signed_in',
  /** The session was ended because an admin changed this person's role: sign in again. */
  'role_changed',
  /** Signed in, but not allowed to do this. */
  'forbidden',
  /**
   * The passkey rule holds a PIN + code sign-in of an admin or officer: one without a passkey makes
   * one first (their session reaches nothing else); one with a passkey gets no session and signs in
   * with the passkey.
   */
  'passkey_required',
  /** The CSRF token is missing or stale: reload and try again. */
  'bad_token',
  'not_found',
  /** The thing changed or is taken meanwhile (a name, a season close under way). */
  'conflict',
  /** The request (or its body) took too long. */
  'timeout',
  'too_large',
  'unsupported_type',
  /** Too many tries: wait (`Retry-After`). */
  'rate_limited',
  /** A signed storage link is not valid (tampered with, or for something else). */
  'link_invalid',
  /** A signed storage link has expired: ask for a new one. */
  'link_expired',
  /** The bytes that arrived are not the ones announced. */
  'bad_digest',
  /** A stored file failed its integrity check. */
  'file_damaged',
  /** No room left to store the file. */
  'storage_full',
  /** A dependency (the database, the file store) is away for now: try again. */
  'unavailable',
  /** Something unexpected failed on the server. */
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The code an answer without one of its own means, from its status. */
export function errorCodeForStatus(status: number): ErrorCode {
  const byStatus: Record<number, ErrorCode> = {
    400: 'invalid_request',
    401: 'not_signed_in',
    403: 'forbidden',
    404: 'not_found',
    408: 'timeout',
    409: 'conflict',
    413: 'too_large',
    415: 'unsupported_type',
    429: 'rate_limited',
    503: 'unavailable',
    507: 'storage_full',
  };
  return byStatus[status] ?? (status >= 500 ? 'internal' : 'invalid_request');
}

/** True for a code this version knows. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/**
 * The error every API call raises: `message` is the server's `error` field, or else the
 * status text. Screens show `message` as it is.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  /** HTTP status; 0 when there was no answer. */
  readonly status: number;
  /**
   * Who answered: the API, or the file store a presigned URL points at (whose 403 is an expired or
   * mismatched signature, which a new URL fixes).
   */
  readonly origin: 'api' | 'storage';
  /**
   * Why, for code to branch on: the server's `code`, or the one its status means (an older server,
   * a proxy's answer); null when there was no HTTP answer (`network`, `response`).
   */
  readonly code: ErrorCode | null;

  constructor(
    kind: ApiErrorKind,
    status: number,
    message: string,
    options?: { cause?: unknown; origin?: 'api' | 'storage'; code?: ErrorCode },
  ) {
    super(message, options);
    this.kind = kind;
    this.status = status;
    this.origin = options?.origin ?? 'api';
    this.code = options?.code ?? (kind === 'http' ? errorCodeForStatus(status) : null);
  }
}

/** True for an {@link ApiError} (also across bundle copies, where `instanceof` would fail). */
export function isApiError(error: unknown): error is ApiError {
  return (
    error instanceof ApiError || (error instanceof Error && error.name === 'ApiError' && 'status' in error)
  );
}

/** The text to show for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return 'Something went wrong.';
}
