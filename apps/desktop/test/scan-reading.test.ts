/**
 * The kiosk reads each new scan on the device (main process, plain Node): a real folder watched by
 * the real inbox host, the real Node reader (tesseract.js with its English data from disk).
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inboxHostWorld, MOVE, scannedPage, scannedPdf } from '../src/main/inbox/test-support.js';

const world = inboxHostWorld();
const { nextState, states } = world;

describe('the kiosk reads its scans', () => {
  it('a 1099-INT scanned into the folder gets its form and year in the inbox snapshot', async () => {
    await world.host.configure(world.folder, MOVE);
    await writeFile(
      join(world.folder, 'interest.jpg'),
      await scannedPage([
        'Form 1099-INT',
        'Interest Income',
        'For calendar year 2024',
        '1 Interest income  $ 31.20',
      ]),
    );
    // Listed before it is read: reading never holds the inbox up.
    const listed = await nextState((s) => s.scans.some((scan) => scan.name === 'interest.jpg'));
    expect(listed.scans[0]?.reading).toBeUndefined();
    const read = await nextState((s) => s.scans.some((scan) => scan.reading !== undefined));
    expect(read.scans[0]?.reading).toEqual({ form: '1099-INT', year: 2024 });
    // Read once: nothing read again while it waits, and the upload goes as before.
    await world.host.markUploaded(read.scans[0]?.id ?? '');
    expect(world.host.state().scans).toEqual([]);
  }, 60_000);

  it('a 1099-INT a scanner wrote as a PDF with no text gets its form and year from the page image', async () => {
    await world.host.configure(world.folder, MOVE);
    await writeFile(
      join(world.folder, 'interest.pdf'),
      await scannedPdf([
        'Form 1099-INT',
        'Interest Income',
        'For calendar year 2024',
        '1 Interest income  $ 31.20',
      ]),
    );
    const read = await nextState((s) => s.scans.some((scan) => scan.reading !== undefined));
    expect(read.scans.find((scan) => scan.name === 'interest.pdf')?.reading).toEqual({
      form: '1099-INT',
      year: 2024,
    });
  }, 60_000);

  it('an unreadable scan (random bytes named .jpg) gets no reading and breaks nothing', async () => {
    await world.host.configure(world.folder, MOVE);
    // Plain noise never opens whole: a damaged scan, listed on the desk, never offered nor read.
    await writeFile(join(world.folder, 'noise.jpg'), randomBytes(4096));
    // Noise inside a JPEG's frame (its header, random scan data, its end marker) is offered: the reader gets it.
    const header = (await scannedPage(['x'])).subarray(0, 700);
    const framed = Buffer.concat([header, randomBytes(20_000), Buffer.from([0xff, 0xd9])]);
    await writeFile(join(world.folder, 'garbled.jpg'), framed);
    await nextState((s) => s.desk?.notices.some((n) => n.name === 'noise.jpg') ?? false);
    await nextState((s) => s.scans.some((scan) => scan.name === 'garbled.jpg'));
    // Read one at a time, in order: once the page scanned after it has its reading, the garbled one was tried.
    await writeFile(
      join(world.folder, 'interest.jpg'),
      await scannedPage(['Form 1099-INT', 'Interest Income', 'For calendar year 2024']),
    );
    const after = await nextState((s) => s.scans.some((scan) => scan.reading?.form === '1099-INT'));
    expect(after.scans.find((scan) => scan.name === 'garbled.jpg')).toMatchObject({ status: 'waiting' });
    expect(after.scans.find((scan) => scan.name === 'garbled.jpg')?.reading).toBeUndefined();
    expect(states.every((s) => s.error === undefined)).toBe(true);
  }, 60_000);
});
