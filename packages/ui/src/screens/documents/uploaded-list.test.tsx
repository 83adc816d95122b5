import {
  createFileListFlow,
  createFileViewerFlow,
  createRenameFlow,
  createRetakeFlow,
  createUploadFlow,
  duplicateNote,
} from '@vita-docs/core';
import type { FileLike, QualityWarning } from '@vita-docs/core';
import {
  createFakeApi,
  createMemoryStorage,
  createRecordingDialogs,
  createTestFile,
} from '@vita-docs/core/testing';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RowNotes } from './row-notes';
import { UploadedList } from './uploaded-list';
import type { CategoryFlows } from './use-category-flows';

const W2 = 'W-2';
const statementBytes = () => new TextEncoder().encode('%PDF-1.7 bank statement');

/** The category screen's flows over the fake server, wired as `useCategoryFlows` wires them. */
function setup(retakeCheck: readonly QualityWarning[] = []) {
  const api = createFakeApi();
  const { clientId } = api.addClient({ firstName: 'Ada', createdBy: 'vera@example.org' });
  const platform = createRecordingDialogs();
  const target = { clientId, docType: W2 };
  const list = createFileListFlow({ api, platform, target });
  const common = {
    api,
    putFile: api.putFile,
    convert: async (file: FileLike) => file,
    storage: createMemoryStorage(),
    platform,
    target,
    refresh: () => list.send({ type: 'refresh' }),
  };
  const flows: CategoryFlows = {
    list,
    retake: createRetakeFlow({ ...common, inspect: () => Promise.resolve(retakeCheck) }),
    rename: createRenameFlow({
      api,
      platform,
      onRenamed: (change) => list.send({ type: 'renamed', ...change }),
    }),
    viewer: createFileViewerFlow({ api, platform }),
  };
  // The category's queue, which refreshes the same list (category-upload.tsx wires it so).
  const upload = createUploadFlow(common);
  return { api, clientId, platform, flows, upload };
}

/** The text of one row of the rendered list, tags stripped. */
function rowText(html: string, filename: string): string {
  const row = html.split('<li').find((part) => part.includes(`>${filename}</span>`));
  return (row ?? '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
}

describe('Uploaded list', () => {
  it('an uploaded file with the same bytes as one in another category says so under its name', async () => {
    const { api, clientId, platform, flows, upload } = setup();
    api.addDoc(clientId, 'Banking Info', 'statement.pdf', { bytes: statementBytes() });
    api.addDoc(clientId, W2, 'w2.pdf');

    await upload.send({
      type: 'add',
      files: [createTestFile('copy.pdf', statementBytes(), 'application/pdf')],
    });
    await upload.send({ type: 'upload' });
    expect(platform.alerts).toEqual([]);

    const html = renderToStaticMarkup(<UploadedList flows={flows} />);
    expect(duplicateNote({ filename: 'statement.pdf', docType: 'Banking Info' })).toBe(
      'Same file as statement.pdf in Banking Info',
    );
    expect(rowText(html, 'copy.pdf')).toContain(' copy.pdf Same file as statement.pdf in Banking Info ');
    expect(rowText(html, 'w2.pdf')).not.toContain('Same file as');
  });

  it('a blurry retake shows its warning with Keep anyway and Cancel on the row, and replaces nothing yet', async () => {
    const { api, clientId, flows } = setup(['blurry']);
    const old = api.addDoc(clientId, W2, 'W-2 1.pdf');
    await flows.list.send({ type: 'refresh' });
    const photo = createTestFile('image.jpg', 'jpeg', 'image/jpeg');
    await flows.retake.send({ type: 'retake', key: old.key, filename: 'W-2 1.pdf', file: photo });

    // The row's notes come with the upload part (a chunk of their own), rendered here as the row does.
    const item = flows.list.getState().items.find((i) => i.key === old.key)!;
    const html = renderToStaticMarkup(
      <RowNotes item={item} flows={flows} retake={flows.retake.getState()} />,
    );
    const notes = html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(notes).toContain(' This photo looks blurry. ');
    expect(notes).toContain(' Keep anyway ');
    expect(notes).toContain(' Cancel ');
    expect(renderToStaticMarkup(<UploadedList flows={flows} />)).toContain('W-2 1.pdf');
    expect(api.callNames()).not.toContain('presignUpload');

    await flows.retake.send({ type: 'keep' });
    expect(api.world.docs.has(old.key)).toBe(false);
    expect([...api.world.docs.values()].map((d) => d.item.filename)).toEqual(['W-2 1.jpg']);
  });
});
