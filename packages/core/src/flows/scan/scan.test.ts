import { describe, expect, it } from 'vitest';
import type { ScanPage } from '../../pdf/scan-page.js';
import type { FileLike } from '../../ports.js';
import { createRecordingDialogs, createTestFile } from '../../testing/index.js';
import { clientScanTexts } from '../../client-link/capture-texts.js';
import { createScanFlow } from './scan.js';
import type { ScanFlowOptions } from './scan.js';

const photo = (name: string) => createTestFile(name, 'jpeg', 'image/jpeg');

function setup(options: Partial<ScanFlowOptions> = {}) {
  const platform = createRecordingDialogs();
  const built: { pages: readonly ScanPage[]; name: string }[] = [];
  const scanned: FileLike[] = [];
  const flow = createScanFlow({
    build: async (pages, name) => {
      built.push({ pages, name });
      return createTestFile(name, '%PDF-1.7', 'application/pdf');
    },
    canUse: async (file) => !file.name.endsWith('.heic') && !file.name.endsWith('.docx'),
    inspect: async (file) => (file.name.startsWith('dark') ? ['tooDark'] : []),
    platform,
    // 3 February 2026, 14:05 local time.
    clock: { now: () => new Date(2026, 1, 3, 14, 5, 59).getTime() },
    onScanned: (file) => void scanned.push(file),
    ...options,
  });
  const names = () => flow.getState().pages.map((p) => p.file.name);
  const id = (name: string) => flow.getState().pages.find((p) => p.file.name === name)?.id ?? '';
  return { flow, platform, built, scanned, names, id };
}

