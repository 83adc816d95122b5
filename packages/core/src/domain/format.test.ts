import { describe, expect, it } from 'vitest';
import { formatBytes, formatMegabytes } from './format.js';

describe('byte formatting', () => {
  it('steps by 1024 through B, KB, MB, GB', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1.0 KB');
    expect(formatBytes(1536 * 1024)).toBe('1.5 MB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GB');
    expect(formatBytes(5 * 1024 ** 4)).toBe('5120.0 GB');
  });

  it('shows queued files in MB', () => {
    expect(formatMegabytes(2.5 * 1024 * 1024)).toBe('2.50 MB');
  });
});
