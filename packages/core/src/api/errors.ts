/**
 * Why a call failed: `http` — the server answered with a non-OK status; `network` — no answer at
 * all; `response` — an OK answer that does not match the contract.
 */
export type ApiErrorKind = 'http' | 'network' | 'response';

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

  constructor(
    kind: ApiErrorKind,
    status: number,
    message: string,
    options?: { cause?: unknown; origin?: 'api' | 'storage' },
  ) {
    super(message, options);
    this.kind = kind;
    this.status = status;
    this.origin = options?.origin ?? 'api';
  }
}

/** True for an {@link ApiError} (also across bundle copies, where `instanceof` would fail). */
export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError || (error instanceof Error && error.name === 'ApiError' && 'status' in error);
}

/** The text to show for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return 'Something went wrong.';
}
