/**
 * The longest a request link works, in days: apart from the schemas (zod), so the client page's capture
 * parts can know it without downloading the contract.
 */
export const LINK_DAYS_MAX = 14;
