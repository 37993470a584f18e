import { and, asc, eq, ilike, or, sql } from 'drizzle-orm';
import { deleteUserRow, insertInvitation, insertUsers, spendInvitations, writeUser } from '../auth/identity-writes';
import { unionAll, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { ReadTx, Tx } from '../../server/db/client';
import { pageAndTotal, totalOver } from '../../server/db/paging';
import { isAnyOf, param, preparedRead } from '../../server/db/prepared';
import { assets, services, userAssets, users, userServices, userWorkStations, workStations } from '../../server/db/schema';
import { conflict, forbidden, notFound } from '../../server/http-error';
import { pgCode } from '../../server/db/pg-code';
import type { Mailer } from '../../server/mailer';
import { mailLanguage, mailTexts } from '../../server/mail-language';
import { pagination } from '../../shared/pagination';
import { newOpaqueToken, type AccessClaims } from '../auth/tokens';
import { diffChanges, registerActivityEntity } from '../activity/activity.service';
import type { inviteUserSchema, RelatedKey, UserDto, userUpdateSchema, usersQuerySchema } from './users.schema';
import { requireReferences } from '../../server/db/references';
import { escapeLike } from '../../server/db/like';
import { discardFiles } from '../../server/uploads/storage';

const history = registerActivityEntity('user', users, 'User');

export const INVITE_HOURS = 72;

const userColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  phoneNumber: users.phoneNumber,
  jobTitle: users.jobTitle,
  role: users.role,
  language: users.language,
  location: users.location,
  inviteStatus: users.inviteStatus,
  profilePicture: users.profilePicture,
  profilePictureLow: users.profilePictureLow,
  createdAt: users.createdAt,
  hourlyRate: users.hourlyRate,
};

/**
 * Users' rows as the API gives them, with their related work stations, assets and services read in one
 * statement (index lookups by user). Read per row inside the users' own statement they cost 2.5 times the rest of the list.
 */
async function asDtos(tx: ReadTx, orgId: number, rows: UserRow[], showRates: boolean): Promise<UserDto[]> {
  if (!rows.length) return [];
  const part = (
    key: RelatedKey,
    link: typeof userAssets | typeof userWorkStations | typeof userServices,
    linkTarget: AnyPgColumn,
    target: typeof assets | typeof workStations | typeof services,
    label: AnyPgColumn,
  ) =>
    tx
      .select({ userId: link.userId, key: sql<RelatedKey>`${sql.raw(`'${key}'`)}`.as('key'), id: target.id, label: sql<string>`${label}`.as('label') })
      .from(link as typeof userAssets)
      .innerJoin(target as typeof assets, and(eq(target.orgId, link.orgId), eq(target.id, linkTarget)))
      .where(and(eq(link.orgId, param('orgId')), isAnyOf(link.userId, param('ids'))));
  // Index lookups bounded by the organisation: one plan serves every organisation (decision 019).
  const links = await preparedRead(
    tx,
    'users.related',
    () =>
      unionAll(
        part('related_workStations', userWorkStations, userWorkStations.workStationId, workStations, workStations.name),
        part('related_assets', userAssets, userAssets.assetId, assets, assets.name),
        part('related_services', userServices, userServices.serviceId, services, services.title),
      ).orderBy(sql`4, 3`),
    { orgId, ids: rows.map((r) => r.id) },
    { onePlan: true },
  );
  const byUser = new Map(rows.map((r) => [r.id, { related_workStations: [], related_assets: [], related_services: [] } as Related]));
  for (const link of links) {
    const kept = byUser.get(link.userId);
    if (!kept) continue;
    if (link.key === 'related_services') kept.related_services.push({ id: link.id, title: link.label });
    else kept[link.key].push({ id: link.id, name: link.label });
  }
  return rows.map((r) => toDto(r, byUser.get(r.id)!, showRates));
}

type UserRow = Omit<UserDto, 'createdAt' | RelatedKey> & { createdAt: Date };
type Related = Pick<UserDto, RelatedKey>;

