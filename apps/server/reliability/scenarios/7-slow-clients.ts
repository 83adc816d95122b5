/**
 * Slow clients: many downloads of a client's ZIP over connections that take the bytes at a trickle
 * (a phone on a bad network), while other volunteers work as usual. The server must keep serving
 * everyone else about as fast as without them, must not buffer the archives in memory for the slow
 * readers, and must let go of everything once they hang up.
 *
 * Memory is "flat" when what the server holds after full collections (`memory-probe.mjs`: V8 heap in
 * use plus array buffers and other external memory) grows no more while the slow readers trickle
 * than the same work grows it without them, stays within a bound per connected reader, is back
 * where it was once they hang up, and a second wave adds nothing to it; and no more than 2 HTTP
 * responses are still alive once the readers hung up (the probe counts them; 0 are expected). RSS
 * is held to a peak per reader and to no growth from one wave to the next; it is not expected to
 * come back down: on loopback each reader
 * first takes a few MB at full speed (the kernel's socket buffers grow to several MB), so the server
 * decrypts some 200 MB within a second of their connecting, and the allocator keeps the high-water
 * mark of that burst (docs/reliability.md, Slow clients).
 */
import fs from 'node:fs/promises';
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
  type RetainedMemory,
  type Recorder,
  type Row,
  type RssWatch,
  type Scenario,
  type ServerProcess,
} from '../harness.js';
import { SLOW_BYTES_PER_SECOND, startReaders, type SlowReader } from '../slow-reader.js';
import { clientsFor, familyLines, newCounts, pdfPool, workLoop, type Pdf } from '../volunteers.js';

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
 * Held memory (after full collections) may grow this much more while the slow readers trickle than
 * the same work grows it without them, and may be this much above where it was once they hung up.
 * The readers take ~15 MB in 30 s, so keeping a seventh of what they were sent would show.
 */
const HELD_FLAT_MB = 2;
/** While connected, each slow reader may hold at most this much (about ten 64 KiB chunks were measured: 650–780 KB; this is that plus ~30 %). */
const HELD_PER_READER_MB = 1;
/**
 * HTTP responses still alive (after full collections) once the readers hung up: at most this many.
 * None should be (0 measured; nothing is in flight then: the volunteers' work has ended and the
 * harness asks the probe over IPC). A response kept by every tenth download shows as 5 after the
 * first wave of 50 (in the short form's 10, as 1: not caught there).
 */
const LIVE_RESPONSES_MAX = 2;
/** From one wave of readers to the next, RSS may grow this much at all (sampling noise). */
const RSS_FLAT_MB = 8;
/** Work before anything is measured: a fresh server's memory grows while it warms up, readers or not. */
const WARM_UP_SECONDS = 15;
/** At peak, the server's RSS may be at most this much per slow reader above before them (the archive itself is 20 MB: buffering it would show). */
const RSS_PER_READER_MB = 2;
/** Idle time after the readers hang up, before RSS is read (see {@link hangUp}). */
const SETTLE_SECONDS = 10;
/** How long the second wave of slow readers reads. */
const SECOND_WAVE_SECONDS = 10;

/** File descriptors the server process holds open (files being streamed, sockets). */
async function openFiles(server: ServerProcess): Promise<number> {
  return (await fs.readdir(`/proc/${server.child.pid}/fd`).catch(() => [] as string[])).length;
}

/**
 * Hangs every reader up, then waits until the server has closed the files they had open (10 s at
 * most), then until the collector has had its turn: V8's memory reducer collects about 8 s after a
 * process stops allocating, and until then the buffers the readers left are garbage still counted in
 * RSS, not memory kept.
 */
