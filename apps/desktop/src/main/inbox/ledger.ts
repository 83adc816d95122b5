/**
 * The inbox's memory on disk: one small JSON file, rewritten whole with temp + rename so a crash
 * or power cut leaves either the old or the new version, never half of one. It lets a restart
 * re-offer every waiting scan under the same id and never offer an uploaded one again.
 */
import { readFile, rename } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../fs-atomic.js';

/**
 * Where a scan is in its life. `uploaded` entries are kept (bounded) to recognise re-copied files;
 * `damaged` is a file that never opened whole (listed on the desk, never offered); `dismissed` is a
 * damaged scan or a duplicate someone dismissed at the desk: its path and bytes are not offered again.
 */
const ScanStatus = z.enum(['waiting', 'uploading', 'failed', 'uploaded', 'damaged', 'dismissed']);
export type ScanStatus = z.infer<typeof ScanStatus>;

/** One upload attempt that may have reached the server before the kiosk stopped. */
export const UploadAttempt = z.object({
  /** Opaque to the inbox: the uploader's description of where the scan was going. */
  target: z.string(),
  startedAt: z.number(),
});
export type UploadAttempt = z.infer<typeof UploadAttempt>;

export const LedgerEntry = z.object({
  id: z.string(),
  /** Path relative to the watched folder, with `/` separators. */
  relPath: z.string(),
  size: z.number().int().nonnegative(),
  mtimeMs: z.number(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  firstSeenAt: z.number(),
  status: ScanStatus,
  error: z.string().optional(),
  attempt: UploadAttempt.optional(),
  uploadedAt: z.number().optional(),
  /**
   * For uploaded entries: the file has been moved or deleted. False between the ledger write and
   * the move, so a crash in that gap is finished at the next start instead of uploading again.
   */
  fileDone: z.boolean().optional(),
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

const LedgerFile = z.object({ version: z.literal(1), entries: z.array(LedgerEntry) });

/** How many uploaded entries are remembered for duplicate detection; older ones are forgotten. */
const MAX_UPLOADED_HISTORY = 5000;

/** The loaded ledger plus a serialised writer. */
export interface Ledger {
  readonly entries: Map<string, LedgerEntry>;
  /** Writes the current entries; calls are queued so writes never interleave. */
  save(): Promise<void>;
}

/**
 * Loads the ledger at `path` (an absent file is an empty ledger). A corrupt file is kept beside it
 * as `…corrupt-<time>` for a person to look at, and the inbox starts empty rather than refusing to run:
 * the scans are still in the folder and will be offered again.
 */
export async function loadLedger(
  path: string,
  onWarning: (message: string) => void = () => {},
): Promise<Ledger> {
  const entries = new Map<string, LedgerEntry>();
  let text: string | null = null;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text !== null) {
    const parsed = parseLedger(text);
    if (parsed) {
      for (const entry of parsed) entries.set(entry.id, entry);
    } else {
      const aside = `${path}.corrupt-${Date.now()}`;
      await rename(path, aside);
      onWarning(`Scanner inbox ledger was unreadable; kept it as ${aside} and started a new one.`);
    }
  }

  let queue: Promise<void> = Promise.resolve();
  const save = (): Promise<void> => {
    const write = queue.then(() => writeFileAtomic(path, serialise(entries)));
    // A failed write must not block later ones; the caller still sees its own failure.
    queue = write.catch(() => {});
    return write;
  };
  return { entries, save };
}

function parseLedger(text: string): LedgerEntry[] | null {
  try {
    const result = LedgerFile.safeParse(JSON.parse(text));
    return result.success ? result.data.entries : null;
  } catch {
    return null;
  }
}

function serialise(entries: Map<string, LedgerEntry>): string {
  const all = [...entries.values()];
  const uploaded = all
    .filter((e) => e.status === 'uploaded')
    .sort((a, b) => (b.uploadedAt ?? 0) - (a.uploadedAt ?? 0));
  for (const old of uploaded.slice(MAX_UPLOADED_HISTORY)) entries.delete(old.id);
  return JSON.stringify({ version: 1, entries: [...entries.values()] }, null, 1);
}
