import { describe, expect, it } from 'vitest';
import { auditActorLabel } from './audit-labels.js';
import { formatBytes, formatDate, formatDateTime, formatMegabytes, formatSizeLimit } from './format.js';
import { fileTooLargeMessage } from './messages.js';

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

  it('shows a size limit without a trailing .0, in the same 1024 steps', () => {
    expect(formatSizeLimit(25 * 1024 * 1024)).toBe('25 MB');
    expect(formatSizeLimit(1536 * 1024)).toBe('1.5 MB');
    expect(formatSizeLimit(64 * 1024)).toBe('64 KB');
    expect(formatSizeLimit(1024 * 1024 * 1024)).toBe('1 GB');
    expect(fileTooLargeMessage(25 * 1024 * 1024)).toBe('This file is larger than the 25 MB limit.');
  });
});

describe('dates as every screen writes them', () => {
  it('a moment with its time, a date alone, and a UTC calendar day, with plain spaces', () => {
    const at = new Date(2026, 10, 29, 5, 0);
    expect(formatDateTime(at)).toBe('Nov 29, 2026, 5:00 AM');
    expect(formatDateTime(at.toISOString())).toBe('Nov 29, 2026, 5:00 AM');
    expect(formatDate(at)).toBe('Nov 29, 2026');
    expect(formatDate('2026-12-02T00:00:00.000Z', { utc: true })).toBe('Dec 2, 2026');
  });
});

describe('who did it, in the audit log', () => {
  it('an account by its email; a client through a request link by their name', () => {
    expect(auditActorLabel({ actor: 'vera@example.org', clientName: 'Rosa Díaz' })).toBe('vera@example.org');
    expect(auditActorLabel({ actor: 'link:abc', clientName: 'Rosa Díaz' })).toBe(
      'Client Rosa Díaz (request link)',
    );
    expect(auditActorLabel({ actor: 'link:abc', clientName: null })).toBe('Client (request link)');
    expect(auditActorLabel({ actor: null, clientName: null })).toBe('—');
  });
});
