import { and, eq, isNull } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Tx } from '../../server/db/client';
import { invitations, organizations, users } from '../../server/db/schema';

/**
 * The one writer of the identity tables: organisations, users and invitations (issue 40). Who may change what
 * stays with each area's service (people in users, the company in organization, a person's notification settings
 * in activity, single sign-on in sso); the statements that create a person or an organisation, change a role, a
 * password, a token version or an invitation are all here, so that one file answers where they can change. The
 * lint rule in eslint.config.js keeps drizzle's writes of these tables here. (The organisation import restores
 * every table of an archive by name, these included: decision 069.)
 */

type UserValues = typeof users.$inferInsert;
type OrganisationValues = typeof organizations.$inferInsert;

const theUser = (orgId: number, userId: number) => and(eq(users.orgId, orgId), eq(users.id, userId));

/** A new organisation (signup, the demo); its id and subdomain. */
export async function insertOrganisation(tx: Tx, values: OrganisationValues) {
  const [created] = await tx.insert(organizations).values(values).returning({ id: organizations.id, subdomain: organizations.subdomain });
  return created;
}

/** Changes the organisation's own row (its company details, its logo). */
export async function writeOrganisation(tx: Tx, orgId: number, values: PgUpdateSetSource<typeof organizations>) {
  await tx.update(organizations).set(values).where(eq(organizations.id, orgId));
}

/** New people of one organisation; each one's id, role and token version, in the order given. */
export function insertUsers(tx: Tx, values: UserValues[]) {
  return tx.insert(users).values(values).returning({ id: users.id, role: users.role, tokenVersion: users.tokenVersion });
}

/** Changes one person's row; false when the organisation has no such person. */
export async function writeUser(tx: Tx, orgId: number, userId: number, values: PgUpdateSetSource<typeof users>) {
  const changed = await tx.update(users).set(values).where(theUser(orgId, userId)).returning({ id: users.id });
  return changed.length > 0;
}

/** Removes one person (their sessions go with them: cascade). */
export async function deleteUserRow(tx: Tx, orgId: number, userId: number) {
  await tx.delete(users).where(theUser(orgId, userId));
}

/** A single-use invitation (its token stored hashed). */
export async function insertInvitation(tx: Tx, values: typeof invitations.$inferInsert) {
  await tx.insert(invitations).values(values);
}

/**
 * Spends open invitations now: the one `invitationId` names, or every one of `userId`; the ids spent (none when
 * another request spent it first).
 */
export async function spendInvitations(tx: Tx, orgId: number, which: { invitationId: number } | { userId: number }) {
  const one = 'invitationId' in which ? eq(invitations.id, which.invitationId) : eq(invitations.userId, which.userId);
  return tx
    .update(invitations)
    .set({ usedAt: new Date() })
    .where(and(eq(invitations.orgId, orgId), one, isNull(invitations.usedAt)))
    .returning({ id: invitations.id });
}