describe('Scan pages', () => {
  it('adds, turns, reorders and removes pages, then makes one PDF named after the time and closes', async () => {
    const { flow, built, scanned, names, id } = setup();
    await flow.send({ type: 'open' });
    await flow.send({ type: 'add', files: [photo('1.jpg'), photo('2.jpg'), photo('3.jpg'), photo('4.jpg')] });
    await flow.send({ type: 'rotate', id: id('2.jpg'), by: 90 });
    await flow.send({ type: 'rotate', id: id('3.jpg'), by: -90 });
    await flow.send({ type: 'move', id: id('3.jpg'), by: -1 });
    await flow.send({ type: 'move', id: id('1.jpg'), by: -1 }); // already first: stays
    await flow.send({ type: 'remove', id: id('4.jpg') });
    expect(names()).toEqual(['1.jpg', '3.jpg', '2.jpg']);

    await flow.send({ type: 'done' });
    expect(built).toHaveLength(1);
    expect(built[0]?.name).toBe('Scan 2026-02-03 14-05.pdf');
    expect(built[0]?.pages.map((p) => [p.file.name, p.rotate])).toEqual([
      ['1.jpg', 0],
      ['3.jpg', 270],
      ['2.jpg', 90],
    ]);
    expect(scanned.map((f) => f.name)).toEqual(['Scan 2026-02-03 14-05.pdf']);
    expect(flow.getState()).toEqual({ status: 'closed', pages: [] });
  });

  it('a page is retaken in its place: unturned, checked afresh, the others untouched', async () => {
    const { flow, names, id } = setup();
    await flow.send({ type: 'open' });
    await flow.send({ type: 'add', files: [photo('1.jpg'), photo('dark-2.jpg'), photo('3.jpg')] });
    const second = id('dark-2.jpg');
    await flow.send({ type: 'rotate', id: second, by: 90 });
    expect(flow.getState().pages[1]?.warnings).toEqual(['tooDark']);
    await flow.send({ type: 'replace', id: second, file: photo('2-again.jpg') });
    expect(names()).toEqual(['1.jpg', '2-again.jpg', '3.jpg']);
    expect(flow.getState().pages[1]).toMatchObject({ id: second, rotate: 0, warnings: [] });
    await flow.send({ type: 'replace', id: second, file: photo('dark-again.jpg') });
    expect(flow.getState().pages[1]?.warnings).toEqual(['tooDark']);
    await flow.send({ type: 'replace', id: second, file: photo('page.heic') });
    expect(names()).toEqual(['1.jpg', 'dark-again.jpg', '3.jpg']);
    expect(flow.getState().error).toBeDefined();
  });

  it('shows each page’s quality warnings', async () => {
    const { flow } = setup();
    await flow.send({ type: 'open' });
    await flow.send({ type: 'add', files: [photo('dark.jpg'), photo('fine.jpg')] });
    expect(flow.getState().pages.map((p) => p.warnings)).toEqual([['tooDark'], []]);
  });

  it('refuses files that cannot be pages, and pages past 30, saying why', async () => {
    const { flow, names } = setup();
    await flow.send({ type: 'open' });
    await flow.send({
      type: 'add',
      files: [
        photo('a.jpg'),
        createTestFile('IMG_1.heic', 'x', 'image/heic'),
        createTestFile('notes.docx', 'x'),
      ],
    });
    expect(names()).toEqual(['a.jpg']);
    expect(flow.getState().error).toBe(
      'These files cannot be scan pages: IMG_1.heic, notes.docx. Add photos (JPEG, PNG, WebP or BMP), or use Upload files.',
    );
    await flow.send({ type: 'add', files: Array.from({ length: 30 }, (_, i) => photo(`p${i}.jpg`)) });
    expect(names()).toHaveLength(30);
    expect(names().at(-1)).toBe('p28.jpg');
    expect(flow.getState().error).toBe('A scan can have at most 30 pages.');
  });

  it('Cancel asks before discarding pages; No keeps them', async () => {
    const { flow, platform } = setup();
    await flow.send({ type: 'open' });
    await flow.send({ type: 'cancel' }); // nothing to lose: no question
    expect(platform.confirms).toEqual([]);
    expect(flow.getState().status).toBe('closed');

    await flow.send({ type: 'open' });
    await flow.send({ type: 'add', files: [photo('1.jpg'), photo('2.jpg')] });
    platform.answerConfirms(false, true);
    await flow.send({ type: 'cancel' });
    expect(platform.confirms).toEqual(['Discard the 2 scanned pages?']);
    expect(flow.getState().pages).toHaveLength(2);
    await flow.send({ type: 'cancel' });
    expect(flow.getState()).toEqual({ status: 'closed', pages: [] });
  });

  it('a PDF that cannot be made keeps the pages and says why', async () => {
    const { flow, scanned } = setup({
      build: async () => {
        throw new Error('Page 2 (b.jpg) could not be converted: bad JPEG');
      },
    });
    await flow.send({ type: 'open' });
    await flow.send({ type: 'add', files: [photo('a.jpg'), photo('b.jpg')] });
    await flow.send({ type: 'done' });
    expect(scanned).toEqual([]);
    expect(flow.getState()).toMatchObject({
      status: 'editing',
      error: 'The scan could not be made into a PDF: Page 2 (b.jpg) could not be converted: bad JPEG',
    });
    expect(flow.getState().pages).toHaveLength(2);
  });

  it('says what it says in the words it is given, asked afresh each time (the client page in Spanish)', async () => {
    let language: 'en' | 'es' = 'es';
    const { flow, platform } = setup({ texts: () => clientScanTexts(language) });
    await flow.send({ type: 'open' });
    await flow.send({
      type: 'add',
      files: [photo('1.jpg'), createTestFile('a.docx', 'x', 'application/msword')],
    });
    expect(flow.getState().error).toBe(
      'Estos archivos no pueden ser páginas: a.docx. Agregue fotos (JPEG, PNG, WebP o BMP) o use Subir archivos.',
    );
    platform.answerConfirms(false, false);
    await flow.send({ type: 'cancel' });
    language = 'en';
    await flow.send({ type: 'cancel' });
    expect(platform.confirms).toEqual(['¿Descartar la página escaneada?', 'Discard the scanned page?']);
  });
});
