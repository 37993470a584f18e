import { hash, verify } from '@node-rs/argon2';

// OWASP's current argon2id parameters: m = 19 MiB, t = 2, p = 1. (Algorithm 2 = Argon2id.)
export const PASSWORD_HASH_OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1, algorithm: 2 } as const;

/**
 * The parameters new hashes are made with: OWASP's, except under the API test suite, which signs up hundreds
 * of organisations and asks for argon2's cheapest through ARGON2_TEST_COST=low (vitest.config.ts; decision
 * 028). Never in production. A hash carries its parameters, so any hash verifies whatever these are.
 */
export function passwordHashOptions(env: NodeJS.ProcessEnv = process.env) {
  if (env.ARGON2_TEST_COST === 'low' && env.NODE_ENV !== 'production') return { ...PASSWORD_HASH_OPTIONS, memoryCost: 1024, timeCost: 1 };
  return PASSWORD_HASH_OPTIONS;
}

const OPTIONS = passwordHashOptions();

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
