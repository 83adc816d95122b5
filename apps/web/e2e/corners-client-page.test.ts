// Ajustar esquinas on the client page (docs/behaviour.md#straightened-pages), at phone size in Spanish:
// a photo waiting for its answer stored whole, a handle dragged out into the wood, and a reload before
// the new PDF is made (the phone kept the photo with its corners). The category screen: corners.test.ts.
import sharp from 'sharp';
import { person } from './support/api.js';
import { clientPageWorld } from './support/client-page.js';
import { listDocs, storedBytes } from './support/documents.js';
import { seeHeading } from './support/journeys.js';
import { eventually, keptSizes, LINK_JOURNAL_DB } from './support/kept.js';
import { dragHandle, PAPER } from './support/corners.js';
import { edgeGreys, holdImageWork, pageImageSize, setPhoto } from './support/page-image.js';
import { checkScreen } from './support/screens.js';
import { expect, test } from './support/test.js';

const admin = person('Amy', 'Admin');
const vera = person('Vera', 'Corners');

test.describe('Ajustar esquinas on the client page', () => {
  test.describe.configure({ mode: 'serial' });
  const world = clientPageWorld(admin, vera);

  /** The keys stored in Banking Info now. */
  const storedKeys = async () =>
    new Set((await listDocs(world.staff.page, world.clientId, 'Banking Info')).map((doc) => doc.key));
  /** Once a PDF is stored in Banking Info besides `before`'s: its edge greys. */
  async function storedSince(before: Set<string>) {
    await expect
      .poll(async () => (await listDocs(world.staff.page, world.clientId, 'Banking Info')).length)
      .toBe(before.size + 1);
    const added = (await listDocs(world.staff.page, world.clientId, 'Banking Info')).find(
      (doc) => !before.has(doc.key),
    );
    return edgeGreys(await storedBytes(world.staff.page, added?.key ?? ''));
  }

  test('a photo waiting for its answer: Usar la foto completa, Guardar, then stored whole', async () => {
    const page = world.client.page;
    const form = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { level: 2, name: 'Banking Info', exact: true }) });
    // The glare photo waits for the client's answer, so its corners can be adjusted before it goes.
    await form
      .getByLabel('Tomar foto', { exact: true })
      .setInputFiles([await setPhoto('01-wood.jpg', 'glare.jpg')]);
    await form.getByRole('button', { name: /^Ajustar esquinas / }).click();
    const dialog = page.getByRole('dialog', { name: 'Ajustar esquinas' });
    const handle = dialog.getByRole('button', { name: 'Esquina superior izquierda' });
    await handle.waitFor();
    await checkScreen(page, 'ajustar-esquinas');
    await dragHandle(page, dialog, 'Esquina superior izquierda', { x: 0.5, y: 0.5 });
    await dialog.getByRole('button', { name: 'Restablecer' }).click();
    await dialog.getByRole('button', { name: 'Usar la foto completa' }).click();
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect(dialog).toBeHidden();
    await form.getByRole('button', { name: /^Usarla así / }).click();
    await expect
      .poll(async () => (await listDocs(world.staff.page, world.clientId, 'Banking Info')).length)
      .toBe(1);
    const [doc] = await listDocs(world.staff.page, world.clientId, 'Banking Info');
    // The whole photo, wider than tall as it was taken, not the page found in it (taller than wide).
    const size = await pageImageSize(await storedBytes(world.staff.page, doc?.key ?? ''));
    const photo = await sharp((await setPhoto('01-wood.jpg', 'glare.jpg')).buffer).metadata();
    expect(size.width / size.height).toBeCloseTo((photo.width ?? 0) / (photo.height ?? 1), 1);
  });

  test('Ajustar esquinas: a handle dragged out into the wood, Guardar, and the PDF takes the wood in', async () => {
    const page = world.client.page;
    const form = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { level: 2, name: 'Banking Info', exact: true }) });
    const before = await storedKeys();
    await form
      .getByLabel('Tomar foto', { exact: true })
      .setInputFiles([await setPhoto('01-wood.jpg', 'glare.jpg')]);
    await form.getByRole('button', { name: /^Ajustar esquinas / }).click();
    const dialog = page.getByRole('dialog', { name: 'Ajustar esquinas' });
    await dialog.getByRole('button', { name: 'Esquina superior izquierda' }).waitFor();
    await dragHandle(page, dialog, 'Esquina superior izquierda', { x: 0.02, y: 0.02 });
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect(dialog).toBeHidden();
    await form.getByRole('button', { name: /^Usarla así / }).click();
    const [top, , , left] = await storedSince(before);
    // The wood (grey about 30) now at the page's top-left; the page found alone is paper all round.
    expect(Math.min(top ?? 255, left ?? 255)).toBeLessThan(PAPER);
  });

  test('Guardar, then a reload before the new PDF is made: the phone kept the photo with the corners, and the PDF takes the wood in', async () => {
    const page = world.client.page;
    const form = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { level: 2, name: 'Banking Info', exact: true }) });
    const before = await storedKeys();
    const photo = await setPhoto('01-wood.jpg', 'glare.jpg');
    await form.getByLabel('Tomar foto', { exact: true }).setInputFiles([photo]);
    await form.getByRole('button', { name: /^Ajustar esquinas / }).click();
    const dialog = page.getByRole('dialog', { name: 'Ajustar esquinas' });
    await dialog.getByRole('button', { name: 'Esquina superior izquierda' }).waitFor();
    await dragHandle(page, dialog, 'Esquina superior izquierda', { x: 0.02, y: 0.02 });
    // The new PDF is never made on this page: the reload comes while it is being made.
    await holdImageWork(page);
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect(dialog).toBeHidden();
    // What the phone keeps for the row is the photo now, not the PDF made with the corners found.
    await eventually(async () =>
      expect(await keptSizes(page, LINK_JOURNAL_DB)).toEqual([photo.buffer.length]),
    );

    await page.reload();
    await seeHeading(page, 'Hola Dora, por favor agregue estos documentos');
    // Its glare still waits for the client's answer after the reload: nothing goes unasked.
    await form.getByRole('button', { name: /^Usarla así / }).waitFor();
    expect((await listDocs(world.staff.page, world.clientId, 'Banking Info')).length).toBe(before.size);
    await form.getByRole('button', { name: /^Usarla así / }).click();
    const [top, , , left] = await storedSince(before);
    expect(Math.min(top ?? 255, left ?? 255)).toBeLessThan(PAPER);
    await eventually(async () => expect(await keptSizes(page, LINK_JOURNAL_DB)).toEqual([]));
  });
});
