import { describe, expect, it } from 'vitest';
import { deskStatusLine } from './desk-texts.js';

const time = (ms: number) => new Date(ms).toISOString().slice(11, 16);
const base = { mode: 'watch', intervalMs: 2000, reachable: true, waiting: 0, lastScanAt: null } as const;

describe('the desk bar status line', () => {
  it('says how the folder is followed, how many scans wait and when the last one came', () => {
    expect(deskStatusLine({ ...base, folder: 'D:\\Scans' }, time)).toBe(
      'Watching D:\\Scans · No scans waiting',
    );
    expect(
      deskStatusLine(
        {
          ...base,
          folder: '\\\\server\\scans',
          mode: 'poll',
          waiting: 12,
          lastScanAt: Date.UTC(2026, 0, 5, 14, 32),
        },
        time,
      ),
    ).toBe('Polling \\\\server\\scans every 2 s · 12 scans waiting · last scan 14:32');
    expect(deskStatusLine({ ...base, folder: '/srv/scans', waiting: 1 }, time)).toBe(
      'Watching /srv/scans · 1 scan waiting',
    );
  });

  it('says only that the folder is not reachable while it is not', () => {
    expect(deskStatusLine({ ...base, folder: '/mnt/scans', reachable: false, waiting: 3 }, time)).toBe(
      'The scanner folder is not reachable.',
    );
    expect(deskStatusLine({ ...base, folder: null }, time)).toBe('');
  });
});
