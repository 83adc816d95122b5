/**
 * The headless intake through outages (intake-world.ts): scans that arrive while the server is down
 * wait in the folder and go once it is back, each exactly once; scans that arrive while the intake
 * itself is stopped go when it starts again, and nothing is repeated.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { image, intakeWorld, pdf } from './intake-world.js';

const world = intakeWorld();
const { signedInIntake, scan, listing } = world;

describe('headless intake through outages', () => {
  it('keeps scans while the server is down and uploads each exactly once when it is back', async () => {
    const intake = await signedInIntake();
    await world.server.stop();
    await scan('late-1.pdf', await pdf('late 1'));
    await scan('late-2.png', await image(640, 480).png().toBuffer());
    await intake.line(/^failed late-1\.pdf: /);
    await intake.line(/^failed late-2\.png: /);
    expect((await stat(join(world.folder, 'late-1.pdf'))).isFile()).toBe(true);
    expect((await stat(join(world.folder, 'late-2.png'))).isFile()).toBe(true);

    await world.server.restart();
    await intake.line(/^uploaded late-1\.pdf -> late-1\.pdf/, 150_000);
    await intake.line(/^uploaded late-2\.png -> late-2\.pdf/, 150_000);
    const names = (await listing('W-2')).map((item) => item.filename);
    expect(names.filter((name) => name === 'late-1.pdf')).toHaveLength(1);
    expect(names.filter((name) => name === 'late-2.pdf')).toHaveLength(1);
    expect(intake.stdout.filter((line) => line.startsWith('uploaded late-'))).toHaveLength(2);
    expect(await intake.interrupt()).toBe(0);
  }, 300_000);

  it('after a restart of the intake, uploads what arrived meanwhile and repeats nothing', async () => {
    await scan('while-off.pdf', await pdf('while off'));
    const before = (await listing('W-2')).length;
    const intake = await signedInIntake();
    await intake.line(/^uploaded while-off\.pdf -> while-off\.pdf/);
    await scan('sentinel.pdf', await pdf('sentinel'));
    await intake.line(/^uploaded sentinel\.pdf/);
    expect(intake.stdout.filter((line) => line.startsWith('uploaded'))).toHaveLength(2);
    expect((await listing('W-2')).length).toBe(before + 2);
    expect(await intake.interrupt()).toBe(0);
  }, 240_000);
});
