import { and, eq } from 'drizzle-orm';
import type { Db } from '../../server/db/client';
import { withTenant } from '../../server/db/client';
import { ssoSettings } from './sso.table';

/**
 * Whether password sign-in is closed to everyone but admins (single sign-on on, "allow only single sign-on" chosen).
 * Read by the password login after the password was found right (decision 077): the refusal tells nothing to someone
 * without the password. Kept apart from sso.service.ts, which uses the auth service (no import cycle).
 */
export async function passwordSignInClosed(db: Db, orgId: number): Promise<boolean> {
  const [row] = await withTenant(
    db,
    orgId,
    (tx) =>
      tx
        .select({ enabled: ssoSettings.enabled, ssoOnly: ssoSettings.ssoOnly })
        .from(ssoSettings)
        .where(and(eq(ssoSettings.orgId, orgId))),
    { readOnly: true },
  );
  return !!row && row.enabled && row.ssoOnly;
}
