import { describe, expect, it } from 'vitest';
import { optionalText, requiredText } from './fields.js';

describe('the shared text rule', () => {
  const name = requiredText('Name');
  const note = optionalText('Note');

  it('refuses line and paragraph separators and invisible characters', () => {
    for (const value of ['a\u2028b', 'a\u2029b', 'a\u200bb', 'a\u2060b', 'a\ufeffb']) {
      for (const schema of [name, note]) {
        const result = schema.safeParse(value);
        expect(result.success, JSON.stringify(value)).toBe(false);
        expect(result.error?.issues[0]?.message).toMatch(/contains characters that are not allowed\.$/);
      }
    }
  });

  it('keeps the joiners names and emoji are written with', () => {
    for (const value of ['Fam\u200dily', 'می\u200cخواهم', '\ud83d\udc68\u200d\ud83d\udc67']) {
      expect(name.parse(value)).toBe(value);
      expect(note.parse(value)).toBe(value);
    }
  });
});
