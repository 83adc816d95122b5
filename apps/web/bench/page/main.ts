/**
 * The page the kept-uploads benchmark drives, served by the real server on its own origin: the
 * browser's journal (IndexedDB, AES-GCM) and the real upload path (presign, XHR PUT, complete),
 * bundled by Vite as the app bundles them.
 */
import { createApiClient, createUploadFlow, readCookie, uploadDocument } from '@vita-docs/core';
import type { JournalEntry, UploadJournal } from '@vita-docs/core';
import { createIndexedDbJournals, createXhrPutFile } from '@vita-docs/ui';

const api = createApiClient({
  baseUrl: '/api',
  fetch: window.fetch.bind(window),
  getCookie: (name) => readCookie(document.cookie, name),
});
const putFile = createXhrPutFile();
const journals = createIndexedDbJournals({
  crypto: window.crypto,
  journalKey: () => api.journalKey(),
  storage: window.localStorage,
  now: () => Date.now(),
  lifetimeMs: 12 * 3_600_000,
});
let journal: UploadJournal | null = null;
const open = async () => (journal ??= (await journals.open('bench@example.org')).journal);

/** A PDF-looking file of random bytes (random: the server's never-twice check must not skip any). */
function randomPdf(name: string, bytes: number): File {
  const data = new Uint8Array(bytes);
  for (let at = 0; at < bytes; at += 65_536)
    crypto.getRandomValues(data.subarray(at, Math.min(bytes, at + 65_536)));
  data.set(new TextEncoder().encode('%PDF-1.7\n'));
  return new File([data], name, { type: 'application/pdf' });
}

let serial = 0;
const entryOf = (file: File, clientId: string, docType: string): JournalEntry => ({
  id: `bench-${++serial}`,
  target: { clientId, docType },
  name: file.name,
  type: file.type,
  size: file.size,
});

async function persist(megabytes: number, runs: number) {
  const kept = await open();
  const save: number[] = [];
  const read: number[] = [];
  const keep: number[] = [];
  const encryptOnly: number[] = [];
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
  for (let run = 0; run < runs; run++) {
    const file = randomPdf(`photo-${run}.pdf`, megabytes * 1_048_576);
    const entry = entryOf(file, 'bench', 'Banking Info');
    // As a host that hands the journal a File: read, seal, write.
    let start = performance.now();
    await kept.save(entry, file);
    save.push(performance.now() - start);
    await kept.remove(entry.id);
    // As the queue keeps: it reads the file once, for the journal and for the SHA-256 every upload
    // sends (read without a journal too), so what keeping adds is sealing and writing those bytes.
    start = performance.now();
    const bytes = await file.arrayBuffer();
    read.push(performance.now() - start);
    start = performance.now();
    await kept.save(entry, file, bytes);
    keep.push(performance.now() - start);
    await kept.remove(entry.id);
    start = performance.now();
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv: crypto.getRandomValues(new Uint8Array(12)) },
      key,
      bytes,
    );
    encryptOnly.push(performance.now() - start);
  }
  return { save, read, keep, encryptOnly };
}

/** Uploads `count` files of `megabytes` each, one after another; with `kept`, each is kept first and forgotten after, as the queue does. */
async function upload(clientId: string, docType: string, count: number, megabytes: number, kept: boolean) {
  const files = Array.from({ length: count }, (_, i) =>
    randomPdf(`bench-${kept ? 'kept' : 'plain'}-${++serial}-${i}.pdf`, megabytes * 1_048_576),
  );
  const target = { clientId, docType };
  const journalNow = kept ? await open() : null;
  const start = performance.now();
  for (const file of files) {
    const entry = entryOf(file, clientId, docType);
    if (journalNow) await journalNow.save(entry, file);
    await uploadDocument(api, putFile, target, file);
    if (journalNow) await journalNow.remove(entry.id);
  }
  const ms = performance.now() - start;
  return { ms, megabytesPerSecond: (count * megabytes) / (ms / 1000) };
}

/**
 * The app's own path: `count` files added to a real upload queue, then Upload; with `kept`, the queue
 * keeps each file in the journal before it counts as queued (and forgets it once stored), as the
 * browser app does. Timed from the add to the end of the batch.
 */
async function queue(clientId: string, docType: string, count: number, megabytes: number, kept: boolean) {
  const files = Array.from({ length: count }, (_, i) =>
    randomPdf(`queue-${kept ? 'kept' : 'plain'}-${++serial}-${i}.pdf`, megabytes * 1_048_576),
  );
  const alerts: string[] = [];
  const flow = createUploadFlow({
    api,
    putFile,
    convert: async (file) => file,
    storage: { getItem: () => '0', setItem: () => undefined, removeItem: () => undefined },
    platform: { alert: (message) => void alerts.push(message) },
    target: { clientId, docType },
    refresh: () => undefined,
    newId: () => `bench-${++serial}`,
    ...(kept ? { journal: await open() } : {}),
  });
  const start = performance.now();
  flow.addFiles(files);
  await flow.send({ type: 'upload' });
  const ms = performance.now() - start;
  if (flow.getState().queue.length || alerts.length) throw new Error(`not all stored: ${alerts.join('; ')}`);
  return { ms, megabytesPerSecond: (count * megabytes) / (ms / 1000) };
}

Object.assign(window, { bench: { persist, upload, queue } });
document.title = 'ready';
