import { z } from '../../shared/zod-setup';
import { nameOptionsQuerySchema } from '../../shared/options-query';
import { listAnswers, optionSchema, pageQuerySchema } from '../../shared/pagination';
import { idField, requiredString } from '../../shared/validation';
import { workStationDtoSchema } from '../work-stations/work-stations.schema';
import { amountField, blankToUndefined, requiredRef, textFilter, toId } from '../../shared/reference-fields';

/** Spec doc 1 section 5 "Service", with its messages. */
export const SERVICE_MESSAGES = {
  title: 'Title is required',
  titleMax: 'Title must be at most 100 characters',
  price: 'Price is required',
  priceInvalid: 'Price must be a valid number',
  priceNegative: 'Price must be a positive number',
  priceMax: 'Price must be at most 500 characters',
  stations: 'At least one related workstation must be selected',
  station: 'Work station is required',
  stationTwice: 'A work station can be selected only once',
  stationUnknown: 'Work station does not exist in this organization',
  operation: 'Operation is required',
  operationMax: 'Operation must be at most 500 characters',
  time: 'Time required is required',
  timeMax: 'Time required must be at most 50 characters',
  operationsMax: 'Operations must be at most 50000 characters',
} as const;

const M = SERVICE_MESSAGES;

/** One linked station: which station, the operation done there, the time it takes, and its place in the sequence. */
export const serviceStationSchema = z.preprocess(
  (v) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const { id, workStation, WorkStation, ...rest } = v as Record<string, unknown>;
    const station = rest.workStationId ?? workStation ?? WorkStation ?? id;
    return { ...rest, workStationId: station };
  },
  z.strictObject({
    workStationId: requiredRef(M.station),
    operation: requiredString(M.operation).max(500, M.operationMax),
    timeRequired: z.preprocess((t) => (typeof t === 'number' ? String(t) : t), requiredString(M.time).max(50, M.timeMax)),
    order: z.preprocess(
      blankToUndefined,
      z.coerce
        .number({ error: 'Order must be a whole number' })
        .int('Order must be a whole number')
        .min(0, 'Order must be a whole number')
        .max(10000, 'Order must be a whole number')
        .optional(),
    ),
  }),
);

/**
 * DESIGN 11: besides `workStations: [{ workStationId, operation, timeRequired, order }]`, the spec's own shape
 * is accepted: `related_workStation: [id, …]` with `workStationDetails: [{ id, operation, timeRequired }]`.
 */
function normaliseServiceBody(v: unknown) {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const { related_workStation, workStationDetails, WorkStations, ...body } = v as Record<string, unknown>;
  if (body.workStations === undefined && WorkStations !== undefined) body.workStations = WorkStations;
  if (body.workStations === undefined && (related_workStation !== undefined || workStationDetails !== undefined)) {
    const details = Array.isArray(workStationDetails) ? (workStationDetails as Record<string, unknown>[]) : [];
    const ids = Array.isArray(related_workStation) ? related_workStation.map(toId) : details.map((d) => d?.id ?? d?.workStationId);
    body.workStations = ids.map((id, i) => {
      const d = details.find((x) => String(x?.id ?? x?.workStationId) === String(id)) ?? {};
      return { workStationId: id, operation: d.operation, timeRequired: d.timeRequired, order: d.order ?? i };
    });
  }
  return body;
}

/** Add and update body of a service. */
export const serviceInputSchema = z.preprocess(
  normaliseServiceBody,
  z
    .strictObject({
      title: requiredString(M.title).max(100, M.titleMax),
      price: amountField({ required: M.price, invalid: M.priceInvalid, negative: M.priceNegative, tooLong: M.priceMax, maxChars: 500 }),
      operations: z.preprocess((o) => (o === null ? '' : o), z.string().max(50000, M.operationsMax).optional()),
      workStations: z.preprocess(
        (w) => (w === undefined || w === null ? [] : w),
        z.array(serviceStationSchema, { error: M.stations }).min(1, M.stations).max(50, 'At most 50 work stations'),
      ),
    })
    .superRefine((v, ctx) => {
      const seen = new Set<number>();
      v.workStations.forEach((s, i) => {
        if (seen.has(s.workStationId)) ctx.addIssue({ code: 'custom', message: M.stationTwice, path: ['workStations', i, 'workStationId'] });
        seen.add(s.workStationId);
      });
    }),
);
export type ServiceInput = z.output<typeof serviceInputSchema>;

/** get-services: page, pageSize (default 10), title (or name) as a case-insensitive contains, workStationId. */
export const serviceListQuerySchema = pageQuerySchema.extend({
  title: textFilter,
  name: textFilter,
  workStationId: idField('Invalid work station').optional(),
  /** Only the records related to this user (spec section 3: the user's related_* records; the UI sends the signed-in user for "Only mine"). */
  relatedTo: idField('Invalid user').optional(),
});
export type ServiceListQuery = z.output<typeof serviceListQuerySchema>;

export const serviceOptionsQuerySchema = nameOptionsQuerySchema;

/** A linked station as the API returns it (in `WorkStations`). */
export const serviceStationDtoSchema = workStationDtoSchema.pick({ id: true, code: true, name: true, city: true }).extend({
  operation: z.string(),
  timeRequired: z.string(),
  order: z.number(),
});
export type ServiceStationDto = z.infer<typeof serviceStationDtoSchema>;

/** A service as the API returns it, with the spec's nested keys. */
export const serviceDtoSchema = z.object({
  id: z.number(),
  serviceId: z.string(),
  title: z.string(),
  price: z.number(),
  operations: z.string(),
  /** Ids of the linked stations, in order. */
  related_workStation: z.array(z.number()),
  /** The first station of the sequence ({ id, name }), or null. */
  WorkStation: z.object({ id: z.number(), name: z.string() }).nullable(),
  WorkStations: z.array(serviceStationDtoSchema),
  workStationDetails: z.array(z.object({ id: z.number(), operation: z.string(), timeRequired: z.string(), order: z.number() })),
  createdAt: z.string(),
});
export type ServiceDto = z.infer<typeof serviceDtoSchema>;

/** The service routes' answers (issue 28). */
export const serviceAnswers = listAnswers('services', serviceDtoSchema, 'service');
export type ServiceList = z.infer<typeof serviceAnswers.list>;

export const serviceOptionSchema = optionSchema.extend({ price: z.number() });
export type ServiceOption = z.infer<typeof serviceOptionSchema>;
