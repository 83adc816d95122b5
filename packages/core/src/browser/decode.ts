/**
 * Decoding in the browser worker: whether the decoders apply EXIF orientation themselves, and JPEG
 * decoded straight to a fraction of its size with WebCodecs' `ImageDecoder`, which scales in the DCT
 * (n/8): a 12 MP photo then never exists at full size, which halves the time of a page.
 */

/** A decoded picture ready to draw, its size, and how to let it go. */
export interface Decoded {
  source: CanvasImageSource;
  width: number;
  height: number;
  close(): void;
}

// 2×1 images stored with EXIF orientation 6: a decoder that honours orientation returns 1×2.
const PROBES = {
  jpeg: '/9j/4QC8RXhpZgAASUkqAAgAAAAGABIBAwABAAAABgAAABoBBQABAAAAVgAAABsBBQABAAAAXgAAACgBAwABAAAAAgAAABMCAwABAAAAAQAAAGmHBAABAAAAZgAAAAAAAAA4YwAA6AMAADhjAADoAwAABgAAkAcABAAAADAyMTABkQcABAAAAAECAwAAoAcABAAAADAxMDABoAMAAQAAAP//AAACoAQAAQAAAAIAAAADoAQAAQAAAAEAAAAAAAAA/9sAQwAQCwwODAoQDg0OEhEQExgoGhgWFhgxIyUdKDozPTw5Mzg3QEhcTkBEV0U3OFBtUVdfYmdoZz5NcXlwZHhcZWdj/9sAQwEREhIYFRgvGhovY0I4QmNjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2Nj/8AAEQgAAQACAwEiAAIRAQMRAf/EABQAAQAAAAAAAAAAAAAAAAAAAAD/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAAAP/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AAAP/9k=',
  png: 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAtGVYSWZJSSoACAAAAAYAEgEDAAEAAAAGAAAAGgEFAAEAAABWAAAAGwEFAAEAAABeAAAAKAEDAAEAAAACAAAAEwIDAAEAAAABAAAAaYcEAAEAAABmAAAAAAAAADhjAADoAwAAOGMAAOgDAAAGAACQBwAEAAAAMDIxMAGRBwAEAAAAAQIDAACgBwAEAAAAMDEwMAGgAwABAAAA//8AAAKgBAABAAAAAgAAAAOgBAABAAAAAQAAAAAAAABnMuHxAAAAC0lEQVR42mNoAAMACocDAVdiaIEAAAAASUVORK5CYII=',
  webp: 'UklGRvIAAABXRUJQVlA4WAoAAAAIAAAAAQAAAAAAVlA4TBEAAAAvAQAAAAdQwAIWsP+BiOh/AABFWElGugAAAEV4aWYAAElJKgAIAAAABgASAQMAAQAAAAYAAAAaAQUAAQAAAFYAAAAbAQUAAQAAAF4AAAAoAQMAAQAAAAIAAAATAgMAAQAAAAEAAABphwQAAQAAAGYAAAAAAAAAOGMAAOgDAAA4YwAA6AMAAAYAAJAHAAQAAAAwMjEwAZEHAAQAAAABAgMAAKAHAAQAAAAwMTAwAaADAAEAAAD//wAAAqAEAAEAAAACAAAAA6AEAAEAAAABAAAAAAAAAA==',
} as const;

const probeBytes = (format: keyof typeof PROBES) =>
  Uint8Array.from(atob(PROBES[format]), (c) => c.charCodeAt(0));

const honours = new Map<string, Promise<boolean>>();

/** Whether this browser's decoder applies EXIF orientation for a format (Chromium: JPEG and PNG, not WebP). */
export function decoderHonoursOrientation(format: string): Promise<boolean> {
  if (!(format in PROBES)) return Promise.resolve(true);
  let answer = honours.get(format);
  if (!answer) {
    const bytes = probeBytes(format as keyof typeof PROBES);
    answer = createImageBitmap(new Blob([bytes], { type: `image/${format}` })).then(
      (bitmap) => {
        const rotated = bitmap.height > bitmap.width;
        bitmap.close();
        return rotated;
      },
      () => true,
    );
    honours.set(format, answer);
  }
  return answer;
}

let framesUpright: Promise<boolean> | undefined;

/**
 * Whether `ImageDecoder` frames come upright (Chromium applies EXIF orientation to the frame it
 * draws); where they do not, photos that are not stored upright take the `createImageBitmap` path.
 */
function imageDecoderFramesUpright(): Promise<boolean> {
  framesUpright ??= (async () => {
    const decoder = new ImageDecoder({ data: probeBytes('jpeg'), type: 'image/jpeg' });
    try {
      const { image } = await decoder.decode();
      const upright = image.displayHeight > image.displayWidth;
      image.close();
      return upright;
    } finally {
      decoder.close();
    }
  })().catch(() => false);
  return framesUpright;
}

/**
 * A JPEG decoded by `ImageDecoder` at about `size` (the decoder picks an n/8 of the stored size
 * itself: callers check the result), upright. `size` is a square box the image fits inside by its
 * long side, whichever way the photo is stored, or the exact size wanted (as stored, or turned: the
 * decoder goes by the area). Null where there is no `ImageDecoder`, or where `orientation` is not
 * upright and its frames do not come upright.
 */
export async function decodeJpegScaled(
  blob: Blob,
  size: number | { width: number; height: number },
  orientation: number,
): Promise<Decoded | null> {
  if (typeof ImageDecoder === 'undefined' || !(await ImageDecoder.isTypeSupported('image/jpeg'))) return null;
  if (orientation !== 1 && !(await imageDecoderFramesUpright())) return null;
  const box =
    typeof size === 'number'
      ? { width: Math.max(1, Math.round(size)), height: Math.max(1, Math.round(size)) }
      : size;
  const decoder = new ImageDecoder({
    data: blob.stream(),
    type: 'image/jpeg',
    desiredWidth: box.width,
    desiredHeight: box.height,
  });
  try {
    const { image } = await decoder.decode();
    return {
      source: image,
      width: image.displayWidth,
      height: image.displayHeight,
      close: () => image.close(),
    };
  } finally {
    decoder.close();
  }
}
