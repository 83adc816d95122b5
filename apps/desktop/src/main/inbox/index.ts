/** The scanner inbox: a watched folder offering finished scans until the server confirms them. */
export { createInbox } from './inbox.js';
export type { Inbox, InboxOptions } from './inbox.js';
export type { Scan, InboxEvent, DuplicateOf } from './scan.js';
export type { AfterUpload } from './after-upload.js';
export { FolderLockedError } from './lock.js';
export {
  SUPPORTED_SCAN_EXTENSIONS,
  UPLOADED_FOLDER,
  isIgnoredName,
  isSupportedScan,
  scanContentType,
  scanExtension,
} from './rules.js';
