/**
 * The headless intake's end-to-end tests' shared world (intake*.e2e.test.ts): the real server with
 * the desk's admin and client (desk-server.ts), a real scanner folder, and the intake spawned as the
 * CLI and signed in with the emailed code. `intakeWorld()` registers the file's hooks: the world is
 * made before its tests, each test's intakes are stopped after it, everything goes after the file.
 */
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiClient } from '@vita-docs/core';
import type { TestServer } from '@vita-docs/test-server';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { removeFolder, tempFolder, testPdf } from '../src/main/inbox/test-support.js';
import type { ServerFetch } from '../src/main/server-fetch.js';
import { EMAIL, PIN, startDeskServer } from './desk-server.js';
import { spawnIntake, type IntakeProcess } from './intake-process.js';

export interface IntakeWorld {
  server: TestServer;
  api: ApiClient;
  transport: ServerFetch;
  clientId: string;
  /** The scanner folder the intakes watch. */
  folder: string;
  /** Starts an intake as the CLI does (its flags after `--`); stopped after the test. */
  spawn: (args: string[]) => IntakeProcess;
  /** Starts the intake and signs it in; resolves once it says how it follows the folder (`ready`). */
  signedInIntake: (extra?: string[], category?: string, ready?: RegExp) => Promise<IntakeProcess>;
  /** Drops a scan the way a scanner does: written under a temporary name, then renamed. */
  scan: (name: string, bytes: Uint8Array) => Promise<void>;
  /** The category's stored files, by name and type. */
  listing: (docType: string) => Promise<{ filename: string; contentType: string }[]>;
}

/** A one-page PDF; the title makes each one's bytes (and sha256) its own, so none is a duplicate. */
export const pdf = (title: string) => testPdf(title);
/** A plain image of that size, to encode as JPEG or PNG. */
export const image = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } });

export function intakeWorld(): IntakeWorld {
  const running: IntakeProcess[] = [];
  const world = {} as IntakeWorld;
  const spawn = (args: string[]) => {
    const intake = spawnIntake(args);
    running.push(intake);
    return intake;
  };
  Object.assign(world, {
    spawn,
    async signedInIntake(extra: string[] = [], category = 'W-2', ready = /^Watching /) {
      const { server, folder, clientId } = world;
      const intake = spawn([
        '--',
        '--server',
        server.url,
        '--folder',
        folder,
        '--client',
        clientId,
        '--category',
        category,
        '--email',
        EMAIL,
        ...extra,
      ]);
      const asked = Date.now() - 1000;
      intake.answer(PIN);
      await intake.note(/Code from the email/);
      intake.answer(await server.latestCode(EMAIL, { after: asked, timeoutMs: 30_000 }));
      await intake.note(ready);
      return intake;
    },
    async scan(name: string, bytes: Uint8Array) {
      const temp = join(world.folder, `${name}.~tmp`);
      await writeFile(temp, bytes);
      await rename(temp, join(world.folder, name));
    },
    async listing(docType: string) {
      const { items } = await world.api.listDocs({ params: { id: world.clientId }, query: { docType } });
      return items.map((item) => ({ filename: item.filename, contentType: item.contentType }));
    },
  });

  beforeAll(async () => {
    Object.assign(world, await startDeskServer());
    await world.api.addDocType({ params: { id: world.clientId }, body: { template: '1099-NEC' } });
    world.folder = await tempFolder('vita-intake-');
  }, 120_000);

  afterEach(async () => {
    // A failed test must not leave its intake watching the folder for the next one.
    for (const intake of running.splice(0)) await intake.interrupt();
  });

  afterAll(async () => {
    await world.server?.stop({ keepData: false });
    if (world.folder) await removeFolder(world.folder);
  });
  return world;
}
