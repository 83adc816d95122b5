import { describe, expect, it } from 'vitest';
import { uploadDocument } from '../api/upload.js';
import { createFakeApi, createTestFile } from './index.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const ABC_SHA256 = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

function setup() {
  const api = createFakeApi();
  const ada = api.addClient({ firstName: 'Ada', createdBy: 'vera@example.org' });
  const ben = api.addClient({ firstName: 'Ben', createdBy: 'vera@example.org' });
  const list = async (clientId: string, docType: string) =>
    (await api.listDocs({ params: { id: clientId }, query: { docType } })).items;
  return { api, ada: ada.clientId, ben: ben.clientId, list };
}

describe('fake server: verified uploads', () => {
  it('signs the announced checksum into the upload, checks it on complete and lists the file with it', async () => {
    const { api, ada, list } = setup();
    const presigned = await api.presignUpload({
      params: { id: ada },
      body: {
        docType: 'W-2',
        filename: 'w2.pdf',
        contentType: 'application/pdf',
        size: 3,
        sha256: ABC_SHA256,
      },
    });
    expect(presigned.headers).toEqual({
      'x-amz-checksum-sha256': 'ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=',
    });
    // Without the signed header the store refuses the PUT, as S3 does.
    expect(
      await api.putFile(presigned.url, createTestFile('w2.pdf', 'abc'), 'application/pdf'),
    ).toMatchObject({ status: 403 });
    expect(
      await api.putFile(
        presigned.url,
        createTestFile('w2.pdf', 'abc'),
        'application/pdf',
        undefined,
        presigned.headers,
      ),
    ).toMatchObject({
      ok: true,
    });

    const { item } = await api.completeUpload({ body: { key: presigned.key } });
    expect(item).toMatchObject({ key: presigned.key, size: 3, sha256: ABC_SHA256 });
    expect(item.duplicateOf).toBeUndefined();
    expect(await list(ada, 'W-2')).toEqual([item]);
  });

  it('a complete whose bytes differ from the announced ones is refused with 400 and the file is gone', async () => {
    const { api, ada, list } = setup();
    const presigned = await api.presignUpload({
      params: { id: ada },
      body: { docType: 'W-2', filename: 'w2.pdf', contentType: 'application/pdf', size: 4 },
    });
    await api.putFile(presigned.url, createTestFile('w2.pdf', 'abc'), 'application/pdf');
    await expect(api.completeUpload({ body: { key: presigned.key } })).rejects.toMatchObject({ status: 400 });
    expect(await list(ada, 'W-2')).toEqual([]);
  });

  it('uploadDocument goes through presign, PUT and complete', async () => {
    const { api, ada, list } = setup();
    const key = await uploadDocument(
      api,
      api.putFile,
      { clientId: ada, docType: 'W-2' },
      createTestFile('w2.pdf', 'abc'),
    );
    expect(api.callNames()).toEqual(['presignUpload', 'completeUpload']);
    expect(await list(ada, 'W-2')).toEqual([expect.objectContaining({ key, sha256: ABC_SHA256 })]);
  });
});

describe('fake server: duplicates', () => {
  it('names the earliest other file of the same client with the same bytes, in any category', async () => {
    const { api, ada, ben, list } = setup();
    // Added out of order. By number 900 comes first; by text `13614-C/1000_…` would sort before
    // `Banking%20Info/900_…`, and `1000` before `900`.
    const form = api.addDoc(ada, '13614-C', 'form.pdf', { order: 1000, bytes: bytes('same') });
    api.addDoc(ada, 'W-2', 'copy.pdf', { order: 1500, bytes: bytes('same') });
    const statement = api.addDoc(ada, 'Banking Info', 'statement.pdf', { order: 900, bytes: bytes('same') });
    api.addDoc(ada, 'W-2', 'own.pdf', { order: 2000, bytes: bytes('different') });
    api.addDoc(ada, 'W-2', 'again.pdf', { order: 5000, bytes: bytes('same') });
    // Another client's identical file never counts.
    api.addDoc(ben, 'W-2', 'theirs.pdf', { order: 1, bytes: bytes('same') });

    const items = await list(ada, 'W-2');
    expect(items.map((i) => [i.filename, i.duplicateOf])).toEqual([
      ['copy.pdf', { key: statement.key, filename: 'statement.pdf', docType: 'Banking Info' }],
      ['own.pdf', undefined],
      ['again.pdf', { key: statement.key, filename: 'statement.pdf', docType: 'Banking Info' }],
    ]);
    // The earliest file itself points at the earliest of the others.
    expect((await list(ada, 'Banking Info'))[0]?.duplicateOf).toEqual({
      key: form.key,
      filename: 'form.pdf',
      docType: '13614-C',
    });
    expect((await list(ben, 'W-2'))[0]?.duplicateOf).toBeUndefined();
  });

  it('files added without bytes are all different', async () => {
    const { api, ada, list } = setup();
    api.addDoc(ada, 'W-2', 'a.pdf');
    api.addDoc(ada, 'W-2', 'b.pdf');
    expect((await list(ada, 'W-2')).map((i) => i.duplicateOf)).toEqual([undefined, undefined]);
  });
});

describe('fake server: upload limit', () => {
  it('tells a signed-in caller the largest upload and refuses a presign declaring more with 413', async () => {
    const { api, ada } = setup();
    await expect(api.config()).rejects.toMatchObject({ status: 401 });
    api.addUser({ email: 'vera@example.org' });
    api.world.session = { email: 'vera@example.org' };
    api.world.maxUploadBytes = 1024 * 1024;
    expect(await api.config()).toEqual({ maxUploadBytes: 1024 * 1024 });
    const presign = (size: number) =>
      api.presignUpload({
        params: { id: ada },
        body: { docType: 'W-2', filename: 'big.pdf', contentType: 'application/pdf', size },
      });
    await expect(presign(1024 * 1024 + 1)).rejects.toMatchObject({
      status: 413,
      message: 'This file is larger than the 1 MB limit.',
    });
    await expect(presign(1024 * 1024)).resolves.toMatchObject({ key: expect.stringContaining('big.pdf') });
  });
});
