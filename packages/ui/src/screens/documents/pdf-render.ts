/// <reference types="vite/client" />
import { GlobalWorkerOptions, getDocument } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;

/** An opened PDF: how many pages it has, a way to draw one, and a way to let it go. */
export interface OpenedPdf {
  pages: number;
  /** Draws page `number` as large as fits whole in `box`, sharp on high-density screens; returns a cancel. */
  draw(number: number, canvas: HTMLCanvasElement, box: HTMLElement, onError: () => void): () => void;
  close(): void;
}

/**
 * Opens a PDF (a URL of the server's, or a file on this device) with pdf.js, drawn into the page rather than the browser's own viewer: that viewer
 * swallows every key (Escape never reached the dialog once focus was inside it) and phones'
 * browsers have none at all. Kept apart from the screens so pdf.js loads only when a PDF is viewed.
 */
export async function openPdf(source: string | Blob): Promise<OpenedPdf> {
  // A file on this device is handed over as its bytes: given an object URL, pdf.js would fetch it,
  // and the Content-Security-Policy's connect-src (which names no blob:) refuses that fetch.
  // Eval is off so the same policy (no 'unsafe-eval') holds.
  const task = getDocument({
    ...(typeof source === 'string' ? { url: source } : { data: new Uint8Array(await source.arrayBuffer()) }),
    isEvalSupported: false,
  });
  const pdf = await task.promise;
  return {
    pages: pdf.numPages,
    draw(number, canvas, box, onError) {
      let cancelled = false;
      let stop = () => {};
      void (async () => {
        const page = await pdf.getPage(number);
        if (cancelled) return;
        const natural = page.getViewport({ scale: 1 });
        const fit = Math.min(box.clientWidth / natural.width, box.clientHeight / natural.height);
        const ratio = window.devicePixelRatio || 1;
        const viewport = page.getViewport({ scale: fit * ratio });
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
        canvas.style.height = `${Math.floor(viewport.height / ratio)}px`;
        const rendering = page.render({ canvas, viewport });
        stop = () => rendering.cancel();
        await rendering.promise;
      })().catch((error: unknown) => {
        if (!cancelled && (error as { name?: string }).name !== 'RenderingCancelledException') onError();
      });
      return () => {
        cancelled = true;
        stop();
      };
    },
    close: () => void task.destroy(),
  };
}
