/** pdf.js's worker script ships no types; the reader only hands the module to pdf.js. */
declare module 'pdfjs-dist/build/pdf.worker.min.mjs' {
  export const WorkerMessageHandler: unknown;
}
