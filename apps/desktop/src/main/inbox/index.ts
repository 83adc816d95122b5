/** The scanner inbox: a watched folder offering finished scans until the server confirms them. */
export { createInbox } from './inbox.js';
export type { Inbox, InboxOptions, InboxStatus } from './inbox.js';
export type { InboxEvent, InboxNotice, Scan } from './scan.js';
export { scanContentType } from './rules.js';
