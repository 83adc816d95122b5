/**
 * The reader in Node (the kiosk, scripts, servers of library users). Reading runs in a worker thread
 * of its own, the reader host (`reader-host.node.ts`): pdf.js (a PDF's text, a scan's page), barcodes
 * by zxing-wasm, and what makes a reading of them. The caller's thread only posts the bytes and
 * receives the reading, so a hostile file can stall or fill the host, never the caller: a reading
 * over its time limit ends the host (its memory goes with it) and the next reading starts a new one.
 * OCR is tesseract.js's, its worker a thread of the host's (its death ends the host, not the
 * caller), with the English data of `@tesseract.js-data/eng` read from disk. Nothing is fetched: the files come from node_modules, or from one folder (`files`)
 * for an app bundled without node_modules.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FromHost, HostData, ToHost } from './reader-host.node.js';
import type { DocumentReader, DocumentReading } from './reader.js';

const require = createRequire(import.meta.url);

/** Options for {@link createNodeReader}. */
export interface NodeReaderOptions {
  /**
   * A folder holding the files the reader loads at run time, for an app bundled without
   * node_modules (the packaged kiosk); default: each from its package in node_modules. It holds
   * `tesseract-worker.cjs` (tesseract.js's Node worker script bundled with `tesseract.js-core`),
   * beside it the core's `tesseract-core*.wasm` builds (the core loads the one the CPU suits from
   * its own folder), `eng.traineddata.gz` (`@tesseract.js-data/eng`'s `4.0.0_best_int`) and
   * `zxing_reader.wasm` (`zxing-wasm/reader`). The JavaScript of the main thread is the bundle's.
   */
  files?: string;
  /**
   * Checks each file of `files` before the reader uses it (say, against hashes made when the folder
   * was built), given its name and bytes: a file it refuses (false) is not loaded, and what needs it
   * (OCR, or barcodes) fails, as if absent; it is asked once per file. The zxing wasm loaded is the
   * checked bytes (handed to the reader host); the OCR worker thread reads its files itself, right
   * after they are checked. It runs in the caller's thread.
   */
  verify?: (name: string, bytes: Uint8Array) => boolean;
  /**
   * The reader host's code: `reader-host.node.js` bundled with pdf.js, zxing-wasm, tesseract.js and
   * the rest into one CommonJS script that requires only Node's own modules, for an app bundled
   * without node_modules. The host thread evaluates this text (`eval: true`: a script with
   * `require`; a `data:` module could not, bundled CommonJS needs a file URL for it), so no script
   * is loaded by a path: an app can read it from inside its integrity-checked archive, which a
   * worker thread cannot load by path.
   * Default: the host module beside this one (from TypeScript sources, run through tsx).
   */
  hostCode?: string;
  /**
   * The most a reading may take (OCR included), in ms, from when the host thread has the document
   * (a new host's start is not counted); default 60 s. A reading over it resolves to an empty
   * reading and ends the host thread (and the OCR worker, if OCR was running): the next reading
   * starts anew.
   */
  limitMs?: number;
}

/** A page is read in seconds; one that takes a minute is stuck (or hostile) and is given up. */
const READ_LIMIT_MS = 60_000;

/**
 * The host's JavaScript heap. The objects pdf.js makes of a page's drawing live here (200 000
 * inline images took some 150 MB); decoded images and wasm memory are outside it, bounded by
 * `pdf-image.ts` and `readWith` before anything decodes. A host over it ends, failing that reading.
 */
const HOST_HEAP_MB = 512;

type Verify = NonNullable<NodeReaderOptions['verify']>;

/** Reads `name` from `folder`, checked by `verify`; a refused file throws, naming it. */
async function checkedFile(folder: string, name: string, verify: Verify): Promise<Buffer> {
  const bytes = await readFile(join(folder, name));
  if (!verify(name, bytes)) throw new Error(`The reader file ${name} failed its check; it was not loaded.`);
  return bytes;
}

/**
 * Checks the files the OCR worker thread will read: its script, every tesseract core wasm beside it
 * (the worker picks one by the CPU's features) and the English data. tesseract.js can only be given
 * the script and the core by path, and its in-memory language data (`{ code, data }`) is broken in
 * 7.0 (the worker initialises with the bytes as the language's name), so all three are read again by
 * the worker: what remains is the time between this check and the worker's reads (the worker's start
 * and its first load, well under a second), in which someone who can write the folder could swap
 * a file in.
 */
