/**
 * Slow clients: many downloads of a client's ZIP over connections that take the bytes at a trickle
 * (a phone on a bad network), while other volunteers work as usual. The server must keep serving
 * everyone else about as fast as without them, must not buffer the archives in memory for the slow
 * readers, and must let go of everything once they hang up.
 *
 * Memory is "flat" when it grows no more while the slow readers trickle than the same work grows it
 * without them (measured after a warm-up, over the same time), and a second wave of them does not
 * raise it further. What it does not have to do is give memory back to the system: on
 * loopback each reader first takes a few MB at full speed (the kernel's socket buffers grow to
 * several MB), so the server decrypts some 200 MB within two seconds of their connecting, and the
 * allocator keeps the high-water mark of that burst (docs/reliability.md, Slow clients).
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import { FIXED_CATEGORIES } from '@vita-docs/core';
import {
  MB,
  cpuSeconds,
  createRecorder,
  errorLines,
  freshDataDir,
  percentile,
  randomPdf,
  setUpProgramme,
  sleep,
  startServer,
  upload,
  watchRss,
  type Browser,
  type Recorder,
  type Row,
  type Scenario,
  type ServerProcess,
} from '../harness.js';
import { clientsFor, familyLines, newCounts, pdfPool, workLoop, type Pdf } from '../volunteers.js';

/** How fast a slow reader takes the archive. */
const SLOW_BYTES_PER_SECOND = 10 * 1024;
/** Reads per second of a slow reader (each a tenth of its per-second share). */
const READS_PER_SECOND = 10;
/** The families whose p99 is compared with the unloaded run. */
const COMPARED = ['JSON reads', 'JSON writes', 'upload PUT', 'view GET'] as const;
/** Loaded p99 may be at most this many times the unloaded one… */
const P99_FACTOR = 2;
/**
 * …or this many milliseconds more, whichever is larger: below ~10 ms a p99 is decided by the
 * scheduler of a shared 2-core machine, not by the server.
 */
const P99_SLACK_MS = 10;
/**
 * While the slow readers trickle, memory may grow this much beyond what the same work grew it without
 * them; from one wave of them to the next, this much at all (sampling noise).
 */
const RSS_FLAT_MB = 8;
/** Work before anything is measured: a fresh server's memory grows while it warms up, readers or not. */
const WARM_UP_SECONDS = 15;
/** At peak, the server may hold at most this much per slow reader (the archive itself is 20 MB: buffering it would show). */
const RSS_PER_READER_MB = 2;
/** Idle time after the readers hang up, before memory is read (see {@link hangUp}). */
const SETTLE_SECONDS = 10;
/** How long the second wave of slow readers reads. */
const SECOND_WAVE_SECONDS = 10;

/** One ZIP download read at a trickle with node:http, so the server's socket really backs up. */
interface SlowReader {
  /** Bytes taken so far. */
  received(): number;
  /** The status, once the answer's head arrived. */
  status(): number | undefined;
  /** The error the request ended with, if any (before it was aborted). */
  error(): Error | undefined;
  /** True when the archive ended before it was aborted (it should not, at this speed). */
  ended(): boolean;
  /** Hangs up. */
  abort(): void;
}

function slowReader(url: string, headers: Record<string, string>): SlowReader {
  let received = 0;
  let status: number | undefined;
  let failure: Error | undefined;
  let ended = false;
  let aborted = false;
  let timer: NodeJS.Timeout | undefined;
  // A connection of its own: nothing else shares it, and aborting it is what a phone going away does.
  const request = http.get(url, { headers, agent: false });
  request.on('response', (response) => {
    status = response.statusCode;
    // Paused, the response takes nothing beyond its small buffer, so the socket's receive window
    // fills and the server's writes back up: the server sees a slow reader, not a fast one.
    response.pause();
    response.on('end', () => (ended = true));
    response.on('error', (err) => {
      if (!aborted) failure = err;
    });
    const share = SLOW_BYTES_PER_SECOND / READS_PER_SECOND;
    timer = setInterval(() => {
      let budget = share;
      while (budget > 0) {
        const chunk = response.read(Math.min(budget, response.readableLength || budget)) as Buffer | null;
        if (!chunk) break;
        received += chunk.length;
        budget -= chunk.length;
      }
    }, 1000 / READS_PER_SECOND);
  });
  request.on('error', (err) => {
    if (!aborted) failure = err;
  });
  return {
    received: () => received,
    status: () => status,
    error: () => failure,
    ended: () => ended,
    abort() {
      aborted = true;
      clearInterval(timer);
      request.destroy();
    },
  };
}

