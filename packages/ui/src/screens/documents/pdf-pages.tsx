import { useEffect, useRef, useState } from 'react';
import type { OpenedPdf } from './pdf-render';

/** The pages of a PDF, each fitted whole into the viewer and drawn when scrolled to. */
export function PdfPages({ url, title, onError }: { url: string; title: string; onError: () => void }) {
  const [pdf, setPdf] = useState<OpenedPdf | null>(null);
  useEffect(() => {
    let opened: OpenedPdf | null = null;
    let gone = false;
    import('./pdf-render')
      .then(({ openPdf }) => openPdf(url))
      .then((result) => {
        opened = result;
        if (gone) result.close();
        else setPdf(result);
      }, onError);
    return () => {
      gone = true;
      opened?.close();
    };
  }, [url, onError]);
  return (
    // Focusable so keyboard users scroll the pages; Escape then reaches the dialog around it.
    <div className="viewer__pages" role="document" aria-label={title} aria-busy={!pdf} tabIndex={0}>
      {pdf &&
        Array.from({ length: pdf.pages }, (_, i) => (
          <PdfPage key={i} pdf={pdf} number={i + 1} onError={onError} />
        ))}
    </div>
  );
}

function PdfPage({ pdf, number, onError }: { pdf: OpenedPdf; number: number; onError: () => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const element = canvas.current;
    const box = element?.parentElement;
    if (!element || !box) return;
    let cancel = () => {};
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      cancel = pdf.draw(number, element, box, onError);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      cancel();
    };
  }, [pdf, number, onError]);
  return (
    <canvas ref={canvas} className="viewer__page" role="img" aria-label={`Page ${number} of ${pdf.pages}`} />
  );
}
