/**
 * Request portal vocabularies without zod: the public form page imports them and must stay small
 * (issue 25: under 80 KB of gzipped JavaScript).
 */

/** What the requester sees of their request (decision 039). */
export const PORTAL_STATUSES = ['received', 'accepted', 'scheduled', 'in-progress', 'done', 'declined'] as const;
export type PortalStatus = (typeof PORTAL_STATUSES)[number];

export const PORTAL_URGENCIES = ['low', 'normal', 'high', 'urgent'] as const;
export type PortalUrgency = (typeof PORTAL_URGENCIES)[number];

/** How the admin wants a contact field on the form. */
export const FIELD_MODES = ['required', 'optional', 'hidden'] as const;
export type FieldMode = (typeof FIELD_MODES)[number];

/** The things a code (and a published entry of the general portal) can name. */
export const TARGET_KINDS = ['asset', 'work-station'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

/** Limits of the public side (decision 039; the figures of the issue note). */
export const PORTAL_LIMITS = {
  descriptionMax: 2000,
  nameMax: 100,
  phoneMax: 30,
  commentMax: 2000,
  photosPerRequest: 5,
  /** Photos a requester may add later through comments, in all. */
  photosLater: 5,
  /** Comments a requester may add to one request. */
  commentsPerRequest: 30,
  /** Requests still "received" (not triaged) an organisation holds; past it the form says to try later. */
  openPerOrganization: 500,
  /** Requests held for review (past the hourly budget or an address's share) still untriaged; past it, the same "try later". */
  heldPerOrganization: 500,
  /** The part of the organisation's hourly budget one address may use (decision 054): its requests past it are held. */
  addressShare: 1 / 50,
  /** The status link works this long after the request is closed (done or declined). */
  linkDaysAfterClose: 30,
  welcomeMax: 1000,
  publishedMax: 100,
  /** The work order's or maintenance request's title when accepting; a decline's reason. */
  titleMax: 200,
  declineReasonMax: 1000,
} as const;

/** The priority a request's urgency suggests when it is accepted (work orders' and maintenance requests' scale). */
export const URGENCY_PRIORITY = { low: 'low', normal: 'medium', high: 'high', urgent: 'critical' } as const satisfies Record<PortalUrgency, string>;

// The answers' shapes (PortalTarget, PortalFormDto, PortalStatusDto…) are zod schemas in request-portal.schema.ts;
// the public page imports their types only (erased from its bundle).

export const portalRequestNumber = (id: number) => `PR-${String(id).padStart(4, '0')}`;
