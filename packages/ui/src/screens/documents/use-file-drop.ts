import { useEffect, useRef, useState } from 'react';

const hasFiles = (event: DragEvent): boolean => event.dataTransfer?.types.includes('Files') ?? false;

/** What was dropped: `files` without folders (a folder arrives as an empty pseudo-file), `all` with them. */
export interface Dropped {
  files: File[];
  all: File[];
}

function droppedFiles(data: DataTransfer): Dropped {
  const items = Array.from(data.items);
  const all = Array.from(data.files);
  const files = all.filter((_, i) => {
    const entry = items[i]?.webkitGetAsEntry?.();
    return !entry?.isDirectory;
  });
  return { files, all };
}

/**
 * Makes the whole window a drop target for files while the component is mounted, so a drop
 * anywhere adds to the queue instead of the browser opening the file and leaving the app.
 * Returns whether files are being dragged over the window (to show the drop hint).
 */
export function useFileDrop(onFiles: (dropped: Dropped) => void): boolean {
  const [dragging, setDragging] = useState(false);
  const latest = useRef(onFiles);
  useEffect(() => {
    latest.current = onFiles;
  });
  useEffect(() => {
    // dragenter/dragleave fire for every child element crossed; count them to know when it really left.
    let depth = 0;
    const enter = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      depth += 1;
      setDragging(true);
    };
    const over = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const leave = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (event: DragEvent) => {
      if (!event.dataTransfer || !hasFiles(event)) return;
      event.preventDefault();
      depth = 0;
      setDragging(false);
      const dropped = droppedFiles(event.dataTransfer);
      if (dropped.all.length) latest.current(dropped);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);
  return dragging;
}
