import { and, eq } from 'drizzle-orm';
import { openDatabase, withoutTenant, withTenant, type Database } from './db/client';
import { organizations, ssoSettings, twoFactorEnrolments } from './db/schema';
import { loadConfig } from './env';
import { secretBoxOf, type SecretBox } from './secret-box';
import { runWhenMain } from './paths';

export interface ResealCounts {
  /** Sealed again under the current ENCRYPTION_KEY. */
  resealed: number;
  /** Already under the current key. */
  current: number;
  /** Opened by no key this server holds (a key lost): left as they are; the person or admin enters them again. */
  unreadable: number;
}

/**
 * Seals every stored secret (two-factor secrets, SSO client secrets) under the current ENCRYPTION_KEY, each
 * organisation in its own scope (decision 083). Idempotent; run after a key change, then the previous key can go.
 */
export async function resealSecrets(database: Database, box: SecretBox): Promise<ResealCounts> {
  const counts: ResealCounts = { resealed: 0, current: 0, unreadable: 0 };
  const orgIds = await withoutTenant(database.db, async (tx) => (await tx.select({ id: organizations.id }).from(organizations)).map((o) => o.id));
  const outcome = (sealed: string, purpose: 'two-factor-secret' | 'sso-client-secret') => {
    if (box.isCurrent(sealed)) return (counts.current++, null);
    const plain = box.open(purpose, sealed);
    if (plain === null) return (counts.unreadable++, null);
    counts.resealed++;
    return box.seal(purpose, plain);
  };
  for (const orgId of orgIds) {
    await withTenant(database.db, orgId, async (tx) => {
      const enrolments = await tx.select().from(twoFactorEnrolments).where(eq(twoFactorEnrolments.orgId, orgId));
      for (const row of enrolments) {
        const sealed = outcome(row.secretCipher, 'two-factor-secret');
        if (sealed)
          await tx
            .update(twoFactorEnrolments)
            .set({ secretCipher: sealed })
            .where(and(eq(twoFactorEnrolments.orgId, orgId), eq(twoFactorEnrolments.userId, row.userId)));
      }
      const [sso] = await tx.select().from(ssoSettings).where(eq(ssoSettings.orgId, orgId));
      const sealed = sso && outcome(sso.clientSecretEncrypted, 'sso-client-secret');
      if (sealed) await tx.update(ssoSettings).set({ clientSecretEncrypted: sealed }).where(eq(ssoSettings.orgId, orgId));
    });
  }
  return counts;
}

/** `npm run secrets:reseal`: with ENCRYPTION_KEY the new key and ENCRYPTION_KEY_PREVIOUS the old one(s). */
async function main() {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir });
  try {
    const counts = await resealSecrets(database, secretBoxOf(config));
    console.log(`resealed ${counts.resealed}, already current ${counts.current}, unreadable ${counts.unreadable}`);
    if (counts.unreadable) process.exitCode = 1;
  } finally {
    await database.close();
  }
}

runWhenMain(import.meta.url, main);
