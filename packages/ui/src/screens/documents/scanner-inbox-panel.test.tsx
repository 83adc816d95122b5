import { createInboxQueue, createUploadFlow } from '@vita-docs/core';
import type { FileLike, InboxScanView, ScannerInbox } from '@vita-docs/core';
import { createFakeApi, createMemoryStorage, createRecordingDialogs } from '@vita-docs/core/testing';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ScanRow } from './scanner-inbox-panel';

const W2 = 'W-2';

/** A scan as the desktop's inbox lists it, `reading` as its main process read it. */
const scanOf = (name: string, reading?: InboxScanView['reading']): InboxScanView => ({
  id: `scan-${name}`,
  name,
  relPath: name,
  size: 120_000,
  mtimeMs: 1_700_000_000_000,
  status: 'waiting',
  ...(reading && { reading }),
});

/** The W-2 category's inbox queue over the fake server, with an inbox that lists `scans`. */
function setup(scans: InboxScanView[]) {
  const api = createFakeApi();
  const { clientId } = api.addClient({ firstName: 'Ada', createdBy: 'vera@example.org' });
  const target = { clientId, docType: W2 };
  const inbox: ScannerInbox = {
    getInbox: async () => ({ folder: '/scans', scans }),
    subscribe: () => () => undefined,
    readScan: () => Promise.reject(new Error('not read here')),
    thumbnail: async () => null,
    markUploading: async () => undefined,
    markUploaded: async () => undefined,
    markFailed: async () => undefined,
  };
  const upload = createUploadFlow({
    api,
    putFile: api.putFile,
    convert: async (file: FileLike) => file,
    storage: createMemoryStorage(),
    platform: createRecordingDialogs(),
    target,
    refresh: async () => undefined,
  });
  const queue = createInboxQueue({ inbox, upload, target, combine: async (files) => files[0]! });
  return { inbox, state: queue.getState(), category: target.docType };
}

/** The row's text, tags stripped. */
function rowText(scan: InboxScanView, ports: ReturnType<typeof setup>): string {
  const html = renderToStaticMarkup(
    <ScanRow
      scan={scan}
      inbox={ports.inbox}
      state={ports.state}
      category={ports.category}
      checked={false}
      onToggle={() => undefined}
    />,
  );
  return html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
}

describe('Scanner inbox panel', () => {
  it("a scan the kiosk read as another form says so on its row, in the panel's category", () => {
    const interest = scanOf('interest.jpg', { form: '1099-INT', year: 2024 });
    const w2 = scanOf('w2.jpg', { form: W2 });
    const unread = scanOf('unread.jpg');
    const ports = setup([interest, w2, unread]);
    expect(rowText(interest, ports)).toContain(' This looks like a 1099-INT, not a W-2. ');
    // No Move button in the inbox: the volunteer opens the right category and uploads the scan there.
    expect(rowText(interest, ports)).not.toContain('Move to');
    expect(rowText(w2, ports)).not.toContain('This looks like');
    expect(rowText(unread, ports)).not.toContain('This looks like');
  });
});
