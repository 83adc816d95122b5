/**
 * The words of the Scan pages dialog and its flow. The staff screens use {@link STAFF_SCAN_TEXTS}, English
 * exactly as the spec writes them (docs/behaviour.md#scan-pages); the client's page builds the same shape
 * from its per-language table (client-link/texts.ts), so the one dialog speaks the client's language there.
 */
import {
  messages,
  qualityWarningMessage,
  scanDiscardConfirm,
  scanFailedMessage,
  scanPagesRefusedMessage,
} from '../../domain/messages.js';
import type { QualityWarning } from '../../quality/assess.js';

/** What the flow itself says (errors and the discard question). */
export interface ScanFlowTexts {
  refused(names: readonly string[]): string;
  tooManyPages: string;
  discard(pages: number): string;
  failed(reason: string): string;
}

/** Everything the dialog shows. */
export interface ScanTexts extends ScanFlowTexts {
  title: string;
  addPage: string;
  hint: string;
  cancel: string;
  /** `Done (2 pages)`. */
  done(pages: number): string;
  making: string;
  pagesLabel: string;
  /** `Page 2`. */
  page(number: number): string;
  retake: string;
  rotateLeft: string;
  rotateRight: string;
  moveUp: string;
  moveDown: string;
  remove: string;
  warning(warning: QualityWarning): string;
}

/** The staff screens' texts. */
export const STAFF_SCAN_TEXTS: ScanTexts = {
  refused: scanPagesRefusedMessage,
  tooManyPages: messages.scanTooManyPages,
  discard: scanDiscardConfirm,
  failed: scanFailedMessage,
  title: 'Scan pages',
  addPage: 'Add page',
  hint: 'Take a photo of each page, in order. You can also drop photos here.',
  cancel: 'Cancel',
  done: (count) => `Done (${count} ${count === 1 ? 'page' : 'pages'})`,
  making: 'Making the PDF…',
  pagesLabel: 'Pages',
  page: (number) => `Page ${number}`,
  retake: 'Retake',
  rotateLeft: 'Rotate left',
  rotateRight: 'Rotate right',
  moveUp: 'Move up',
  moveDown: 'Move down',
  remove: 'Remove',
  warning: qualityWarningMessage,
};
