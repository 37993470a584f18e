import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { passwordHashOptions, verifyPassword } from './passwords';

/** The suite hashes with argon2's cheapest (decision 028); the parameters everyone else gets are checked here. */
describe('password hashing parameters', () => {
  it("are OWASP's argon2id (m = 19 MiB, t = 2, p = 1) unless the test suite asks, and always in production", async () => {
    expect(passwordHashOptions({})).toEqual({ memoryCost: 19456, timeCost: 2, parallelism: 1, algorithm: 2 });
    expect(passwordHashOptions({ ARGON2_TEST_COST: 'low', NODE_ENV: 'production' })).toEqual(passwordHashOptions({}));
    expect(passwordHashOptions({ ARGON2_TEST_COST: 'yes' })).toEqual(passwordHashOptions({}));
    const hashed = await hash('Passw0rd!long', passwordHashOptions({}));
    expect(hashed.startsWith('$argon2id$v=19$m=19456,t=2,p=1$')).toBe(true);
    expect(await verifyPassword(hashed, 'Passw0rd!long')).toBe(true);
    expect(await verifyPassword(hashed, 'Passw0rd!Long')).toBe(false);
  });

  it('a cheap test hash still verifies, and only its own password', async () => {
    const cheap = await hash('Passw0rd!long', passwordHashOptions({ ARGON2_TEST_COST: 'low' }));
    expect(cheap.startsWith('$argon2id$v=19$m=1024,t=1,p=1$')).toBe(true);
    expect(await verifyPassword(cheap, 'Passw0rd!long')).toBe(true);
    expect(await verifyPassword(cheap, 'wrong')).toBe(false);
  });
});