async function checkOcrFiles(folder: string, verify: Verify): Promise<void> {
  const cores = (await readdir(folder)).filter((name) => /^tesseract-core.*\.wasm$/.test(name)).sort();
  // The script last: it runs code, and is read soonest after its check.
  for (const name of ['eng.traineddata.gz', ...cores, 'tesseract-worker.cjs']) {
    await checkedFile(folder, name, verify);
  }
}

/** Where each file is: the folder's, or the packages' own. */
function runTimeFiles(folder: string | undefined) {
  if (folder === undefined) {
    return {
      // The integer "best" model: as accurate as "best" at a quarter of the size.
      langPath: join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int'),
      // tesseract.js's own default (its worker script in node_modules).
      workerPath: undefined,
      zxingWasm: require.resolve('zxing-wasm/reader/zxing_reader.wasm'),
    };
  }
  return {
    langPath: folder,
    workerPath: join(folder, 'tesseract-worker.cjs'),
    zxingWasm: join(folder, 'zxing_reader.wasm'),
  };
}

/** tsx's ES module API, by URL: `require.resolve` would give its CommonJS one. */
function tsxApi(): string {
  const manifest = require.resolve('tsx/package.json');
  const { exports } = require(manifest) as { exports: Record<string, { import: { default: string } }> };
  return new URL(exports['./esm/api']?.import.default ?? '', pathToFileURL(manifest)).href;
}

/** How the host thread is made: from the code handed in, or from the module beside this one. */
function hostStarter(hostCode: string | undefined): (data: HostData) => Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: HOST_HEAP_MB }, stdout: false, stderr: false };
  if (hostCode !== undefined)
    return (workerData) => new Worker(hostCode, { ...options, eval: true, workerData });
  const here = new URL(import.meta.url);
  if (here.pathname.endsWith('.ts')) {
    // From TypeScript sources (tests under vitest, tsx): the host is .ts too, and so are its
    // imports. tsx, a development dependency, registers its loader in the host thread first (Node 20
    // runs no `--import` loader for a worker's own script).
    const code = `const { register } = await import(${JSON.stringify(tsxApi())});
register();
await import(${JSON.stringify(new URL('./reader-host.node.ts', here).href)});`;
    const url = new URL(`data:text/javascript,${encodeURIComponent(code)}`);
    return (workerData) => new Worker(url, { ...options, workerData });
  }
  const url = new URL('./reader-host.node.js', here);
  return (workerData) => new Worker(url, { ...options, workerData });
}

/**
 * What a host is given: zxing's wasm bytes, read and checked once (or why there are none), and where
 * tesseract.js's files are (the host checks them through the caller right before it reads them).
 */
function hostDataOf(folder: string | undefined, verify: Verify | undefined): () => Promise<HostData> {
  const { langPath, workerPath } = runTimeFiles(folder);
  const ocr = { langPath, ...(workerPath !== undefined && { workerPath }) };
  let data: Promise<HostData> | undefined;
  return () =>
    (data ??= (async (): Promise<HostData> => {
      try {
        // Checked once, these very bytes are compiled in every host: nothing is read after the check.
        const wasm =
          folder !== undefined && verify
            ? await checkedFile(folder, 'zxing_reader.wasm', verify)
            : await readFile(runTimeFiles(folder).zxingWasm);
        return { ocr, zxingWasm: new Uint8Array(wasm).buffer };
      } catch (error) {
        return { ocr, zxingError: messageOf(error) };
      }
    })());
}

type Outcome = { reading: DocumentReading } | { error: Error };

/** A reading in the host: its answer, its clock's start. */
interface InFlight {
  id: number;
  settle: (outcome: Outcome) => void;
  /** The host has the document: the reading's time limit counts from now. */
  started: () => void;
}

/**
 * The most a host may take to take a document (a new one loads its modules first; on a loaded
 * machine that can take seconds, which are no reading's). One that has not in this long is stuck.
 */
const HOST_START_LIMIT_MS = 30_000;

/**
 * Readings in a host thread, one at a time: a host is started when needed, and ended when its
 * reading runs over `limitMs` (that reading says nothing), when it fails (an uncaught error, its heap
 * full: that reading fails) or by `end`.
 */
