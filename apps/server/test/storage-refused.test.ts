// A file store that refuses the server (a wrong secret key: 403 `SignatureDoesNotMatch`; an outage:
// 500) has not lost anything: the ZIP downloads fail with 503 before any ZIP byte, and the log says
// what S3 answered. Only an object S3 says is not there is named in MISSING-FILES.txt.
import { rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, upload } from './docs-helpers.js';
import { seedPeople, startApp, type Agent, type TestApp } from './harness.js';
import { objectPath } from '../src/storage/local-layout.js';
import { startS3rver, type S3Fault } from './s3rver.js';
import { samplePdf } from './storage.js';

/** Reads requests to objects (GET, HEAD) only: listings, writes and the rest still work. */
const objectReads = (fault: Omit<S3Fault, 'when'>, only?: string): S3Fault => ({
  ...fault,
  when: ({ method, url }) =>
    (method === 'GET' || method === 'HEAD') &&
    !url.includes('?list-type') &&
    (only === undefined || url.includes(only)),
});

describe('ZIP downloads while S3 refuses the server', () => {
  let app: TestApp;
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  let clientId: string;
  const keys: string[] = [];
  const lines: string[] = [];

  beforeAll(async () => {
    s3 = await startS3rver('vita-refused', { faults: true });
    app = await startApp(s3.env, { logLines: lines });
    people = await seedPeople(app);
    clientId = await createClient(people.volA);
    keys.push(await upload(people.volA, clientId, 'Banking Info', 'first.pdf', samplePdf('first')));
    keys.push(await upload(people.volA, clientId, 'Banking Info', 'second.pdf', samplePdf('second')));
    // Listing stores what arrived: both are documents of the index from here on.
    const listed = await people.volA.get(`/api/docs/list/${clientId}?docType=Banking%20Info`);
    expect(listed.body.items).toHaveLength(2);
  });
  afterAll(async () => {
    await app?.close();
    await s3?.close();
  });

  /** The download as a browser starts it: status, headers, and the body once read (or why it broke). */
  const download = async (agent: Agent, path: string) => {
    const res = await fetch(`${app.url}${path}`, {
      headers: { cookie: [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    const body = await res.arrayBuffer().then(
      (bytes) => Buffer.from(bytes),
      (error: unknown) => error as Error,
    );
    return { status: res.status, headers: res.headers, body };
  };

  const paths = () => ({
    'download-all': () => download(people.volA, `/api/clients/${clientId}/docs/download-all`),
    'season download': () => download(people.admin, '/api/admin/season/download'),
  });

  for (const [what, fault, status] of [
    ['a wrong secret key (403 SignatureDoesNotMatch)', { status: 403, code: 'SignatureDoesNotMatch' }, 403],
    ['an outage (500 without a body)', { status: 500 }, 500],
  ] as const) {
    it(`answers 503 before any ZIP byte for ${what}, and logs S3's status`, async () => {
      s3.fault(objectReads(fault));
      try {
        for (const [route, get] of Object.entries(paths())) {
          const from = lines.length;
          const res = await get();
          expect(res.status, route).toBe(503);
          expect(res.headers.get('content-type'), route).toMatch(/^application\/json/);
          expect(res.headers.get('retry-after'), route).toBe('5');
          expect(JSON.parse(String(res.body)), route).toEqual({
            error: expect.stringContaining('file store'),
            code: 'unavailable',
          });
          const logged = lines.slice(from).map((line) => JSON.parse(line) as Record<string, unknown>);
          const refusal = logged.find((l) => JSON.stringify(l).includes(`"httpStatusCode":${status}`));
          expect(refusal, `${route}: ${lines.slice(from).join('')}`).toBeDefined();
          expect(refusal!.level).toBeGreaterThanOrEqual(50);
        }
      } finally {
        s3.fault(null);
      }
    });
  }

  it('logs a refused HEAD (500, no body) with S3’s status, not just UnknownError', async () => {
    s3.fault(objectReads({ status: 500 }));
    const from = lines.length;
    try {
      const view = await people.volA.post('/api/docs/presign-view', { key: keys[0] });
      expect(view.status).toBe(503);
    } finally {
      s3.fault(null);
    }
    const logged = lines.slice(from).join('');
    expect(logged).toContain('"httpStatusCode":500');
  });

  it('fails the stream visibly when S3 refuses part-way, never a ZIP saying the file is gone', async () => {
    // The first file reads; the second is refused after the archive has started.
    s3.fault(objectReads({ status: 403, code: 'SignatureDoesNotMatch' }, keys[1]!.split('/').at(-1)));
    try {
      const res = await paths()['download-all']();
      expect(res.status).toBe(200);
      expect(res.body).toBeInstanceOf(Error);
    } finally {
      s3.fault(null);
    }
  });

  it('leaves an upload pending while S3 refuses to read it, and stores it once S3 answers', async () => {
    const key = await upload(people.volA, clientId, '13614-C', 'later.pdf', samplePdf('later'));
    const listed = () => people.volA.get(`/api/docs/list/${clientId}?docType=13614-C`);
    // HEAD answers, so the upload is checked; reading its bytes is refused.
    s3.fault({
      status: 403,
      code: 'SignatureDoesNotMatch',
      when: ({ method, url }) => method === 'GET' && url.includes('later.pdf'),
    });
    try {
      expect((await listed()).body.items).toEqual([]);
    } finally {
      s3.fault(null);
    }
    expect((await listed()).body.items.map((i: { key: string }) => i.key)).toEqual([key]);
  });

  it('still names a really missing object in MISSING-FILES.txt', async () => {
    await s3.remove(keys[1]!);
    for (const [route, get] of Object.entries(paths())) {
      const res = await get();
      expect(res.status, route).toBe(200);
      const zip = await JSZip.loadAsync(res.body as Buffer);
      const names = Object.keys(zip.files).filter((n) => !zip.files[n]!.dir);
      expect(
        names.some((n) => n.endsWith('first.pdf')),
        route,
      ).toBe(true);
      expect(
        names.some((n) => n.endsWith('second.pdf')),
        route,
      ).toBe(false);
      const note = await zip.file('MISSING-FILES.txt')!.async('string');
      expect(note, route).toMatch(/second\.pdf/);
      if (route === 'download-all') expect(note).toContain('second.pdf (no longer in storage)');
    }
  });
});

describe('ZIP downloads while the local store cannot read a file', () => {
  let app: TestApp;
  let people: Awaited<ReturnType<typeof seedPeople>>;
  const lines: string[] = [];

  beforeAll(async () => {
    app = await startApp({}, { logLines: lines });
    people = await seedPeople(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers 503 for a file it cannot open (not "missing"), and still names a deleted one', async () => {
    const clientId = await createClient(people.volA);
    const key = await upload(people.volA, clientId, 'Banking Info', 'unreadable.pdf', samplePdf('u'));
    const file = objectPath(path.join(app.config.dataDir, 'files'), key);
    // As root no permission stops a read: a link to itself fails to open (ELOOP) as an unreadable
    // file or a disk error would, while the file is still there.
    await rm(file);
    await symlink(path.basename(file), file);
    const from = lines.length;
    const zip = await people.volA.get(`/api/clients/${clientId}/docs/download-all`);
    expect(zip.status).toBe(503);
    expect(zip.body).toMatchObject({ code: 'unavailable' });
    expect(lines.slice(from).join('')).toContain('"code":"ELOOP"');

    await rm(file);
    const gone = await fetch(`${app.url}/api/clients/${clientId}/docs/download-all`, {
      headers: { cookie: [...people.volA.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(gone.status).toBe(200);
    const archive = await JSZip.loadAsync(await gone.arrayBuffer());
    expect(await archive.file('MISSING-FILES.txt')!.async('string')).toContain(
      'Banking Info/unreadable.pdf (no longer in storage)',
    );
  });
});
