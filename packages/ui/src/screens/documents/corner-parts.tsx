import type { QueuedFile } from '@vita-docs/core';
import { lazy, Suspense } from 'react';
import { PhotoThumb } from './photo-thumb';

// The editor and the straightened thumbnail come with the converter, on the first converted photo.
const load = () => import('./corner-editor');

/** `Adjust corners` of a converted photo's row (see corner-editor.tsx). */
export const AdjustCorners = lazy(async () => ({ default: (await load()).AdjustCorners }));

const StraightThumb = lazy(async () => ({ default: (await load()).StraightThumb }));

/** A queued photo's thumbnail: a converted one shows its straightened page, the photo until then. */
export function RowThumb({ item, label }: { item: QueuedFile; label: string }) {
  const { original, rotate } = item;
  const thumb = <PhotoThumb file={original} rotate={rotate ?? 0} label={label} />;
  if (rotate === null) return thumb;
  return (
    <Suspense fallback={thumb}>
      <StraightThumb file={original} rotate={rotate} crop={item.crop} version={item.file} label={label} />
    </Suspense>
  );
}
