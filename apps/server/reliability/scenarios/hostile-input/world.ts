/**
 * The world the requests point at: an admin, two volunteers with clients and documents, victims to
 * approve and delete, an orphaned client, signed upload and download links; and one signed-in
 * browser (its cookies readable) per identity.
 */
import { createHash } from 'node:crypto';
import { FIXED_CATEGORIES, createApiClient, readCsrfToken, type ApiClient } from '@vita-docs/core';
import { createCookieJarFetch } from '@vita-docs/core/testing';
import {
  VOLUNTEER_PIN,
  latestCode,
  newClient,
  openBrowser,
  randomPdf,
  setUpProgramme,
  upload,
  type Browser,
} from '../../harness.js';
import type { World } from './spec.js';
import type { Identity } from './wire.js';

/** A browser of our own (its cookies readable), signed in through PIN and emailed code unless anonymous. */
export async function session(
  url: string,
  email?: string,
  pin?: string,
): Promise<{ identity: Identity; api: ApiClient }> {
  const jar = createCookieJarFetch((input, init) => fetch(input, init), { pageUrl: url });
  const api = createApiClient({ baseUrl: `${url}/api`, fetch: jar.fetch, getCookie: jar.getCookie });
  await jar.fetch(`${url}/api/me`).then((res) => res.body?.cancel());
  if (email && pin) {
    const before = ((await (await fetch(`${url}/api/dev/outbox`)).json()) as unknown[]).length;
    await api.loginInit({ body: { email, pin } });
    await api.loginVerify({ body: { email, code: await latestCode(url, email, before) } });
  }
  return { identity: { cookie: jar.cookieHeader(), csrf: readCsrfToken(jar.getCookie) ?? '' }, api };
}

const VICTIMS = ['victim0@fuzz.test', 'victim1@fuzz.test', 'victim2@fuzz.test', 'victim3@fuzz.test'];

/** Victims registered (three approved), and an orphaned client: its volunteer's account is deleted. */
async function addVictims(url: string, admin: Browser): Promise<World> {
  for (const [i, email] of VICTIMS.entries()) {
    await openBrowser(url).api.register({
      body: { firstName: 'Victim', lastName: `Number ${i}`, email, pin: VOLUNTEER_PIN },
    });
    if (i < 3) await admin.api.approveUser({ params: { email }, body: { approved: true } });
  }
  const leaving = await session(url, 'victim2@fuzz.test', VOLUNTEER_PIN);
  const orphan = await leaving.api.createClient({
    body: { firstName: 'Orphan', lastName: 'Client', email: 'orphan@client.test', phone: '555 010 0177' },
  });
  await admin.api.deleteUser({ params: { email: 'victim2@fuzz.test' } });
  return {
    ownClientIds: [],
    otherClientIds: [],
    orphanClientIds: [orphan.client.clientId],
    clientEmails: ['orphan@client.test'],
    victimEmails: VICTIMS,
    docTypes: [...FIXED_CATEGORIES],
    keys: [],
  };
}

/** Three clients for the first volunteer, two for the second, each with a document; returns the first document's key. */
async function addClients(world: World, volunteers: readonly Browser[]): Promise<string> {
  let anchor = '';
  for (const [v, browser] of volunteers.entries()) {
    for (let c = 0; c < (v === 0 ? 3 : 2); c += 1) {
      const label = `Fuzz${v}x${c}`;
      const clientId = await newClient(browser, label);
      (v === 0 ? world.ownClientIds : world.otherClientIds).push(clientId);
      world.clientEmails.push(`${label.toLowerCase()}@client.test`);
      const key = await upload(
        browser,
        clientId,
        'Banking Info',
        `statement ${v}-${c}.pdf`,
        randomPdf(3_000),
      );
      if (!anchor) anchor = key;
      else world.keys.push(key);
      if (c === 0) {
        const added = await browser.api.addDocType({
          params: { id: clientId },
          body: { template: 'W-2', note: `Acme ${v}, Inc.` },
        });
        world.docTypes.push(added.docType);
      }
    }
  }
  return anchor;
}

/** Upload URLs to tamper with: some with a declared size and digest, some without. */
async function uploadLinks(vol0: Browser, clientId: string): Promise<string[]> {
  const putTemplates: string[] = [];
  for (let i = 0; i < 6; i += 1) {
    const declared =
      i < 4 ? { size: 4_096, sha256: createHash('sha256').update(String(i)).digest('hex') } : {};
    const presigned = await vol0.api.presignUpload({
      params: { id: clientId },
      body: {
        docType: 'Banking Info',
        filename: `fuzz ${i}.pdf`,
        contentType: 'application/pdf',
        ...declared,
      },
    });
    putTemplates.push(new URL(presigned.url).search.slice(1));
  }
  return putTemplates;
}

export async function buildWorld(url: string) {
  const { admin, volunteers } = await setUpProgramme(url, 2);
  const [vol0, vol1] = volunteers;
  if (!vol0 || !vol1) throw new Error('two volunteers were set up');
  const world = await addVictims(url, admin);
  const anchor = await addClients(world, [vol0, vol1]);
  const putTemplates = await uploadLinks(vol0, world.ownClientIds[0] ?? '');
  // The slow upload's own link: one the requests above can never use up.
  const slowUpload = await vol0.api.presignUpload({
    params: { id: world.ownClientIds[0] ?? '' },
    body: { docType: 'Banking Info', filename: 'slow.pdf', contentType: 'application/pdf' },
  });
  // Download URLs live a minute: the template is renewed while the run goes on.
  let getTemplate = '';
  const renewGet = async () => {
    const signed = await admin.api.presignGet({ body: { key: anchor } });
    getTemplate = new URL(signed.url).search.slice(1);
  };
  await renewGet();
  return {
    world,
    putTemplates,
    slowPut: new URL(slowUpload.url).search.slice(1),
    getTemplate: () => getTemplate,
    renewGet,
  };
}
