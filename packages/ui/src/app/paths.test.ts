import { describe, expect, it } from 'vitest';
import { loginFor, nextQuery, paths, safeNext } from './paths';

describe('paths', () => {
  it('URL-encodes emails and category names (which may contain /)', () => {
    expect(paths.adminUser('vera+1@example.org')).toBe('/admin/users/vera%2B1%40example.org');
    expect(paths.clientDocType('abc', 'License/Other Identification')).toBe(
      '/clients/abc/docs/License%2FOther%20Identification',
    );
  });

  it('writes ?next= with readable slashes', () => {
    expect(loginFor('/clients/new')).toBe('/login?next=/clients/new');
    expect(nextQuery(null)).toBe('');
  });

  it('keeps an encoded path intact through ?next=', () => {
    const path = paths.clientDocType('abc', 'W-2 (a&b)');
    const next = new URLSearchParams(nextQuery(path)).get('next');
    expect(next).toBe(path);
  });

  it('accepts only paths inside the app as next', () => {
    expect(safeNext('/clients/new')).toBe('/clients/new');
    for (const bad of [null, '', 'https://evil.example', '//evil.example', '/\\evil.example', 'clients']) {
      expect(safeNext(bad)).toBeNull();
    }
  });
});