/** Field by field: a list row's extra columns (its total) stay out, and each row is copied once. */
const toDto = (row: UserRow, related: Related, showRates: boolean): UserDto => ({
  id: row.id,
  firstName: row.firstName,
  lastName: row.lastName,
  email: row.email,
  phoneNumber: row.phoneNumber,
  jobTitle: row.jobTitle,
  role: row.role,
  language: row.language,
  location: row.location,
  inviteStatus: row.inviteStatus,
  profilePicture: row.profilePicture,
  profilePictureLow: row.profilePictureLow,
  createdAt: row.createdAt.toISOString(),
  hourlyRate: showRates ? (row.hourlyRate ?? null) : null,
  related_workStations: related.related_workStations,
  related_assets: related.related_assets,
  related_services: related.related_services,
});

export async function getUser(tx: ReadTx, orgId: number, id: number): Promise<UserDto> {
  const [row] = await preparedRead(
    tx,
    'users.one',
    () =>
      tx
        .select(userColumns)
        .from(users)
        .where(and(eq(users.orgId, param('orgId')), eq(users.id, param('id')))),
    { orgId, id },
  );
  if (!row) throw notFound('User');
  // One person: the caller's own record, or one a manager reads or edits (their answers carry the rate).
  return (await asDtos(tx, orgId, [row], true))[0];
}

/** The organisation's people, newest last, with an optional name/e-mail filter. */
/** People's hourly rates (analytics' labour cost) are for managers' eyes; a worker sees null. */
const seesRates = (viewer: AccessClaims) => viewer.role === 'admin' || viewer.role === 'manager';

export async function listUsers(tx: ReadTx, orgId: number, viewer: AccessClaims, query: z.output<typeof usersQuerySchema>) {
  const pattern = query.name ? `%${escapeLike(query.name)}%` : undefined;
  const build = () =>
    tx
      .select({ ...userColumns, total: totalOver() })
      .from(users)
      .where(
        and(
          eq(users.orgId, param('orgId')),
          pattern ? or(ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, param('pattern')), ilike(users.email, param('pattern'))) : undefined,
        ),
      )
      .orderBy(asc(users.id))
      .limit(param('limit'))
      .offset(param('offset'));
  const { rows, total } = await pageAndTotal({ orgId, pattern, limit: query.pageSize, offset: (query.page - 1) * query.pageSize }, (values) =>
    preparedRead(tx, 'users.list', build, values),
  );
  return { users: await asDtos(tx, orgId, rows, seesRates(viewer)), pagination: pagination(total, query.page, query.pageSize) };
}

/** All people of the organisation (small): for pickers and the application data preload. */
export async function listWorkers(tx: ReadTx, orgId: number, viewer: AccessClaims) {
  const rows = await preparedRead(
    tx,
    'users.workers',
    () =>
      tx
        .select(userColumns)
        .from(users)
        .where(eq(users.orgId, param('orgId')))
        .orderBy(asc(users.firstName), asc(users.id)),
    { orgId },
  );
  return asDtos(tx, orgId, rows, seesRates(viewer));
}

/**
 * Updates a user. Managers and admins edit anyone but an admin, whom only an admin edits; others only themselves.
 * Nobody changes their own role; only an admin makes an admin. An optional field left out keeps its value
 * (decision 021).
 */
