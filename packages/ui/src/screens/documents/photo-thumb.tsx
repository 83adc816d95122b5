import { fileExtension } from '@vita-docs/core';
import type { FileLike } from '@vita-docs/core';
import { useEffect, useState } from 'react';

/**
 * A small picture of a photo as it will be turned (`rotate` clockwise, after the browser applied its
 * EXIF orientation). A file the browser cannot show (HEIC outside Safari) shows its type instead.
 */
export function PhotoThumb({ file, rotate = 0, label }: { file: FileLike; rotate?: number; label: string }) {
  const url = useObjectUrl(file);
  const [broken, setBroken] = useState(false);
  if (!url || broken) {
    return (
      <span className="thumb thumb--none" role="img" aria-label={label}>
        {fileExtension(file.name).replace('.', '').toUpperCase() || 'FILE'}
      </span>
    );
  }
  return (
    <span className="thumb">
      <img
        className="thumb__image"
        src={url}
        alt={label}
        style={rotate ? { transform: `rotate(${rotate}deg)` } : undefined}
        onError={() => setBroken(true)}
      />
    </span>
  );
}

/** An object URL of the file while the component shows it; null for files that are not Blobs. */
function useObjectUrl(file: FileLike): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!(file instanceof Blob)) return;
    const created = URL.createObjectURL(file);
    setUrl(created);
    return () => {
      URL.revokeObjectURL(created);
      setUrl(null);
    };
  }, [file]);
  return url;
}
