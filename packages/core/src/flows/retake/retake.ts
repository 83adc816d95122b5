/**
 * Retake (docs/behaviour.md#retake): a picked photo is checked for quality first (nothing is replaced
 * while it shows a warning, until Keep anyway); the replacement is uploaded, then the old file deleted,
 * then the list refreshed — so a failed upload never costs the old file.
 */
import type { ApiClient } from '../../api/client.js';
import { errorMessage } from '../../api/errors.js';
import { messages } from '../../domain/messages.js';
import { isConvertibleImage } from '../../pdf/convertible.js';
import type { FileLike } from '../../ports.js';
import { isQualityFault } from '../../quality/warnings.js';
import type { QualityWarning } from '../../quality/assess.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';
import { readConvertPreference } from '../upload/preference.js';
import { retakeFile } from '../upload/naming.js';
import type { CategoryUploadPorts } from '../upload/upload.js';
import type { InspectImage } from '../upload/upload-state.js';

/** Where a retake stands; `key` is the file being replaced. */
export type RetakeState =
  /** `replaced`: the key of the file the last retake stored, in its predecessor's place. */
  | { status: 'idle'; replaced?: string }
  /** The picked photo's quality check runs (docs/behaviour.md#quality-warnings). */
  | { status: 'checking'; key: string }
  /**
   * The picked photo looks bad: nothing is replaced until `keep` (Keep anyway); another pick (Retake)
   * is checked afresh; `cancel` keeps the old file.
   */
  | { status: 'warned'; key: string; file: FileLike; warnings: readonly QualityWarning[] }
  | { status: 'converting'; key: string }
  | { status: 'uploading'; key: string; loaded: number; total: number }
  | { status: 'deleting'; key: string }
  | { status: 'refreshing' }
  | { status: 'failed'; key: string; error: string };

/**
 * `retake`: replace the file `key` (named `filename`) with `file`, picked from Upload or Take Photo in
 * the Retake menu; it takes `filename`'s name with its own extension (a phone camera's `image.jpg`
 * would say nothing). `keep` stores a warned photo anyway; `cancel` drops it.
 */
export type RetakeEvent =
  { type: 'retake'; key: string; filename: string; file: FileLike } | { type: 'keep' } | { type: 'cancel' };

/** The ports of {@link createRetakeFlow}: an upload's, the delete of the replaced file, and the quality check. */
export interface RetakeFlowOptions extends CategoryUploadPorts {
  api: Pick<ApiClient, 'presignUpload' | 'completeUpload' | 'deleteDocs'>;
  /** Checks a picked photo's quality first, as the queue does; without it no warnings are shown. */
  inspect?: InspectImage;
}

/** The retake flow. */
export type RetakeFlow = Flow<RetakeState, RetakeEvent>;

/** Creates the retake flow. */
export function createRetakeFlow(options: RetakeFlowOptions): RetakeFlow {
  const { api, putFile, convert, storage, platform, target, refresh, inspect } = options;
  const store = createStore<RetakeState>({ status: 'idle' });
  /** Counts picks: a check that finishes after a newer pick (or a cancel) is dropped. */
  let picks = 0;

  /** Checks the picked photo; stores it at once when nothing is wrong with it. */
  async function check(key: string, filename: string, picked: FileLike): Promise<void> {
    const pick = ++picks;
    const file = retakeFile(filename, picked);
    if (inspect && isConvertibleImage(picked)) {
      store.setState({ status: 'checking', key });
      const warnings = await inspect(picked).catch(() => []);
      if (pick !== picks) return;
      if (warnings.some(isQualityFault)) {
        store.setState({ status: 'warned', key, file, warnings });
        return;
      }
    }
    await replace(key, file);
  }

  async function replace(key: string, picked: FileLike): Promise<void> {
    let file = picked;
    if (readConvertPreference(storage) && isConvertibleImage(picked)) {
      store.setState({ status: 'converting', key });
      file = await convert(picked).catch(() => picked);
    }
    let uploaded = false;
    let replacement = '';
    try {
      store.setState({ status: 'uploading', key, loaded: 0, total: file.size });
      // Fetched when a retake is sent, not with the category screen: the upload's transport is the
      // upload part's, which the screen loads on use (its first paint stays under the size goal).
      const { uploadDocument } = await import('../../api/upload.js');
      replacement = await uploadDocument(
        api,
        putFile,
        target,
        file,
        (loaded, total) => {
          if (store.getState().status === 'uploading')
            store.setState({ status: 'uploading', key, loaded, total });
        },
        { replaces: key },
      );
      uploaded = true;
      store.setState({ status: 'deleting', key });
      await api.deleteDocs({ body: { keys: [key] } });
    } catch (error) {
      const message = errorMessage(error);
      store.setState({ status: 'failed', key, error: message });
      await platform.alert(messages.retakeFailedPrefix + message);
      if (uploaded) await refreshQuietly();
      return;
    }
    store.setState({ status: 'refreshing' });
    await refreshQuietly();
    store.setState({ status: 'idle', replaced: replacement });
  }

  async function refreshQuietly(): Promise<void> {
    try {
      await refresh();
    } catch {
      // The list reports its own load errors.
    }
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      const state = store.getState();
      const open = state.status === 'idle' || state.status === 'failed' || state.status === 'warned';
      if (event.type === 'retake' && (open || state.status === 'checking'))
        await check(event.key, event.filename, event.file);
      else if (event.type === 'keep' && state.status === 'warned') await replace(state.key, state.file);
      else if (event.type === 'cancel' && (state.status === 'warned' || state.status === 'checking')) {
        picks += 1;
        store.setState({ status: 'idle' });
      }
    },
  };
}
