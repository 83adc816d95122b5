/**
 * A hostile PDF dropped in the scanner folder, read at the desk as any scan is (plain Node, the real
 * inbox host and Node reader): main's thread stays free and the next scan is still read.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { longestBusySpell } from '@vita-docs/test-server/event-loop';
import { describe, expect, it } from 'vitest';
import { inboxHostWorld, manyInlineImagesPdf, MOVE, scannedPage } from '../src/main/inbox/test-support.js';

const world = inboxHostWorld();
const { nextState } = world;

describe('the kiosk reads a hostile scan', () => {
  it("a hostile PDF in the folder holds neither main's thread nor the next scan's reading", async () => {
    await world.host.configure(world.folder, MOVE);
    // Made first: making them is the test's work, not the desk's.
    const hostile = await manyInlineImagesPdf(200_000);
    const interest = await scannedPage(['Form 1099-INT', 'Interest Income', 'For calendar year 2024']);
    const busy = await longestBusySpell(async () => {
      await writeFile(join(world.folder, 'hostile.pdf'), hostile);
      await nextState((s) => s.scans.some((scan) => scan.name === 'hostile.pdf'));
      await writeFile(join(world.folder, 'interest.jpg'), interest);
      // Read in order: once the scan after it has its reading, the hostile one was read.
      const after = await nextState((s) => s.scans.some((scan) => scan.reading?.form === '1099-INT'));
      expect(after.scans.find((scan) => scan.name === 'hostile.pdf')?.reading).toBeUndefined();
    });
    console.info(
      `a hostile PDF at the desk: main's event loop was busy at most ${Math.round(busy)} ms at a time`,
    );
    // Read in main's thread (as before the reader host), it held it 3.8 s.
    expect(busy).toBeLessThan(500);
  }, 60_000);
});
