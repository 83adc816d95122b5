/** pdf.js's worker script ships no types; the reader only hands the module to pdf.js. */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
