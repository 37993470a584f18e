import { hash, verify } from '@node-rs/argon2';

// OWASP's current argon2id parameters: m = 19 MiB, t = 2, p = 1. (Algorithm 2 = Argon2id.)
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1, algorithm: 2 } as const;

export const hashPassword = (password: string) => hash(password, OPTIONS);

export async function verifyPassword(hashed: string | null | undefined, password: string) {
  if (!hashed) return false;
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

/** A hash of a random password, verified against when the account does not exist (same timing either way). */
let dummy: Promise<string> | undefined;
export const dummyHash = () => (dummy ??= hashPassword('not-a-real-password-' + Math.random()));
