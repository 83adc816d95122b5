/** The scanner inbox: a watched folder offering finished scans until the server confirms them. */
export { createInbox } from './inbox.js';
export type { Inbox, InboxOptions } from './inbox.js';
export type { InboxEvent, Scan } from './scan.js';
export { scanContentType } from './rules.js';
