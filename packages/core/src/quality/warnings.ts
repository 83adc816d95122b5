/**
 * The kinds of quality warning and which of them only say what was done, kept apart from the check
 * itself: screens import this on their first paint, and the check pulls in the PDF code.
 */

/** What can be wrong with a photo of a page; `qualityWarningMessage` gives each its text. */
export type QualityWarning =
  'tooDark' | 'washedOut' | 'blurry' | 'blank' | 'tooSmall' | 'glare' | 'edgesNotFound';

/**
 * Warnings that only say what was done, with nothing to answer (no `Retake` / `Keep anyway`): the
 * whole photo was used because no page edges were found.
 */
export const NOTICE_WARNINGS: readonly QualityWarning[] = ['edgesNotFound'];

/** Whether a warning is a fault of the photo, to answer with `Retake` or `Keep anyway` (not a notice). */
export function isQualityFault(warning: QualityWarning): boolean {
  return !NOTICE_WARNINGS.includes(warning);
}
