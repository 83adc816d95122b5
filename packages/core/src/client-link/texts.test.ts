import { describe, expect, it } from 'vitest';
import { CLIENT_LINK_LANGUAGES, CLIENT_LINK_TEXTS, clientLinkText, maskEmail } from './texts.js';

describe('client link texts', () => {
  it('has every key in every language, and no language has one the others lack', () => {
    const keys = CLIENT_LINK_LANGUAGES.map((l) => Object.keys(CLIENT_LINK_TEXTS[l]).sort());
    for (const list of keys) expect(list).toEqual(keys[0]);
    for (const l of CLIENT_LINK_LANGUAGES)
      for (const [key, text] of Object.entries(CLIENT_LINK_TEXTS[l]))
        expect(text, `${l}.${key}`).not.toBe('');
  });

  it('keeps each text’s places in every language', () => {
    const places = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
    for (const [key, text] of Object.entries(CLIENT_LINK_TEXTS.en))
      expect(places(CLIENT_LINK_TEXTS.es[key as keyof typeof CLIENT_LINK_TEXTS.es]), key).toEqual(
        places(text),
      );
  });

  it('has the issue’s English texts exactly', () => {
    expect(clientLinkText('en', 'greeting', { firstName: 'Jane' })).toBe(
      'Hi Jane, please add these documents',
    );
    expect(clientLinkText('en', 'codeSent', { email: maskEmail('jane@example.org') })).toBe(
      'We sent a 6-digit code to j•••@example.org.',
    );
    expect(CLIENT_LINK_TEXTS.en.locked).toBe('Too many wrong tries. Try again in 30 minutes.');
    expect(CLIENT_LINK_TEXTS.en.thanks).toBe('Thank you. Your volunteer has been told.');
    expect(CLIENT_LINK_TEXTS.en.expired).toBe('This link has expired. Ask your volunteer for a new one.');
    expect(CLIENT_LINK_TEXTS.en.dontHave).toBe("I don't have this");
    expect(CLIENT_LINK_TEXTS.en.done).toBe("I'm done");
  });
});
