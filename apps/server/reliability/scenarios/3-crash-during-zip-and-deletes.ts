/**
 * Crash during a ZIP, a category delete and a client delete: the server is SIGKILLed a random few
 * milliseconds into the request, then started again. Nothing may be half-deleted in what anyone can
 * see: each document is either listed with its bytes or gone, a category or client either keeps all
 * its documents or has none, and after the sweeper's grace period no bytes remain that no document
 * refers to.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import JSZip from 'jszip';
import { isApiError } from '@vita-docs/core';
import {
  download,
  filesUnder,
  freshDataDir,
  newClient,
  randomPdf,
  setUpProgramme,
  sha256,
  sleep,
  startServer,
  sweepNow,
  upload,
  type Browser,
  type Row,
  type Scenario,
} from '../harness.js';

type Operation = 'zip' | 'category delete' | 'client delete';
const OPERATIONS: Operation[] = ['zip', 'category delete', 'client delete'];
const CUSTOM = 'W-2';

interface Doc {
  key: string;
  docType: string;
  sha256: string;
}

async function round(
  operation: Operation,
  index: number,
  log: (line: string) => void,
): Promise<{ fact: string; problems: string[] }> {
  const dataDir = await freshDataDir(`crash-${operation.replace(' ', '-')}-${index}`);
  let server = await startServer({ dataDir });
  const port = Number(new URL(server.url).port);
  const problems: string[] = [];
  try {
    const { admin, volunteers } = await setUpProgramme(server.url, 1);
    const volunteer = volunteers[0] as Browser;
    const clientId = await newClient(volunteer, `Crash ${index}`);
    await volunteer.api.addDocType({ params: { id: clientId }, body: { template: CUSTOM } });
    const docs: Doc[] = [];
    for (let i = 0; i < 40; i += 1) {
      const docType = i < 30 ? CUSTOM : 'Banking Info';
      const bytes = randomPdf(100_000);
      docs.push({
        key: await upload(volunteer, clientId, docType, `page-${i}.pdf`, bytes),
        docType,
        sha256: sha256(bytes),
      });
    }

    const mine = (await volunteer.api.listClients()).items.find((client) => client.clientId === clientId);
    const owner = { clientId, createdBy: volunteer.email, clientEmail: mine?.email ?? '' };
    const killAfter = Math.floor(Math.random() * 25);
    const request =
      operation === 'zip'
        ? volunteer.api.downloadAll({ params: { id: clientId } }).then((res) => res.arrayBuffer())
        : operation === 'category delete'
          ? volunteer.api.deleteDocType({ params: { id: clientId }, query: { docType: CUSTOM } })
          : admin.api.deleteClient({ body: owner });
    const outcome = request.then(
      () => 'finished',
      () => 'cut off',
    );
    await sleep(killAfter);
    await server.kill();
    const finished = await outcome;
    server = await startServer({ dataDir, port });

    // What anyone can see now: each document listed with its bytes, or gone; all of a scope or none.
    const types = await volunteer.api.docTypes({ params: { id: clientId } }).then(
      (answer) => answer.types,
      (error: unknown) => {
        if (isApiError(error) && error.status === 404) return null;
        throw error;
      },
    );
    const listedByType = new Map<string, Set<string>>();
    if (types) {
      for (const docType of [CUSTOM, 'Banking Info']) {
        const { items } = await volunteer.api.listDocs({ params: { id: clientId }, query: { docType } });
        listedByType.set(docType, new Set(items.map((item) => item.key)));
        for (const item of items) {
          const { url } = await volunteer.api.presignGet({ body: { key: item.key } });
          const bytes = await download(volunteer, url).catch(() => null);
          const doc = docs.find((d) => d.key === item.key);
          if (!doc) problems.push(`listed but never uploaded: ${item.key}`);
          else if (!bytes || sha256(bytes) !== doc.sha256)
            problems.push(`listed without its bytes: ${item.filename}`);
        }
      }
    }
    const listed = (doc: Doc) => listedByType.get(doc.docType)?.has(doc.key) ?? false;
    for (const docType of [CUSTOM, 'Banking Info']) {
      const scope = docs.filter((d) => d.docType === docType);
      const shown = scope.filter(listed).length;
      if (shown !== 0 && shown !== scope.length)
        problems.push(`${docType}: ${shown} of ${scope.length} documents listed`);
      if (docType === CUSTOM && types && types.includes(CUSTOM) !== (shown === scope.length)) {
        problems.push(`the ${CUSTOM} category and its documents disagree (${shown} listed)`);
      }
    }
    // What the operation may have removed: nothing for a ZIP, the category, or the whole client.
    const mayGo = (doc: Doc) =>
      operation === 'client delete' ? true : operation === 'category delete' ? doc.docType === CUSTOM : false;
    for (const doc of docs) if (!listed(doc) && !mayGo(doc)) problems.push(`lost: ${doc.key}`);
    if (finished === 'finished' && operation !== 'zip' && docs.some((d) => mayGo(d) && listed(d))) {
      problems.push('the delete was acknowledged but documents are still listed');
    }

    // After the grace period, the bytes on disk are exactly those of the listed documents.
    server = await sweepNow(server);
    const onDisk = (await filesUnder(path.join(dataDir, 'files'))).filter((file) => !file.startsWith('.tmp'));
    const listedCount = docs.filter(listed).length;
    if (onDisk.length !== listedCount)
      problems.push(`${onDisk.length} files on disk for ${listedCount} listed documents after the sweep`);
    if (types) {
      const zip = await JSZip.loadAsync(
        await (await volunteer.api.downloadAll({ params: { id: clientId } })).arrayBuffer(),
      );
      const entries = Object.values(zip.files).filter((entry) => !entry.dir);
      if (entries.length !== listedCount)
        problems.push(`the ZIP holds ${entries.length} files for ${listedCount} listed`);
    }
    const fact = `${operation} killed at ${killAfter} ms (${finished}): ${listedCount} of ${docs.length} listed after`;
    log(fact);
    return { fact, problems };
  } finally {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

export const scenario: Scenario = {
  name: 'Crash during a ZIP and deletes',
  async run({ short, log }): Promise<Row> {
    const rounds = short ? 1 : 4;
    const facts: string[] = [];
    const problems: string[] = [];
    for (const operation of OPERATIONS) {
      for (let i = 0; i < rounds; i += 1) {
        const result = await round(operation, i, log);
        facts.push(result.fact);
        problems.push(...result.problems.map((p) => `${operation} ${i + 1}: ${p}`));
      }
    }
    return {
      scenario: this.name,
      done: `${rounds} × each of ZIP download, category delete (30 of 40 files), client delete, SIGKILL 0–25 ms in, restart; ${facts.join('; ')}`,
      held: problems.length
        ? ''
        : 'every document listed with its bytes or gone; each category and client kept all its documents or none; nothing lost outside what was deleted; after the sweep the disk held exactly the listed files; the ZIP matched',
      broke:
        problems.slice(0, 10).join('; ') + (problems.length > 10 ? `; … ${problems.length - 10} more` : ''),
    };
  },
};