export async function updateUser(tx: Tx, orgId: number, actor: AccessClaims, id: number, input: z.output<typeof userUpdateSchema>) {
  const before = await getUser(tx, orgId, id);
  const isSelf = actor.userId === id;
  const isManager = actor.role === 'admin' || actor.role === 'manager';
  if (!isSelf && !isManager) throw forbidden();
  // An admin's record (name, phone, e-mail = the sign-in name, role) is an admin's to edit: a manager who could
  // rewrite it could pass for the admin or take the account over (issue 45).
  if (!isSelf && before.role === 'admin' && actor.role !== 'admin') throw forbidden('Only an admin can edit an admin');
  if (input.role !== before.role) {
    if (isSelf) throw forbidden('You cannot change your own role');
    if (input.role === 'admin' && actor.role !== 'admin') throw forbidden('Only an admin can change an admin role');
  }
  const relating = input.related_workStations !== undefined || input.related_assets !== undefined || input.related_services !== undefined;
  if (relating && !isManager) throw forbidden('Only a manager can change related records');
  if (input.hourlyRate !== undefined && !isManager) throw forbidden('Only a manager can change the hourly rate');
  const values = {
    firstName: input.firstName,
    lastName: input.lastName === undefined ? before.lastName : (input.lastName ?? ''),
    email: input.email,
    phoneNumber: input.phoneNumber === undefined ? before.phoneNumber : input.phoneNumber,
    jobTitle: input.jobTitle === undefined ? before.jobTitle : input.jobTitle,
    role: input.role,
    language: input.language ?? before.language,
    location: input.location === undefined ? before.location : input.location,
    hourlyRate: input.hourlyRate === undefined ? before.hourlyRate : input.hourlyRate,
  };
  try {
    await writeUser(tx, orgId, id, values);
  } catch (err) {
    if (pgCode(err) === '23505') throw conflict('A user with this email already exists', 'email');
    throw err;
  }
  await setRelated(tx, orgId, id, input);
  const after = await getUser(tx, orgId, id);
  const changes = {
    // The hourly rate stays out: a user's history is open to every member, its amounts are for managers only.
    ...diffChanges(
      before as unknown as Record<string, unknown>,
      values,
      Object.keys(values).filter((k) => k !== 'hourlyRate'),
    ),
    // related records by name, in the order the user sees them
    ...diffChanges(relatedNames(before), relatedNames(after), ['related_workStations', 'related_assets', 'related_services']),
  };
  if (Object.keys(changes).length) await history(tx, orgId, id, actor.userId, 'updated', changes);
  return { user: after };
}

const relatedNames = (u: UserDto) => ({
  related_workStations: u.related_workStations.map((r) => r.name).join(', '),
  related_assets: u.related_assets.map((r) => r.name).join(', '),
  related_services: u.related_services.map((r) => r.title).join(', '),
});

/** Replaces each list of related records the input names (a list left out is kept); every id must be the organisation's. */
async function setRelated(tx: Tx, orgId: number, userId: number, input: z.output<typeof userUpdateSchema>) {
  const stations = input.related_workStations;
  if (stations !== undefined) {
    await requireReferences(tx, orgId, workStations, stations, 'related_workStations', 'Select a valid work station');
    await tx.delete(userWorkStations).where(and(eq(userWorkStations.orgId, orgId), eq(userWorkStations.userId, userId)));
    if (stations.length) await tx.insert(userWorkStations).values([...new Set(stations)].map((workStationId) => ({ orgId, userId, workStationId })));
  }
  const assetIds = input.related_assets;
  if (assetIds !== undefined) {
    await requireReferences(tx, orgId, assets, assetIds, 'related_assets', 'Select a valid asset');
    await tx.delete(userAssets).where(and(eq(userAssets.orgId, orgId), eq(userAssets.userId, userId)));
    if (assetIds.length) await tx.insert(userAssets).values([...new Set(assetIds)].map((assetId) => ({ orgId, userId, assetId })));
  }
  const serviceIds = input.related_services;
  if (serviceIds !== undefined) {
    await requireReferences(tx, orgId, services, serviceIds, 'related_services', 'Select a valid service');
    await tx.delete(userServices).where(and(eq(userServices.orgId, orgId), eq(userServices.userId, userId)));
    if (serviceIds.length) await tx.insert(userServices).values([...new Set(serviceIds)].map((serviceId) => ({ orgId, userId, serviceId })));
  }
}

