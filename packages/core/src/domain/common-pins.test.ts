import { describe, expect, it } from 'vitest';
import { NewPin } from '../api/fields.js';
import { isCommonPin } from './common-pins.js';

describe('common PINs', () => {
  it('refuses breached favourites, repeated characters and keyboard runs, whatever the case or spaces', () => {
    for (const pin of [
      '12345678',
      'Password1',
      'pass word 123',
      'aaaaaaaaaa',
      '98765432',
      'QWERTYUIOP',
      'lkjhgfdsa',
    ]) {
      expect(isCommonPin(pin), pin).toBe(true);
    }
  });

  it('accepts a PIN of ordinary words and digits', () => {
    for (const pin of ['correct horse battery', 'maple 4471 river', '8159 2270'])
      expect(isCommonPin(pin), pin).toBe(false);
  });

  it('is part of the Password PIN rule, with the message people see', () => {
    expect(NewPin.safeParse('password123').error?.issues[0]?.message).toBe('Choose a less common PIN.');
    expect(NewPin.safeParse('correct horse battery').success).toBe(true);
  });
});