async function hangUp(
  server: ServerProcess,
  readers: readonly SlowReader[],
  filesBefore: number,
): Promise<number> {
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

/** The server's CPU below this share of a core for two half seconds in a row: the readers' connect burst is over. */
const BURST_OVER_CPU = 0.1;
/** The longest the burst is waited for (reported when reached). */
const BURST_MAX_SECONDS = 10;

/**
 * Waits, with nothing else running, until the slow readers' connect burst is over (see the top of
 * this file): once their connections have backed up, they take bytes only at their trickle. A phone
 * on a bad network takes its first bytes no faster than the rest; on loopback the first few MB of
 * each go at full speed, and measuring the others' latency during that would measure loopback.
 * Counted from when every reader had its first bytes.
 */
async function connectBurst(
  server: ServerProcess,
): Promise<{ seconds: number; cpuSeconds: number; capped: boolean }> {
  const pid = server.child.pid;
  if (pid === undefined) throw new Error('the server has no process id');
  const started = performance.now();
  const cpuAtStart = await cpuSeconds(pid);
  let cpu = cpuAtStart;
  let at = started;
  let quiet = 0;
  while (quiet < 2) {
    if (performance.now() - started > BURST_MAX_SECONDS * 1000) {
      return { seconds: (performance.now() - started) / 1000, cpuSeconds: cpu - cpuAtStart, capped: true };
    }
    // Half seconds: CPU time is counted in 10 ms ticks, so a tenth of a core is five of them.
    await sleep(500);
    if (server.exited()) throw new Error('the server exited while the slow readers connected');
    const now = await cpuSeconds(pid);
    const time = performance.now();
    quiet = (now - cpu) / ((time - at) / 1000) < BURST_OVER_CPU ? quiet + 1 : 0;
    cpu = now;
    at = time;
  }
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: cpu - cpuAtStart, capped: false };
}

/** The p99 of each compared family. */
const p99s = (recorder: Recorder) =>
  new Map(COMPARED.map((family) => [family, percentile(recorder.families.get(family) ?? [], 99)]));

/** What the server holds and its RSS, at the start and at the end of some work. */
interface Span {
  held: { start: RetainedMemory; end: RetainedMemory };
  rss: { start: number; end: number };
}

/**
 * The volunteers' work for `seconds`, with what the server holds (full collections, outside the
 * timed window) and its RSS just before and just after it.
 */
async function work(
  server: ServerProcess,
  volunteers: readonly Browser[],
  clients: readonly string[],
  pdfs: readonly Pdf[],
  seconds: number,
): Promise<{ recorder: Recorder } & Span> {
  const recorder = createRecorder();
  const counts = newCounts();
  const held = await server.retainedMb();
  const rss = await server.rssMb();
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    volunteers.map((volunteer, i) =>
      workLoop(volunteer, clients[i] ?? '', recorder, counts, until, {
        pdfs,
        zipEvery: 0,
        offset: i,
        renameEvery: 5,
      }),
    ),
  );
  // As at the start: RSS right after the forced collection.
  const heldAtEnd = await server.retainedMb();
  return { recorder, rss: { start: rss, end: await server.rssMb() }, held: { start: held, end: heldAtEnd } };
}

