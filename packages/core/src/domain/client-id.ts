/**
 * What a client id looks like. Apart from the file rules (`files.ts`) because the API contract
 * checks every id with it, and the contract loads with the first page while the file rules do not.
 */
const CLIENT_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/** True for a well-formed client id: random, URL-safe. */
export function isClientId(value: string): boolean {
  return CLIENT_ID_PATTERN.test(value);
}