/** File descriptors the server process holds open (files being streamed, sockets). */
async function openFiles(server: ServerProcess): Promise<number> {
  return (await fs.readdir(`/proc/${server.child.pid}/fd`).catch(() => [] as string[])).length;
}

/** Starts `count` slow readers of `url` and waits until each receives (the archive started) or fails. */
async function startReaders(count: number, url: string, headers: Record<string, string>): Promise<SlowReader[]> {
  const readers = Array.from({ length: count }, () => slowReader(url, headers));
  const started = Date.now();
  while (readers.some((r) => r.received() === 0 && !r.error()) && Date.now() - started < 30_000) await sleep(100);
  return readers;
}

/**
 * Hangs every reader up, then waits until the server has closed the files they had open (10 s at
 * most), then until the collector has had its turn: V8's memory reducer collects about 8 s after a
 * process stops allocating, and until then the buffers the readers left are garbage still counted in
 * RSS, not memory kept.
 */
async function hangUp(server: ServerProcess, readers: readonly SlowReader[], filesBefore: number): Promise<number> {
  for (const reader of readers) reader.abort();
  let files = await openFiles(server);
  const released = Date.now();
  while (files > filesBefore && Date.now() - released < 10_000) {
    await sleep(200);
    files = await openFiles(server);
  }
  await sleep(SETTLE_SECONDS * 1000);
  return files;
}

/** The server's CPU over the last quarter second below this share of a core: the readers' connect burst is over. */
const BURST_OVER_CPU = 0.1;

/**
 * Waits, with nothing else running, until the slow readers' connect burst is over (see the top of
 * this file): once their connections have backed up, they take bytes only at their trickle. A phone
 * on a bad network takes its first bytes no faster than the rest; on loopback the first few MB of
 * each go at full speed, and measuring the others' latency during that would measure loopback.
 */
async function connectBurst(server: ServerProcess): Promise<{ seconds: number; cpuSeconds: number }> {
  const pid = server.child.pid ?? 0;
  const started = Date.now();
  const cpuAtStart = await cpuSeconds(pid);
  let cpu = cpuAtStart;
  while (Date.now() - started < 10_000) {
    await sleep(250);
    const now = await cpuSeconds(pid);
    const busy = (now - cpu) / 0.25;
    cpu = now;
    if (busy < BURST_OVER_CPU) break;
  }
  return { seconds: (Date.now() - started) / 1000, cpuSeconds: cpu - cpuAtStart };
}

/** The p99 of each compared family. */
const p99s = (recorder: Recorder) => new Map(COMPARED.map((family) => [family, percentile(recorder.families.get(family) ?? [], 99)]));

/** How often RSS is sampled while the volunteers work. */
const RSS_SAMPLE_MS = 500;
/** Each end of a working window is the median of this long of samples (the collector's saw-tooth is shorter). */
const RSS_END_SECONDS = 5;
/**
 * Growth is measured from this far into a working window: traced with --trace-gc, a change of load
 * (the readers connecting, or the work starting) has V8 resize its heap for some ten seconds (its
 * committed heap grew ~10 MB while the live heap after each full collection stayed within 1 MB),
 * and that is sizing, not memory the readers keep.
 */
const RSS_FROM_SECONDS = 10;

/**
 * The volunteers' work for `seconds`; with the server's RSS from {@link RSS_FROM_SECONDS} in and at
 * the end, each the median of {@link RSS_END_SECONDS} of samples: one sample lands anywhere on the
 * collector's saw-tooth, which moves RSS by several MB within a second.
 */
async function work(
  server: ServerProcess,
  volunteers: readonly Browser[],
  clients: readonly string[],
  pdfs: readonly Pdf[],
  seconds: number,
): Promise<{ recorder: Recorder; rss: { early: number; end: number } }> {
  const recorder = createRecorder();
  const counts = newCounts();
  const started = Date.now();
  const until = started + seconds * 1000;
  const samples: { at: number; mb: number }[] = [];
  const sampler = setInterval(() => {
    const at = Date.now() - started;
    void server.rssMb().then((mb) => samples.push({ at, mb }));
  }, RSS_SAMPLE_MS);
  try {
    await Promise.all(
      volunteers.map((volunteer, i) => workLoop(volunteer, clients[i] ?? '', recorder, counts, until, { pdfs, zipEvery: 0, offset: i, renameEvery: 5 })),
    );
  } finally {
    clearInterval(sampler);
  }
  const end = Date.now() - started;
  const from = Math.min(RSS_FROM_SECONDS * 1000, end / 3);
  const window = (start: number, stop: number) => percentile(samples.filter((s) => s.at >= start && s.at <= stop).map((s) => s.mb), 50);
  return {
    recorder,
    // A short window (the short form's 10 s) is measured from a third of the way in.
    rss: { early: window(from, from + RSS_END_SECONDS * 1000), end: window(end - RSS_END_SECONDS * 1000, end) },
  };
}

