import type { ApiClient } from '../../api/client.js';
import { errorMessage } from '../../api/errors.js';
import type { DocItem } from '../../api/schemas.js';
import { mediaType } from '../../domain/files.js';
import type { Dialogs } from '../../ports.js';
import { createStore } from '../../store.js';
import type { Flow } from '../../store.js';

/** How a file is shown in the View modal (docs/behaviour.md#view-modal). */
export type PreviewKind = 'image' | 'pdf' | 'none';

/** Image types every browser draws in an `<img>`; HEIC and TIFF are not among them. */
const PREVIEWABLE_IMAGES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/bmp', 'image/gif']);

/**
 * The preview a file gets, by its stored content type.
 * @internal Exported for its unit test.
 */
export function previewKind(item: Pick<DocItem, 'contentType' | 'filename'>): PreviewKind {
  const type = mediaType(item.contentType);
  if (type === 'application/pdf') return 'pdf';
  return PREVIEWABLE_IMAGES.has(type) ? 'image' : 'none';
}

/** The View modal: `url` is a short-lived view URL (image, PDF) or a download URL (anything else). */
export type FileViewerState =
  | { status: 'closed' }
  | { status: 'loading'; item: DocItem; kind: PreviewKind }
  | { status: 'showing'; item: DocItem; kind: PreviewKind; url: string };

export type FileViewerEvent = { type: 'open'; item: DocItem } | { type: 'close' };

export type FileViewerFlow = Flow<FileViewerState, FileViewerEvent>;

export interface FileViewerFlowOptions {
  api: Pick<ApiClient, 'presignView' | 'presignGet'>;
  platform: Pick<Dialogs, 'alert'>;
}

/** Creates the View modal flow: asks for the right URL when a file is opened. */
export function createFileViewerFlow({ api, platform }: FileViewerFlowOptions): FileViewerFlow {
  const store = createStore<FileViewerState>({ status: 'closed' });
  let opened = 0;

  async function open(item: DocItem): Promise<void> {
    const mine = ++opened;
    const kind = previewKind(item);
    store.setState({ status: 'loading', item, kind });
    try {
      // Files without a preview get a download URL (attachment, under their own name) for the link.
      const { url } =
        kind === 'none'
          ? await api.presignGet({ body: { key: item.key, downloadAs: item.filename } })
          : await api.presignView({ body: { key: item.key } });
      if (mine === opened) store.setState({ status: 'showing', item, kind, url });
    } catch (error) {
      if (mine !== opened) return;
      store.setState({ status: 'closed' });
      await platform.alert(errorMessage(error));
    }
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    async send(event) {
      if (event.type === 'open') return open(event.item);
      opened++;
      store.setState({ status: 'closed' });
    },
  };
}
