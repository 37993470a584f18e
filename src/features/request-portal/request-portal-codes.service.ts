import { randomBytes } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { ReadTx, Tx } from '../../server/db/client';
import { badRequest, HttpError, notFound } from '../../server/http-error';
import { assets, organizations, workStations } from '../../server/db/schema';
import { portalCodes, portalRequests, portalSettings } from './request-portal.table';
import { type PortalSettingsInput, type PortalTarget, type TargetKind } from './request-portal.schema';

export const r = portalRequests;
export const DAY = 86_400_000;

/** The public side's one answer for anything it cannot show: no word on whether the organisation, code or request exists. */
export const NOT_FOUND = () => new HttpError(404, 'Not found');

// ---------------------------------------------------------------- settings

const DEFAULT_SETTINGS = {
  enabled: false,
  nameField: 'optional',
  emailField: 'optional',
  phoneField: 'hidden',
  notifyRequester: true,
  welcome: null,
  published: [],
} as const;

export async function getPortalSettings(tx: ReadTx, orgId: number) {
  const [row] = await tx.select().from(portalSettings).where(eq(portalSettings.orgId, orgId));
  const settings = row ?? { ...DEFAULT_SETTINGS, published: [] as { kind: TargetKind; id: number }[] };
  return {
    enabled: settings.enabled,
    nameField: settings.nameField,
    emailField: settings.emailField,
    phoneField: settings.phoneField,
    notifyRequester: settings.notifyRequester,
    welcome: settings.welcome,
    published: await targetsOf(tx, orgId, settings.published),
  };
}

export async function savePortalSettings(tx: Tx, orgId: number, input: PortalSettingsInput) {
  const published = dedupe(input.published);
  const found = await targetsOf(tx, orgId, published);
  if (found.length !== published.length) throw badRequest('An asset or work station of the list does not exist', 'published');
  const values = {
    enabled: input.enabled,
    nameField: input.nameField,
    emailField: input.emailField,
    phoneField: input.phoneField,
    notifyRequester: input.notifyRequester,
    welcome: input.welcome ?? null,
    published,
  };
  await tx
    .insert(portalSettings)
    .values({ orgId, ...values })
    .onConflictDoUpdate({ target: portalSettings.orgId, set: { ...values, updatedAt: new Date() } });
  return { message: 'Portal settings saved', settings: await getPortalSettings(tx, orgId) };
}

const dedupe = (list: { kind: TargetKind; id: number }[]) => [...new Map(list.map((t) => [`${t.kind}:${t.id}`, t])).values()];

/** Names and numbers of assets and work stations, in the order given; missing ones are left out. */
export async function targetsOf(tx: ReadTx, orgId: number, list: readonly { kind: TargetKind; id: number }[]): Promise<PortalTarget[]> {
  const assetIds = list.filter((t) => t.kind === 'asset').map((t) => t.id);
  const stationIds = list.filter((t) => t.kind === 'work-station').map((t) => t.id);
  const [assetRows, stationRows] = [
    assetIds.length
      ? await tx
          .select({ id: assets.id, name: assets.name, number: assets.assetCode })
          .from(assets)
          .where(and(eq(assets.orgId, orgId), inArray(assets.id, assetIds)))
      : [],
    stationIds.length
      ? await tx
          .select({ id: workStations.id, name: workStations.name, number: workStations.code })
          .from(workStations)
          .where(and(eq(workStations.orgId, orgId), inArray(workStations.id, stationIds)))
      : [],
  ];
  const byKey = new Map<string, PortalTarget>([
    ...assetRows.map((a) => [`asset:${a.id}`, { kind: 'asset' as const, ...a }] as const),
    ...stationRows.map((s) => [`work-station:${s.id}`, { kind: 'work-station' as const, ...s }] as const),
  ]);
  return list.map((t) => byKey.get(`${t.kind}:${t.id}`)).filter((t): t is PortalTarget => !!t);
}

// ---------------------------------------------------------------- codes

/** A code's token: 128 random bits, base64url (22 characters). */
const newCodeToken = () => randomBytes(16).toString('base64url');

/** The tokens of these assets' (or work stations') codes, made on first use. */
export async function ensureCodes(tx: Tx, orgId: number, kind: TargetKind, ids: number[]) {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map<number, string>();
  await tx
    .insert(portalCodes)
    .values(unique.map((targetId) => ({ orgId, kind, targetId, token: newCodeToken() })))
    .onConflictDoNothing({ target: [portalCodes.orgId, portalCodes.kind, portalCodes.targetId] });
  const rows = await tx
    .select({ targetId: portalCodes.targetId, token: portalCodes.token })
    .from(portalCodes)
    .where(and(eq(portalCodes.orgId, orgId), eq(portalCodes.kind, kind), inArray(portalCodes.targetId, unique)));
  return new Map(rows.map((row) => [row.targetId, row.token]));
}

/** What a code names, or null (unknown token, or its asset gone). */
export async function targetOfCode(tx: ReadTx, orgId: number, token: string) {
  const [code] = await tx
    .select({ kind: portalCodes.kind, targetId: portalCodes.targetId })
    .from(portalCodes)
    .where(and(eq(portalCodes.orgId, orgId), eq(portalCodes.token, token)));
  if (!code) return null;
  const [target] = await targetsOf(tx, orgId, [{ kind: code.kind, id: code.targetId }]);
  return target ?? null;
}

/** GET resolve-code/:token (signed in, the scanner and /r/<token>): what the code names, or 404. */
export async function resolveCode(tx: ReadTx, orgId: number, token: string) {
  const target = await targetOfCode(tx, orgId, token);
  if (!target) throw notFound('Code');
  return { target };
}

// ---------------------------------------------------------------- the public side

export async function enabledSettings(tx: ReadTx, orgId: number) {
  const [row] = await tx.select().from(portalSettings).where(eq(portalSettings.orgId, orgId));
  if (!row?.enabled) throw NOT_FOUND();
  return row;
}

export async function organizationName(tx: ReadTx, orgId: number) {
  const [org] = await tx.select({ name: organizations.organization }).from(organizations).where(eq(organizations.id, orgId));
  return org?.name ?? '';
}