function hostedReadings(
  startHost: (data: HostData) => Worker,
  hostData: () => Promise<HostData>,
  checkOcrFiles: () => Promise<void>,
  limitMs: number,
) {
  let host: Worker | undefined;
  let inFlight: InFlight | undefined;
  let nextId = 1;

  /** Ends the host (stuck, crashed or closed), its OCR worker with it; its reading gets `outcome`. */
  const endHost = (outcome: Outcome) => {
    const ended = host;
    host = undefined;
    const reading = inFlight;
    inFlight = undefined;
    reading?.settle(outcome);
    void ended?.terminate();
  };

  /** A host about to start its OCR worker: its files are checked now, right before it reads them. */
  const checkOcrFor = (w: Worker) => {
    const reply = (message: ToHost) => {
      if (host === w) w.postMessage(message);
    };
    checkOcrFiles().then(
      () => reply({ type: 'ocr-checked' }),
      (error: unknown) => reply({ type: 'ocr-refused', error: messageOf(error) }),
    );
  };

  const onMessage = (w: Worker, message: FromHost) => {
    if (message.type === 'ocr-check') return checkOcrFor(w);
    const reading = inFlight;
    if (host !== w || reading?.id !== message.id) return;
    if (message.type === 'read-started') return reading.started();
    inFlight = undefined;
    w.unref();
    reading.settle(
      message.type === 'read-done' ? { reading: message.reading } : { error: new Error(message.error) },
    );
  };

  const hostNow = async (): Promise<Worker> => {
    if (host) return host;
    const w = startHost(await hostData());
    host = w;
    // Idle, the host keeps no process alive (as a reader never closed would).
    w.unref();
    w.on('message', (message: FromHost) => onMessage(w, message));
    // An uncaught error in the host, or its heap over the limit: the reading in it fails, and the
    // next one starts a new host.
    w.on('error', (error) => {
      if (host === w) endHost({ error: new Error(`The reader stopped: ${error.message}`) });
    });
    w.on('exit', (code) => {
      if (host === w) endHost({ error: new Error(`The reader stopped (exit code ${code}).`) });
    });
    return w;
  };

  return {
    async read(bytes: Uint8Array): Promise<DocumentReading> {
      const w = await hostNow();
      const id = nextId++;
      let timer: ReturnType<typeof setTimeout> | undefined;
      // Stuck or hostile: the host ends, freeing what it holds, and the reading says nothing.
      const giveUpIn = (ms: number) => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          if (inFlight?.id === id) endHost({ reading: {} });
        }, ms);
      };
      const outcome = await new Promise<Outcome>((settle) => {
        inFlight = { id, settle, started: () => giveUpIn(limitMs) };
        // Referenced while a reading runs: a caller awaiting it keeps its process alive.
        w.ref();
        // A copy, moved: the caller's array stays its own (a library's caller may read it again).
        const copy = bytes.slice();
        w.postMessage({ type: 'read', id, bytes: copy } satisfies ToHost, [copy.buffer]);
        giveUpIn(HOST_START_LIMIT_MS);
      }).finally(() => clearTimeout(timer));
      if ('error' in outcome) throw outcome.error;
      return outcome.reading;
    },
    end: () => endHost({ error: new Error('The reader is closed.') }),
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Creates a Node reader. Its host thread starts with the first reading, its OCR worker with the first
 * OCR; `close()` ends both. Documents are read one at a time, in the order asked.
 */
export function createNodeReader(options: NodeReaderOptions = {}): DocumentReader {
  const { files: folder, verify } = options;
  const readings = hostedReadings(
    hostStarter(options.hostCode),
    hostDataOf(folder, verify),
    () => (folder !== undefined && verify ? checkOcrFiles(folder, verify) : Promise.resolve()),
    options.limitMs ?? READ_LIMIT_MS,
  );
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;
  const refused = () => Promise.reject(new Error('The reader is closed.'));
  return {
    readDocument(bytes) {
      if (closed) return refused();
      const read = queue.then(() => (closed ? refused() : readings.read(bytes)));
      queue = read.catch(() => undefined);
      return read;
    },
    async close() {
      closed = true;
      readings.end();
    },
  };
}
