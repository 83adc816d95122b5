/** What a multi-page scan is made of, apart from the PDF code (which loads only when a scan is built). */
import type { FileLike } from '../ports.js';
import type { QuarterTurn } from './raster.js';
import type { PageCrop } from '../straighten/page.js';

/** The most pages one scan may have. */
export const MAX_SCAN_PAGES = 30;

/** One photo (or scanned PDF) of a scan. */
export interface ScanPage {
  file: FileLike;
  /** Turned clockwise after its EXIF orientation. */
  rotate?: QuarterTurn;
  /** Which part of the photo becomes the page (see `ImageToPdfOptions.crop`); the scan's `crop` when absent. */
  crop?: PageCrop;
}