export const scenario: Scenario = {
  name: 'Slow clients',
  async run({ short, log }) {
    const readerCount = short ? 10 : 50;
    const workerCount = short ? 5 : 20;
    const seconds = short ? 10 : 30;
    const server = await startServer({ dataDir: await freshDataDir('slow'), memoryProbe: true });
    const readers: SlowReader[] = [];
    let rss: RssWatch | undefined;
    try {
      const { volunteers } = await setUpProgramme(server.url, workerCount + 1);
      const [owner, ...workers] = volunteers;
      if (!owner) throw new Error('no volunteer to own the big client');
      const clients = await clientsFor(workers);
      const big = (await clientsFor([owner]))[0] ?? '';
      // The archive: the seeded 1 MB document and 19 more of 1 MB.
      await Promise.all(
        Array.from({ length: 19 }, (_, i) =>
          upload(
            owner,
            big,
            FIXED_CATEGORIES[i % FIXED_CATEGORIES.length] ?? '13614-C',
            `page ${i + 1}.pdf`,
            randomPdf(MB),
          ),
        ),
      );
      const pdfs = pdfPool(short ? 8 : 32);

      log(`warm-up: ${workerCount} volunteers working for ${WARM_UP_SECONDS} s`);
      const { recorder: warmUp } = await work(server, workers, clients, pdfs, WARM_UP_SECONDS);
      log(`unloaded: the same work for ${seconds} s`);
      const { recorder: unloaded, ...without } = await work(server, workers, clients, pdfs, seconds);
      rss = await watchRss(server, 500);
      const filesBefore = await openFiles(server);

      const zipUrl = `${server.url}/api/clients/${encodeURIComponent(big)}/docs/download-all`;
      const headers = { cookie: owner.cookieHeader() };
      readers.push(...(await startReaders(readerCount, zipUrl, headers)));
      const burst = await connectBurst(server);
      log(
        `${readers.filter((r) => r.received() > 0).length} of ${readerCount} slow readers receiving; their connect burst took ` +
          `${burst.seconds.toFixed(1)} s (${burst.cpuSeconds.toFixed(1)} s of the server's CPU)${burst.capped ? ', the most waited' : ''}; ` +
          `loaded: the same work for ${seconds} s`,
      );
      const { recorder: loaded, ...reading } = await work(server, workers, clients, pdfs, seconds);
      const peakWhileSlow = rss.peak();
      const filesWhileSlow = await openFiles(server);
      const slowBytes = readers.reduce((sum, r) => sum + r.received(), 0);
      const readerProblems = (wave: readonly SlowReader[], label: string) =>
        wave
          .map((r, i) => {
            if (r.error()) return `${label} slow reader ${i}: ${r.error()?.message}`;
            if (r.status() !== 200) return `${label} slow reader ${i}: status ${r.status() ?? 'none'}`;
            if (r.ended())
              return `${label} slow reader ${i}: the archive ended early after ${r.received()} bytes`;
            return '';
          })
          .filter(Boolean);
      const firstProblems = readerProblems(readers, 'first wave');

      // Everyone hangs up at once; the server must drop the streams, their files and their buffers.
      const filesAfter = await hangUp(server, readers, filesBefore);
      // RSS is read right after each forced collection, so every RSS compared here is read the same way.
      const afterFirstHeld = await server.retainedMb();
      const afterFirst = { held: afterFirstHeld, rss: await server.rssMb() };
      // A second wave on the same server: memory the first one left must be reused, not added to.
      log(`second wave: ${readerCount} slow readers for ${SECOND_WAVE_SECONDS} s`);
      const second = await startReaders(readerCount, zipUrl, headers);
      readers.push(...second);
      await sleep(SECOND_WAVE_SECONDS * 1000);
      const secondProblems = readerProblems(second, 'second wave');
      const filesAfterSecond = await hangUp(server, second, filesBefore);
      const afterSecondHeld = await server.retainedMb();
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
      if (burst.capped)
        broke.push(`the slow readers' connect burst was still going after ${BURST_MAX_SECONDS} s`);
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
      const mb = (value: number, digits = 0) => `${value.toFixed(digits)} MB`;
      const signed = (value: number, digits = 1) => `${value < 0 ? '−' : '+'}${mb(Math.abs(value), digits)}`;
      const check = (ok: boolean, text: string, limit: string) =>
        ok ? held.push(`${text} (at most ${limit})`) : broke.push(`${text}: more than ${limit}`);
      // What the server holds after full collections: no garbage, no allocator slack.
      const grewWithout = without.held.end.total - without.held.start.total;
      const grewWith = reading.held.end.total - reading.held.start.total;
      const allowed = Math.max(0, grewWithout) + HELD_FLAT_MB;
      check(
        grewWith <= allowed,
        `held memory ${mb(reading.held.start.total, 1)} → ${mb(reading.held.end.total, 1)} while the slow readers read (${signed(grewWith)}), ` +
          `${mb(without.held.start.total, 1)} → ${mb(without.held.end.total, 1)} in the same work without them (${signed(grewWithout)})`,
        `${signed(allowed)} with them`,
      );
      const perReader = (reading.held.start.total - without.held.end.total) / readerCount;
      check(
        perReader <= HELD_PER_READER_MB,
        `held with the ${readerCount} readers connected ${mb(reading.held.start.total, 1)} against ${mb(without.held.end.total, 1)} before them ` +
          `(${mb(perReader * 1024, 0).replace('MB', 'KB')} each)`,
        `${HELD_PER_READER_MB} MB each`,
      );
      // Between the two readings the loaded work ran, which grows what is held by itself (as without them).
      const backAllowed = Math.max(0, grewWithout) + HELD_FLAT_MB;
      check(
        afterFirst.held.total <= without.held.end.total + backAllowed,
        `held ${mb(afterFirst.held.total, 1)} after they hung up (array buffers ${mb(afterFirst.held.arrayBuffers, 1)})`,
        `${signed(backAllowed)} on ${mb(without.held.end.total, 1)} before them`,
      );
      check(
        afterSecondHeld.total <= afterFirst.held.total + HELD_FLAT_MB,
        `held ${mb(afterSecondHeld.total, 1)} after a second wave of ${readerCount} (array buffers ${mb(afterSecondHeld.arrayBuffers, 1)})`,
        `${signed(HELD_FLAT_MB, 0)} on after the first`,
      );
      // Counted, not weighed: a few small objects kept per download hide inside the megabytes above.
      const liveBefore = without.held.end.live.responses;
      const liveWith = reading.held.start.live.responses;
      const seen = `${liveWith} HTTP responses alive with the ${readerCount} readers connected against ${liveBefore} before them`;
      if (liveWith - liveBefore >= readerCount) held.push(`${seen} (the count sees them)`);
      else broke.push(`${seen}: the probe does not see them`);
      check(
        Math.max(afterFirst.held.live.responses, afterSecondHeld.live.responses) <= LIVE_RESPONSES_MAX,
        `HTTP responses alive after full collections: ${afterFirst.held.live.responses} after they hung up, ` +
          `${afterSecondHeld.live.responses} after the second wave (sockets ${without.held.end.live.sockets} before them, ` +
          `${afterFirst.held.live.sockets} and ${afterSecondHeld.live.sockets} after)`,
        `${LIVE_RESPONSES_MAX}`,
      );
      check(
        memory.after <= afterFirst.rss + RSS_FLAT_MB,
        `RSS ${mb(afterFirst.rss)} after the first wave hung up, ${mb(memory.after)} after the second`,
        `${signed(RSS_FLAT_MB, 0)}`,
      );
      check(
        memory.peak <= memory.before + readerCount * RSS_PER_READER_MB,
        `RSS peak ${mb(memory.peak)} against ${mb(memory.before)} before them`,
        `${RSS_PER_READER_MB} MB per reader`,
      );
      const filesText = `open files ${filesBefore} before, ${filesWhileSlow} with the slow readers, ${filesAfter} after, ${filesAfterSecond} after the second wave`;
      if (filesAfter <= filesBefore && filesAfterSecond <= filesBefore) held.push(filesText);
      else broke.push(`${filesText}: not all released`);
      if (answers > 0 && answers < 500) held.push('the server still answers afterwards');
      else
        broke.push(
          `GET /api/me ${answers ? `answered ${answers}` : 'got no answer'} after the slow readers hung up`,
        );

      const row: Row = {
        scenario: this.name,
        done:
          `${readerCount} slow readers of a 20 × 1 MB client's ZIP at ${SLOW_BYTES_PER_SECOND / 1024} KB/s each ` +
          `(${(slowBytes / MB).toFixed(1)} MB taken in all), then aborted, while ${workerCount} volunteers worked ${seconds} s ` +
          `(measured once the readers' connect burst was over: ${burst.seconds.toFixed(1)} s and ${burst.cpuSeconds.toFixed(1)} s of the server's CPU ` +
          `after each had its first bytes), then a second wave of ${readerCount} for ${SECOND_WAVE_SECONDS} s; ` +
          `server RSS ${mb(memory.before)} before, ${mb(peakWhileSlow)} peak while they read, ${mb(afterFirst.rss)} after the first wave, ` +
          `${mb(memory.after)} after the second; RSS over the same work ${mb(without.rss.start)} → ${mb(without.rss.end)} without them, ` +
          `${mb(reading.rss.start)} → ${mb(reading.rss.end)} with them; held after full collections (V8 heap in use + external) ` +
          `${mb(without.held.start.total, 1)} before the work, ${mb(without.held.end.total, 1)} after it (heap ${mb(without.held.end.heapUsed, 1)}, ` +
          `external ${mb(without.held.end.external, 1)}, of which array buffers ${mb(without.held.end.arrayBuffers, 1)}), ` +
          `${mb(reading.held.start.total, 1)} with the readers connected (heap ${mb(reading.held.start.heapUsed, 1)}, ` +
          `external ${mb(reading.held.start.external, 1)}, of which array buffers ${mb(reading.held.start.arrayBuffers, 1)}) ` +
          `(before: ${unloaded.requests()} requests, ${familyLines(unloaded).join('; ')}; ` +
          `with the slow readers: ${loaded.requests()} requests, ${familyLines(loaded).join('; ')})`,
        held: held.join('; '),
        broke: broke.join('; '),
      };
      return row;
    } finally {
      for (const reader of readers) reader.abort();
      await rss?.stop();
      await server.stop();
    }
  },
};