/** Only an admin deletes an admin; nobody deletes themself. The user's sessions go with them (cascade). */
export async function deleteUser(tx: Tx, orgId: number, actor: AccessClaims, id: number) {
  if (actor.userId === id) throw forbidden('You cannot delete yourself');
  const target = await getUser(tx, orgId, id);
  if (target.role === 'admin' && actor.role !== 'admin') throw forbidden('Only an admin can delete an admin');
  try {
    await deleteUserRow(tx, orgId, id);
  } catch (err) {
    if (pgCode(err) === '23503') throw conflict('This user is referenced by other records and cannot be deleted');
    throw err;
  }
  discardFiles(tx, [target.profilePicture, target.profilePictureLow]);
  return { message: 'User deleted successfully' };
}

export async function setProfilePicture(tx: Tx, orgId: number, id: number, urls: { full: string; low: string }) {
  await writeUser(tx, orgId, id, { profilePicture: urls.full, profilePictureLow: urls.low });
  return { user: await getUser(tx, orgId, id) };
}

/**
 * Invites a person: a PENDING user and a single-use token (stored hashed, 72 hours) e-mailed as a link
 * to the organisation's registration-completion page.
 */
export async function inviteUser(
  tx: Tx,
  orgId: number,
  actor: AccessClaims,
  input: z.output<typeof inviteUserSchema>,
  mail: { mailer: Mailer; origin: string; organization: string },
) {
  // The invitation's language: the inviting admin's choice, else their own (decision 065); the new user starts in it.
  const language = mailLanguage(
    input.language ??
      (
        await tx
          .select({ language: users.language })
          .from(users)
          .where(and(eq(users.orgId, orgId), eq(users.id, actor.userId)))
      )[0]?.language,
  );
  let created: { id: number };
  try {
    [created] = await insertUsers(tx, [{ orgId, email: input.email, role: input.role, inviteStatus: 'PENDING', firstName: '', lastName: '', language }]);
  } catch (err) {
    if (pgCode(err) === '23505') throw conflict('A user with this email already exists', 'email');
    throw err;
  }
  const { token, hash } = newOpaqueToken();
  await insertInvitation(tx, { orgId, userId: created.id, tokenHash: hash, expiresAt: new Date(Date.now() + INVITE_HOURS * 3600_000) });
  await history(tx, orgId, created.id, actor.userId, 'created');
  const link = `${mail.origin}/complete-registration?token=${encodeURIComponent(token)}`;
  await mail.mailer.send(
    { to: input.email, ...mailTexts.invitation(language, { organization: mail.organization, role: input.role, link, hours: INVITE_HOURS }) },
    tx,
  );
  return { newUser: await getUser(tx, orgId, created.id) };
}

/**
 * The person a single sign-on names (decision 077), by e-mail: an active user as they are; an invited one is
 * activated (their open invitations spent, their name taken from the provider when they gave none); nobody is
 * created unless `create` says with which role (a provider never makes an admin). Null: no such person and none
 * to create.
 */
export async function userForSingleSignOn(
  tx: Tx,
  orgId: number,
  person: { email: string; firstName: string; lastName: string },
  create: { role: 'manager' | 'worker' } | null,
): Promise<{ id: number; role: 'admin' | 'manager' | 'worker'; tokenVersion: number } | null> {
  const columns = { id: users.id, role: users.role, tokenVersion: users.tokenVersion, inviteStatus: users.inviteStatus, firstName: users.firstName };
  const [found] = await tx
    .select(columns)
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(sql`lower(${users.email})`, person.email.toLowerCase())))
    .for('update');
  if (found) {
    if (found.inviteStatus === 'PENDING') {
      await writeUser(tx, orgId, found.id, { inviteStatus: 'ACTIVE', ...(found.firstName ? {} : { firstName: person.firstName, lastName: person.lastName }) });
      await spendInvitations(tx, orgId, { userId: found.id });
    }
    return { id: found.id, role: found.role, tokenVersion: found.tokenVersion };
  }
  if (!create) return null;
  const [created] = await insertUsers(tx, [
    { orgId, email: person.email.toLowerCase(), role: create.role, inviteStatus: 'ACTIVE', firstName: person.firstName, lastName: person.lastName },
  ]);
  await history(tx, orgId, created.id, created.id, 'created');
  return created;
}
