/**
 * Where the client page keeps queued files across a reload (docs/behaviour.md#requesting-documents-from-a-client):
 * names only, so the page itself (before its capture parts load) can tell whether there is anything to
 * resume, and delete it all once the link has closed.
 */

/** The IndexedDB database of the link's kept files (apart from the staff's: their journals never meet). */
export const LINK_JOURNAL_DB = 'vita-docs-link-uploads';
/** Set while files may be kept: the page then loads its capture parts at once to send them. */
export const LINK_KEPT_FLAG = 'vita.linkKept';

/** Deletes what this phone kept for a link (it closed: nothing kept could be opened any more anyway). */
export function forgetKept(): void {
  window.localStorage.removeItem(LINK_KEPT_FLAG);
  if (typeof indexedDB !== 'undefined') indexedDB.deleteDatabase(LINK_JOURNAL_DB);
}
