/**
 * Retake (docs/behaviour.md#retake): the replacement is uploaded first, then the old file deleted,
 * then the list refreshed — so a failed upload never costs the old file.
 */
import type { ApiClient } from '../../api/client.js';
import { errorMessage } from '../../api/errors.js';
import { uploadDocument } from '../../api/upload.js';
import { messages } from '../../domain/messages.js';
import { isConvertibleImage } from '../../pdf/convertible.js';
import type { FileLike } from '../../ports.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';
import { readConvertPreference } from '../upload/preference.js';
import type { CategoryUploadPorts } from '../upload/upload.js';

/** Where a retake stands; `key` is the file being replaced. */
export type RetakeState =
  /** `replaced`: the key of the file the last retake stored, in its predecessor's place. */
  | { status: 'idle'; replaced?: string }
  | { status: 'converting'; key: string }
  | { status: 'uploading'; key: string; loaded: number; total: number }
  | { status: 'deleting'; key: string }
  | { status: 'refreshing' }
  | { status: 'failed'; key: string; error: string };

/** Replace the file `key` with `file` (picked from Upload or Take Photo in the Retake menu). */
export type RetakeEvent = { type: 'retake'; key: string; file: FileLike };

/** The ports of {@link createRetakeFlow}: an upload's, and the delete of the replaced file. */
export interface RetakeFlowOptions extends CategoryUploadPorts {
  api: Pick<ApiClient, 'presignUpload' | 'completeUpload' | 'deleteDocs'>;
}

/** The retake flow. */
export type RetakeFlow = Flow<RetakeState, RetakeEvent>;

/** Creates the retake flow. */
export function createRetakeFlow(options: RetakeFlowOptions): RetakeFlow {
  const { api, putFile, convert, storage, platform, target, refresh } = options;
  const store = createStore<RetakeState>({ status: 'idle' });

  async function retake(key: string, picked: FileLike): Promise<void> {
    let file = picked;
    if (readConvertPreference(storage) && isConvertibleImage(picked)) {
      store.setState({ status: 'converting', key });
      file = await convert(picked).catch(() => picked);
    }
    let uploaded = false;
    let replacement = '';
    try {
      store.setState({ status: 'uploading', key, loaded: 0, total: file.size });
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
      const { status } = store.getState();
      if (event.type === 'retake' && (status === 'idle' || status === 'failed'))
        await retake(event.key, event.file);
    },
  };
}
