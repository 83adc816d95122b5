/** True for PostgreSQL's unique_violation (23505), from `pg`. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === '23505';
}

/** True for PostgreSQL's foreign_key_violation (23503). */
export function isForeignKeyViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === '23503';
}

/** Socket errors of a database that is gone or going (stopped, restarting, unreachable). */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOENT',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/**
 * SQLSTATEs of the same: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections;
 * and query_canceled, which `statement_timeout` raises when the database is too slow to answer.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);
/** What `pg` says when a connection ends under it, cannot be had in time, or a statement got no answer. */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection closed|Query read timeout/i;

/**
 * True when `err` says the database cannot be reached right now (rather than that a query was
 * wrong): the request may succeed when it is back, so the answer is 503, not 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  return isUnavailable(err);
}

/**
 * True when a dependency (the database, or S3 through the AWS SDK) cannot be reached or did not
 * answer in time: the SDK's timeouts are `TimeoutError`s; refused and reset sockets have the codes
 * above. Answered 503 like the database's.
 */
export function isDependencyUnavailable(err: unknown): boolean {
  if (typeof err === 'object' && err !== null && 'name' in err && err.name === 'TimeoutError') return true;
  return isUnavailable(err);
}

function isUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = 'code' in err && typeof err.code === 'string' ? err.code : '';
  if (UNREACHABLE.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith('08')) return true;
  if (err instanceof AggregateError) return err.errors.some(isDatabaseUnavailable);
  return err instanceof Error && UNAVAILABLE_MESSAGES.test(err.message);
}
