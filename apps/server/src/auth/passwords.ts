import { hash, verify } from '@node-rs/argon2';

/** OWASP's argon2id profile (19 MiB, t=2, p=1); @node-rs/argon2 uses argon2id by default. */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes a Password PIN (or client PIN) with argon2id. */
export function hashPin(pin: string): Promise<string> {
  return hash(pin, OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a PIN against a stored hash. With no stored hash (unknown account) it still verifies
 * against a dummy so the answer takes the same time whether or not the account exists.
 */
export async function verifyPin(storedHash: string | null, pin: string): Promise<boolean> {
  if (storedHash === null) {
    dummyHash ??= hashPin('timing-equaliser-not-a-real-pin');
    await verify(await dummyHash, pin).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, pin);
  } catch {
    return false;
  }
}
