import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { open, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DocumentReader, DocumentReading } from '@vita-docs/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeFolder, tempFolder } from './inbox/test-support.js';
import { createScanReadings } from './scan-readings.js';

let folder: string;
beforeEach(async () => {
  folder = await tempFolder();
});
afterEach(() => removeFolder(folder));

/** A reader answering each file by its text, counting how many reads run at once. */
function recordingReader() {
  const log = { made: 0, closed: 0, reads: [] as string[], running: 0, most: 0 };
  const make = async (): Promise<DocumentReader> => {
    log.made += 1;
    return {
      async readDocument(bytes) {
        const text = Buffer.from(bytes).toString();
        log.reads.push(text);
        log.running += 1;
        log.most = Math.max(log.most, log.running);
        await new Promise((resolve) => setImmediate(resolve));
        log.running -= 1;
        if (text === 'broken') throw new Error('cannot read');
        // A reader that returned more than it should: only form, year and expiry are kept.
        return { form: text, year: 2024, name: 'Jane Doe' } as DocumentReading;
      },
      async close() {
        log.closed += 1;
      },
    };
  };
  return { log, make };
}

describe('scan readings', () => {
  it('makes the reader on the first scan, reads each scan once and one at a time, and closes it', async () => {
    const { log, make } = recordingReader();
    const read: string[] = [];
    const readings = createScanReadings({ createReader: make, onRead: (id) => read.push(id) });
    expect(log.made).toBe(0);
    for (const name of ['W-2', 'broken', '1099-INT']) await writeFile(join(folder, name), name);
    readings.add('a', join(folder, 'W-2'));
    readings.add('a', join(folder, 'W-2'));
    readings.add('b', join(folder, 'broken'));
    readings.add('c', join(folder, '1099-INT'));
    readings.add('gone', join(folder, 'missing'));
    await new Promise<void>((resolve) => {
      const wait = () => (read.includes('c') ? resolve() : setImmediate(wait));
      wait();
    });
    expect(log.made).toBe(1);
    expect(log.most).toBe(1);
    expect(log.reads).toEqual(['W-2', 'broken', '1099-INT']);
    expect(readings.get('a')).toEqual({ form: 'W-2', year: 2024 });
    expect(readings.get('b')).toBeUndefined();
    expect(readings.get('gone')).toBeUndefined();
    readings.forget('a');
    expect(readings.get('a')).toBeUndefined();
    await readings.close();
    expect(log.closed).toBe(1);
  });

  it('does not read a scan larger than the limit, and reads the next one', async () => {
    const { log, make } = recordingReader();
    const read: string[] = [];
    const readings = createScanReadings({ createReader: make, onRead: (id) => read.push(id), maxBytes: 8 });
    await writeFile(join(folder, 'big'), 'far more than eight bytes');
    await writeFile(join(folder, 'W-2'), 'W-2');
    readings.add('big', join(folder, 'big'));
    readings.add('small', join(folder, 'W-2'));
    await until(() => read.includes('small'));
    expect(log.reads).toEqual(['W-2']);
    expect(readings.get('big')).toBeUndefined();
    await readings.close();
  });

  it('reads only a regular file: a scan swapped for a link to a device or for a pipe holds nothing up', async () => {
    const { log, make } = recordingReader();
    const read: string[] = [];
    const readings = createScanReadings({ createReader: make, onRead: (id) => read.push(id) });
    // Listed as files, then swapped before their turn (whoever can write the folder can): a link
    // to an endless device (its size 0, under the limit) and a named pipe no one writes.
    const zero = join(folder, 'zero.pdf');
    const pipe = join(folder, 'pipe.pdf');
    await symlink('/dev/zero', zero);
    execFileSync('mkfifo', [pipe]);
    await writeFile(join(folder, 'W-2'), 'W-2');
    const before = process.memoryUsage().rss;
    let peak = before;
    const sample = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    try {
      readings.add('zero', zero);
      readings.add('pipe', pipe);
      readings.add('w2', join(folder, 'W-2'));
      await until(() => read.includes('w2'));
      expect(log.reads).toEqual(['W-2']);
    } finally {
      clearInterval(sample);
      console.info(`a link to /dev/zero: RSS grew ${Math.round((peak - before) / 2 ** 20)} MB at most`);
      // A reader blocked opening the pipe is let go.
      await open(pipe, constants.O_WRONLY | constants.O_NONBLOCK).then(
        (h) => h.close(),
        () => undefined,
      );
      await readings.close();
    }
    expect((peak - before) / 2 ** 20).toBeLessThan(100);
  }, 20_000);
});

/** Resolves once `done` holds, checked on each turn of the event loop. */
function until(done: () => boolean): Promise<void> {
  return new Promise<void>((resolve) => {
    const check = () => (done() ? resolve() : setImmediate(check));
    check();
  });
}
