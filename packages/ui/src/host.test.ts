import { describe, expect, it } from 'vitest';
import { DEFAULT_PROGRAMME_URL, readProgrammeUrl } from './host';

/** A page whose only element is the programme meta tag with `content`, or no meta tag at all. */
function page(content?: string): Pick<ParentNode, 'querySelector'> {
  const meta = content === undefined ? null : ({ content } as HTMLMetaElement);
  return {
    querySelector: (selector: string) => (selector === 'meta[name="vita-programme-url"]' ? meta : null),
  };
}

describe('readProgrammeUrl', () => {
  it("prefers the server's meta tag, then the fallback, then the default", () => {
    expect(readProgrammeUrl('https://build.example.org/', page('https://vita.example.edu/'))).toBe(
      'https://vita.example.edu/',
    );
    expect(readProgrammeUrl('https://build.example.org/', page())).toBe('https://build.example.org/');
    expect(readProgrammeUrl(undefined, page())).toBe(DEFAULT_PROGRAMME_URL);
    expect(readProgrammeUrl('', page(''))).toBe(DEFAULT_PROGRAMME_URL);
  });
});
