/**
 * The document reader's files as both service workers keep them (src/sw.ts for the staff app,
 * src/reader-sw.ts for the client's request page): one cache under one name, so a browser that has
 * both keeps one copy. /ocr/ names carry no hash: they change only when those packages are upgraded,
 * and then this cache's name changes with them.
 */
export const READER_CACHE = 'vita-reader-tesseract7-eng4';

/**
 * OCR code and data and the barcode reader under /ocr/, and pdf.js's worker code the reader reads
 * PDFs' text with: fetched the first time a document is read, then kept.
 */
export const isReaderFile = (url: URL, origin: string): boolean =>
  url.origin === origin &&
  (url.pathname.startsWith('/ocr/') || url.pathname.startsWith('/assets/pdf.worker'));
