/**
 * The scanner inbox as data: what a host hands the "Scanner inbox" panel (`@vita-docs/ui/inbox-snapshot`,
 * for the desktop app's main process and preload). The types live in core with the flow that reads them.
 */
export type { InboxScanView, ScannerInboxSnapshot } from '@vita-docs/core';
