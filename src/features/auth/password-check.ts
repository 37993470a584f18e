import type { Db } from '../../server/db/client';
import { withTenant } from '../../server/db/client';
import { orgRow } from '../../server/db/org-rows';
import { users } from '../../server/db/schema';
import { verifyPassword } from '../../server/passwords';

/**
 * Whether `password` is the user's: the hash is read in a read-only scope of its own and checked outside any
 * transaction (decision 021). False for a user the organisation does not have.
 */
export async function passwordMatches(db: Db, orgId: number, userId: number, password: string): Promise<boolean> {
  const [user] = await withTenant(
    db,
    orgId,
    (tx) =>
      tx
        .select({ passwordHash: users.passwordHash })
        .from(users)
        .where(orgRow(users, orgId, userId)),
    {
      readOnly: true,
    },
  );
  return Boolean(user) && (await verifyPassword(user.passwordHash, password));
}
