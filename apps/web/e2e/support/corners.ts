// What the Adjust corners journeys (corners*.test.ts) share: the editor's handles dragged with the
// mouse, and the grey that tells paper from the table at a stored PDF's edges.
import type { Locator, Page } from '@playwright/test';

/** Paper reads above this grey at the PDF's edges; the dark table well below it. */
export const PAPER = 170;

/** Drags a handle of the open editor to a point of the photo (shares of its sides). */
export async function dragHandle(page: Page, dialog: Locator, handle: string, to: { x: number; y: number }) {
  const from = await dialog.getByRole('button', { name: handle, exact: true }).boundingBox();
  const photo = await dialog.getByRole('img').boundingBox();
  if (!from || !photo) throw new Error('the editor shows no photo');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(photo.x + photo.width * to.x, photo.y + photo.height * to.y, { steps: 8 });
  await page.mouse.up();
}
