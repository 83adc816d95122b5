import { describe, expect, it } from 'vitest';
import { appOrigin, isAllowedExternal, isAppUrl } from './origin.js';

describe('app origin checks', () => {
  it('accept the app scheme and host, including client-side routes', () => {
    const origin = appOrigin(undefined);
    expect(origin).toBe('app://vita');
    expect(isAppUrl('app://vita/', origin)).toBe(true);
    expect(isAppUrl('app://vita/clients/abc/docs?x=1#y', origin)).toBe(true);
  });

  it('refuse everything else', () => {
    const origin = appOrigin(undefined);
    for (const url of [
      'app://evil/',
      'app://vita.evil.example/',
      'application://vita/',
      'https://vita/',
      'file:///etc/passwd',
      'app://user:pw@vita/',
      'not a url',
      '',
    ]) {
      expect(isAppUrl(url, origin), url).toBe(false);
    }
  });

  it('use the dev server origin while developing', () => {
    const origin = appOrigin('http://localhost:5173/index.html');
    expect(isAppUrl('http://localhost:5173/clients', origin)).toBe(true);
    expect(isAppUrl('http://localhost:5174/', origin)).toBe(false);
    expect(isAppUrl('app://vita/', origin)).toBe(false);
  });
});

describe('isAllowedExternal', () => {
  it('opens nothing by default, and only https links to allowed origins', () => {
    expect(isAllowedExternal('https://vita.example.edu/help', [])).toBe(false);
    const allowed = ['https://vita.example.edu'];
    expect(isAllowedExternal('https://vita.example.edu/help', allowed)).toBe(true);
    expect(isAllowedExternal('http://vita.example.edu/help', allowed)).toBe(false);
    expect(isAllowedExternal('https://vita.example.edu.evil.test/', allowed)).toBe(false);
    expect(isAllowedExternal('https://user@vita.example.edu/', allowed)).toBe(false);
    expect(isAllowedExternal('file:///etc/passwd', allowed)).toBe(false);
    expect(isAllowedExternal('not a url', allowed)).toBe(false);
  });
});
