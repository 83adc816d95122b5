import { describe, expect, it } from 'vitest';
import { parseIntakeArgs } from './args.js';

const full = [
  '--server',
  'https://vita.example.org',
  '--folder',
  'scans',
  '--client',
  'abcdefgh12',
  '--category',
  'W-2',
  '--email',
  'v@example.org',
];

describe('intake arguments', () => {
  it('take the documented flags, after the `--` that pnpm passes through', () => {
    expect(parseIntakeArgs(['--', ...full])).toEqual({
      ok: true,
      args: {
        server: 'https://vita.example.org',
        folder: 'scans',
        client: 'abcdefgh12',
        category: 'W-2',
        email: 'v@example.org',
        convert: true,
        afterUpload: 'move',
        mode: 'auto',
      },
    });
    const noConvert = parseIntakeArgs([...full, '--no-convert', '--delete']);
    expect(noConvert.ok && noConvert.args).toMatchObject({
      convert: false,
      afterUpload: 'delete',
      mode: 'auto',
    });
    const poll = parseIntakeArgs([...full, '--poll']);
    expect(poll.ok && poll.args.mode).toBe('poll');
  });

  it('name every missing or bad flag, with the usage', () => {
    const result = parseIntakeArgs(['--server', 'ftp://x', '--email', 'nope']);
    expect(result.ok).toBe(false);
    const message = result.ok ? '' : result.message;
    for (const text of [
      '--server must be an http(s) address',
      '--folder is required',
      '--client is required',
      '--category is required',
      '--email must be an email address',
      'Usage:',
    ]) {
      expect(message).toContain(text);
    }
    expect(parseIntakeArgs(['--bogus'])).toMatchObject({ ok: false, error: true });
    expect(parseIntakeArgs(['--help'])).toMatchObject({ ok: false, error: false });
  });

  it('take a client id that starts with a dash, and still report a flag given no value', () => {
    const dashed = parseIntakeArgs([
      '--server',
      'https://vita.example.org',
      '--folder',
      'scans',
      '--client',
      '-Xy3_ab',
      '--category',
      'W-2',
      '--email',
      'v@example.org',
    ]);
    expect(dashed.ok && dashed.args.client).toBe('-Xy3_ab');
    const doubleDashed = parseIntakeArgs([
      '--server',
      'https://vita.example.org',
      '--folder',
      'scans',
      '--client',
      '--y3_ab',
      '--category',
      'W-2',
      '--email',
      'v@example.org',
    ]);
    expect(doubleDashed.ok && doubleDashed.args.client).toBe('--y3_ab');
    const forgotten = parseIntakeArgs([
      '--server',
      'https://vita.example.org',
      '--folder',
      'scans',
      '--client',
      '--category',
      'W-2',
      '--email',
      'v@example.org',
    ]);
    expect(forgotten).toMatchObject({ ok: false, error: true });
  });
});
