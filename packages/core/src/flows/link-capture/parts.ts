/**
 * The pieces the client page's capture is built from: the link session's calls in the upload queue's
 * shape, the thumbnail of each file sent, and the quality checks a row waits for before it sends.
 */
import type { ApiClient } from '../../api/client.js';
import { isPhotoFile } from '../../pdf/convertible.js';
import { isQualityFault } from '../../quality/warnings.js';
import type { Clock } from '../../ports.js';
import type { InspectImage, QueuedFile } from '../upload/upload-state.js';
import type { CaptureThumb, LinkCapturePorts } from './types.js';

/** Where each upload's thumbnail comes from, noted as it is sent and kept under its stored key. */
interface ThumbNotes {
  /** The file of queue id `id` is being sent; its thumbnail is made of `source`. */
  sending(source: CaptureThumb | undefined, id: string): void;
  /** The file being sent is stored under `key` (said at its presign). */
  stored(key: string): void;
}

/**
 * A file still to be sent whose photo has warnings the client has not answered (Keep anyway or
 * Retake): its row sends nothing until they answer.
 */
export const awaitsQualityChoice = (item: QueuedFile): boolean =>
  item.warnings.some(isQualityFault) && ['queued', 'converting', 'saving'].includes(item.progress.status);

/** The upload queue's two calls, answered by the link session's: it may only add to its own categories. */
export function linkUploadApi(
  api: LinkCapturePorts['api'],
  notes: ThumbNotes,
): Pick<ApiClient, 'presignUpload' | 'completeUpload'> {
  return {
    // The key is known at the presign: the PUT's answer may store the file without a complete.
    presignUpload: async ({ body }) => {
      const presigned = await api.linkPresign({
        body: {
          docType: body.docType,
          filename: body.filename,
          contentType: body.contentType,
          size: body.size ?? 0,
          sha256: body.sha256 ?? '',
        },
      });
      notes.stored(presigned.key);
      return presigned;
    },
    completeUpload: async ({ body }) => {
      const { file } = await api.linkComplete({ body });
      return {
        ok: true as const,
        item: { ...file, docType: '', lastModified: new Date().toISOString() },
      };
    },
  };
}

/** What a queue item's thumbnail is made of: the photo as turned, a scan's first page, or the file itself. */
export function thumbOf(item: QueuedFile, scanFirstPages: WeakMap<object, CaptureThumb>): CaptureThumb {
  const scanned = scanFirstPages.get(item.original);
  if (scanned) return scanned;
  if (isPhotoFile(item.original)) return { file: item.original, rotate: item.rotate ?? 0 };
  return { file: item.file, rotate: 0 };
}

/**
 * The thumbnail of the file being sent, kept under the key it is stored as; `onKey` is told which
 * queued file that key is.
 */
export function thumbNotes(onKey?: (id: string, key: string) => void) {
  const thumbs = new Map<string, CaptureThumb>();
  let sending: { source: CaptureThumb | undefined; id: string } | undefined;
  const notes: ThumbNotes = {
    sending: (source, id) => (sending = { source, id }),
    stored: (key) => {
      if (!sending) return;
      if (sending.source) thumbs.set(key, sending.source);
      onKey?.(sending.id, key);
    },
  };
  return { thumbs, notes };
}

/** Quality checks under way: a row waits for them before it sends, so a bad photo is not sent unasked. */
export function trackedChecks(check: InspectImage, clock: Pick<Clock, 'setTimeout'>) {
  const checking = new Set<Promise<unknown>>();
  const inspect: InspectImage = (file) => {
    const result = check(file);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    checking.add(settled);
    void settled.then(() => checking.delete(settled));
    return result;
  };
  const checksDone = async () => {
    while (checking.size) await Promise.all(checking);
    // The queue takes each check's answer in a reaction of its own, after ours.
    await new Promise<void>((resolve) => clock.setTimeout(resolve, 0));
  };
  return { inspect, checksDone };
}
