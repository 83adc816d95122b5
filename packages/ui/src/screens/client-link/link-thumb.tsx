/**
 * The small picture of a file the client added through this page, made on the phone from the file itself
 * (no route reads stored files back through a link session: a link reaches nothing stored, docs/security.md).
 * A photo shows as itself; a PDF shows its first page, drawn by pdf.js, which loads only when a PDF was added.
 */
import { isPhotoFile } from '@vita-docs/core';
import type { CaptureThumb } from '@vita-docs/core';
import { useEffect, useRef, useState } from 'react';
import { PhotoThumb } from '../documents/photo-thumb';

export function FileThumb({ source, label }: { source: CaptureThumb; label: string }) {
  const { file, rotate } = source;
  if (file instanceof Blob && !isPhotoFile(file) && file.type === 'application/pdf')
    return <PdfThumb file={file} label={label} />;
  return <PhotoThumb file={file} rotate={rotate} label={label} />;
}

function PdfThumb({ file, label }: { file: Blob; label: string }) {
  const box = useRef<HTMLSpanElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let stop = () => {};
    let closed = false;
    let close = () => {};
    void import('../documents/pdf-render')
      .then(({ openPdf }) => openPdf(file))
      .then((pdf) => {
        close = () => pdf.close();
        if (closed) return close();
        if (!canvas.current || !box.current) return;
        stop = pdf.draw(1, canvas.current, box.current, () => setFailed(true));
      })
      .catch(() => setFailed(true));
    return () => {
      closed = true;
      stop();
      close();
    };
  }, [file]);
  if (failed)
    return (
      <span className="thumb thumb--none" role="img" aria-label={label}>
        PDF
      </span>
    );
  return (
    <span className="thumb" ref={box} role="img" aria-label={label}>
      <canvas ref={canvas} className="thumb__image" />
    </span>
  );
}
