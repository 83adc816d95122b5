/**
 * PINs an attacker tries first: the most common passwords of 8 or more characters in public breach
 * corpora, and patterns (one repeated character, a run of the keyboard or the alphabet). Compared
 * case-insensitively, ignoring spaces.
 */
const COMMON = new Set([
  '12345678', '123456789', '1234567890', '12345678910', '123123123', '11111111', '00000000', '88888888',
  '87654321', '987654321', '0987654321', '11223344', '12341234', '147258369', '159753123', '123321123',
  'password', 'password1', 'password12', 'password123', 'password!', 'passw0rd', 'p@ssw0rd', 'p@ssword',
  'iloveyou', 'iloveyou1', 'sunshine', 'princess', 'football', 'baseball', 'welcome1', 'welcome123',
  'qwertyuiop', 'qwerty123', 'qwerty12', '1qaz2wsx', '1q2w3e4r', '1q2w3e4r5t', 'zaq12wsx', 'qazwsxedc',
  'asdfghjkl', 'asdfasdf', 'zxcvbnm1', 'abcd1234', 'abc12345', 'abcdefgh', 'aa123456', 'a1234567',
  'superman', 'batman123', 'starwars', 'trustno1', 'whatever', 'jennifer', 'michelle', 'danielle',
  'charlie1', 'computer', 'internet', 'letmein1', 'letmein123', 'liverpool', 'chelsea1', 'football1',
  'monkey123', 'dragon123', 'shadow123', 'master123', 'freedom1', 'changeme', 'secret123', 'admin123',
  'administrator', 'vitadocs', 'vitavita', 'taxhelp1', 'taxes123',
]);

const KEYBOARD_RUNS = ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm', 'abcdefghijklmnopqrstuvwxyz'];

/** True for a PIN on the common list or made of one repeated character or one keyboard/alphabet run. */
export function isCommonPin(pin: string): boolean {
  const plain = pin.toLowerCase().replace(/\s+/g, '');
  if (COMMON.has(plain)) return true;
  if (/^(.)\1*$/.test(plain)) return true;
  return KEYBOARD_RUNS.some((run) => run.includes(plain) || [...run].reverse().join('').includes(plain));
}
