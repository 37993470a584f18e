import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../server/db/client';
import { withTenant } from '../../server/db/client';
import { twoFactorEnrolments } from '../../server/db/schema';
import { HttpError, badRequest } from '../../server/http-error';
import { PASSWORD_INCORRECT, TWO_FACTOR_OFF } from './two-factor.schema';
import { hashRecoveryCode, newRecoveryCode, RECOVERY_CODES } from './two-factor.service';
import { passwordMatches } from '../auth/password-check';

/**
 * Ten new recovery codes for a person whose codes run low or were seen by someone else (decision 083): the password
 * is checked again (outside any transaction, decision 021), the old codes are void by the same write that stores
 * the new hashes; the codes are answered this once.
 */
export async function regenerateRecoveryCodes(db: Db, orgId: number, userId: number, password: string) {
  if (!(await passwordMatches(db, orgId, userId, password))) {
    throw new HttpError(400, PASSWORD_INCORRECT, [{ path: 'password', message: PASSWORD_INCORRECT }]);
  }
  const recoveryCodes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  const replaced = await withTenant(db, orgId, (tx) =>
    tx
      .update(twoFactorEnrolments)
      .set({ recoveryHashes: recoveryCodes.map(hashRecoveryCode) })
      .where(and(eq(twoFactorEnrolments.orgId, orgId), eq(twoFactorEnrolments.userId, userId), isNotNull(twoFactorEnrolments.confirmedAt)))
      .returning({ userId: twoFactorEnrolments.userId }),
  );
  if (replaced.length === 0) throw badRequest(TWO_FACTOR_OFF);
  return { recoveryCodes };
}