export const scenario: Scenario = {
  name: 'Slow clients',
  async run({ short, log }) {
    const readerCount = short ? 10 : 50;
    const workerCount = short ? 5 : 20;
    const seconds = short ? 10 : 30;
    const server = await startServer({ dataDir: await freshDataDir('slow') });
    const readers: SlowReader[] = [];
    try {
      const { volunteers } = await setUpProgramme(server.url, workerCount + 1);
      const [owner, ...workers] = volunteers;
      if (!owner) throw new Error('no volunteer to own the big client');
      const clients = await clientsFor(workers);
      const big = (await clientsFor([owner]))[0] ?? '';
      // The archive: the seeded 1 MB document and 19 more of 1 MB.
      await Promise.all(
        Array.from({ length: 19 }, (_, i) =>
          upload(owner, big, FIXED_CATEGORIES[i % FIXED_CATEGORIES.length] ?? '13614-C', `page ${i + 1}.pdf`, randomPdf(MB)),
        ),
      );
      const pdfs = pdfPool(short ? 8 : 32);

      log(`warm-up: ${workerCount} volunteers working for ${WARM_UP_SECONDS} s`);
      const { recorder: warmUp } = await work(server, workers, clients, pdfs, WARM_UP_SECONDS);
      log(`unloaded: the same work for ${seconds} s`);
      const { recorder: unloaded, rss: drift } = await work(server, workers, clients, pdfs, seconds);
      const rss = await watchRss(server, 500);
      const filesBefore = await openFiles(server);

      const zipUrl = `${server.url}/api/clients/${encodeURIComponent(big)}/docs/download-all`;
      const headers = { cookie: owner.cookieHeader() };
      readers.push(...(await startReaders(readerCount, zipUrl, headers)));
      const burst = await connectBurst(server);
      log(
        `${readers.filter((r) => r.received() > 0).length} of ${readerCount} slow readers receiving; their connect burst took ` +
          `${burst.seconds.toFixed(1)} s (${burst.cpuSeconds.toFixed(1)} s of the server's CPU); loaded: the same work for ${seconds} s`,
      );
      const { recorder: loaded, rss: whileReading } = await work(server, workers, clients, pdfs, seconds);
      const peakWhileSlow = rss.peak();
      const filesWhileSlow = await openFiles(server);
      const slowBytes = readers.reduce((sum, r) => sum + r.received(), 0);
      const readerProblems = (wave: readonly SlowReader[], label: string) =>
        wave
          .map((r, i) => {
            if (r.error()) return `${label} slow reader ${i}: ${r.error()?.message}`;
            if (r.status() !== 200) return `${label} slow reader ${i}: status ${r.status() ?? 'none'}`;
            if (r.ended()) return `${label} slow reader ${i}: the archive ended early after ${r.received()} bytes`;
            return '';
          })
          .filter(Boolean);
      const firstProblems = readerProblems(readers, 'first wave');

      // Everyone hangs up at once; the server must drop the streams, their files and their buffers.
      const filesAfter = await hangUp(server, readers, filesBefore);
      const afterFirst = await server.rssMb();
      // A second wave on the same server: memory the first one left must be reused, not added to.
      log(`second wave: ${readerCount} slow readers for ${SECOND_WAVE_SECONDS} s`);
      const second = await startReaders(readerCount, zipUrl, headers);
      readers.push(...second);
      await sleep(SECOND_WAVE_SECONDS * 1000);
      const secondProblems = readerProblems(second, 'second wave');
      const filesAfterSecond = await hangUp(server, second, filesBefore);
      const memory = await rss.stop();
      const answers = await fetch(`${server.url}/api/me`).then(
        (res) => res.status,
        () => 0,
      );

      for (const line of familyLines(unloaded)) log(`unloaded ${line}`);
      for (const line of familyLines(loaded)) log(`loaded ${line}`);
      const before = p99s(unloaded);
      const after = p99s(loaded);
      const held: string[] = [];
      const broke: string[] = [
        ...errorLines(warmUp).map((e) => `warm-up: ${e}`),
        ...errorLines(unloaded).map((e) => `unloaded: ${e}`),
        ...errorLines(loaded).map((e) => `loaded: ${e}`),
        ...firstProblems,
        ...secondProblems,
      ];
      if (warmUp.errorCount() + unloaded.errorCount() + loaded.errorCount() === 0) {
        held.push(`0 errors in ${warmUp.requests() + unloaded.requests() + loaded.requests()} requests`);
      }
      for (const family of COMPARED) {
        const base = before.get(family) ?? 0;
        const now = after.get(family) ?? 0;
        const limit = Math.max(P99_FACTOR * base, base + P99_SLACK_MS);
        const text = `${family} p99 ${now.toFixed(0)} ms loaded vs ${base.toFixed(0)} ms unloaded (${base > 0 ? (now / base).toFixed(1) : '–'}×)`;
        if (now <= limit) held.push(text);
        else broke.push(`${text}, goal ≤ ${limit.toFixed(0)} ms`);
      }
      const mb = (value: number) => `${value.toFixed(0)} MB`;
      const signed = (value: number) => `${value < 0 ? '−' : '+'}${mb(Math.abs(value))}`;
      const check = (ok: boolean, text: string, limit: string) => (ok ? held.push(`${text} (at most ${limit})`) : broke.push(`${text}: more than ${limit}`));
      // Growth of the same work without readers (the collector's saw-tooth, the allocator's high-water mark).
      const grewWithout = drift.end - drift.early;
      const grewWith = whileReading.end - whileReading.early;
      const allowed = Math.max(0, grewWithout) + RSS_FLAT_MB;
      check(
        grewWith <= allowed,
        `server RSS ${mb(whileReading.early)} → ${mb(whileReading.end)} while the slow readers read (${signed(grewWith)}; medians of 5 s, from ${RSS_FROM_SECONDS} s in), ` +
          `${mb(drift.early)} → ${mb(drift.end)} in the same work without them (${signed(grewWithout)})`,
        `${signed(allowed)} with them`,
      );
      check(
        memory.after <= afterFirst + RSS_FLAT_MB,
        `${mb(afterFirst)} after the first wave hung up, ${mb(memory.after)} after a second wave of ${readerCount}`,
        `+${RSS_FLAT_MB} MB`,
      );
      check(
        memory.peak <= memory.before + readerCount * RSS_PER_READER_MB,
        `peak ${mb(memory.peak)} against ${mb(memory.before)} before them`,
        `${RSS_PER_READER_MB} MB per reader`,
      );
      const filesText = `open files ${filesBefore} before, ${filesWhileSlow} with the slow readers, ${filesAfter} after, ${filesAfterSecond} after the second wave`;
      if (filesAfter <= filesBefore && filesAfterSecond <= filesBefore) held.push(filesText);
      else broke.push(`${filesText}: not all released`);
      if (answers > 0 && answers < 500) held.push('the server still answers afterwards');
      else broke.push(`GET /api/me ${answers ? `answered ${answers}` : 'got no answer'} after the slow readers hung up`);

      const row: Row = {
        scenario: this.name,
        done:
          `${readerCount} slow readers of a 20 × 1 MB client's ZIP at ${SLOW_BYTES_PER_SECOND / 1024} KB/s each ` +
          `(${(slowBytes / MB).toFixed(1)} MB taken in all, peak RSS ${peakWhileSlow.toFixed(0)} MB while they read; the others' work measured once ` +
          `their connect burst was over, ${burst.seconds.toFixed(1)} s and ${burst.cpuSeconds.toFixed(1)} s of the server's CPU after they connected), ` +
          `then aborted, while ${workerCount} volunteers worked ${seconds} s, then a second wave of ${readerCount} for ${SECOND_WAVE_SECONDS} s; ` +
          `server RSS ${memory.before.toFixed(0)} MB before, ${memory.peak.toFixed(0)} MB peak, ${afterFirst.toFixed(0)} MB after the first wave, ` +
          `${memory.after.toFixed(0)} MB after the second (before: ${unloaded.requests()} requests, ${familyLines(unloaded).join('; ')}; ` +
          `with the slow readers: ${loaded.requests()} requests, ${familyLines(loaded).join('; ')})`,
        held: held.join('; '),
        broke: broke.join('; '),
      };
      return row;
    } finally {
      for (const reader of readers) reader.abort();
      await server.stop();
    }
  },
};
