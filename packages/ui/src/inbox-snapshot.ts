/**
 * The scanner inbox as data: what a host hands the "Scanner inbox" panel (`@vita-docs/ui/inbox-snapshot`,
 * for the desktop app's main process and preload). Defined, without imports, in core beside the flow
 * that reads them.
 */
export type { InboxScanView, ScannerInboxSnapshot } from '@vita-docs/core/inbox-snapshot';
