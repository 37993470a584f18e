import { z } from '../../shared/zod-setup';
import { messageSchema, pageQuerySchema } from '../../shared/pagination';
import { failureCodeDtoSchema } from '../failure-codes/failure-codes.schema';
import type { LaborDto, WorkOrderDto, WorkOrderPartDto } from '../work-orders/work-orders.schema';
import type { WorkOrderProcedureDto } from '../procedures/procedures.schema';
import type { PartsReadiness } from '../stock/stock.schema';

/** GET list-my-work: my open work orders, page by page (the app reads every page). */
export const myWorkQuerySchema = pageQuerySchema;

/** GET list-my-parts: the organisation's parts for the device copy, by id after `after`, `limit` at a time. */
export const myPartsQuerySchema = z.object({
  after: z.coerce
    .number({ error: 'after must be a whole number' })
    .int('after must be a whole number')
    .min(0, 'after must be a whole number')
    .max(2147483647, 'after must be a whole number')
    .default(0),
  limit: z.coerce
    .number({ error: 'limit must be between 1 and 2000' })
    .int('limit must be between 1 and 2000')
    .min(1, 'limit must be between 1 and 2000')
    .max(2000, 'limit must be between 1 and 2000')
    .default(1000),
});

/** A photo taken into a work order outside its procedure (decision 041). */
export interface WorkOrderPhotoDto {
  id: number;
  workOrderId: number;
  url: string;
  userId: number | null;
  createdAt: string;
}

/** One of my work orders as the device keeps it: the order, its procedure, labour, parts and photos. */
export interface MyWorkOrderDto {
  id: number;
  workOrder: WorkOrderDto;
  procedure: WorkOrderProcedureDto | null;
  labors: LaborDto[];
  parts: WorkOrderPartDto[];
  /** Whether the order's reserved parts are there (decision 081); absent in a copy kept before it was sent. */
  partsReadiness?: PartsReadiness;
  photos: WorkOrderPhotoDto[];
}

/** A part as the device keeps it: enough to search it by name and find it by its label (SKU code). */
export interface MyPartDto {
  id: number;
  name: string;
  skuCode: string | null;
}

const photoSchema = z.object({ id: z.number(), workOrderId: z.number(), url: z.string(), userId: z.number().nullable(), createdAt: z.string() });
const pagination = z.object({ totalRecords: z.number(), currentPage: z.number(), totalPages: z.number() });

export const myWorkListSchema = z.object({
  // The order, procedure, labour and parts are the work-orders and procedures routes' own answers: kept whole.
  workOrders: z.array(z.custom<MyWorkOrderDto>((v) => typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'number', 'A work order')),
  /** Every time-tracking reason of the organisation (master data: tens, never paged away). */
  reasons: z.array(z.object({ id: z.number(), name: z.string() })),
  /** Every failure code of the organisation, and whether closing a reactive order requires them (decision 080). */
  failureCodes: z.array(failureCodeDtoSchema),
  requireFailureCodes: z.boolean(),
  pagination,
});

/** One page of list-my-work as the device reads it. */
export type MyWorkListDto = z.infer<typeof myWorkListSchema>;

export const myPartsSchema = z.object({
  parts: z.array(z.object({ id: z.number(), name: z.string(), skuCode: z.string().nullable() })),
  /** The `after` of the next call, or null when this was the last. */
  next: z.number().nullable(),
});

export const myPhotosSchema = z.object({ photos: z.array(photoSchema) });
export const myPhotoAddedSchema = messageSchema.extend({ photo: photoSchema, photos: z.array(photoSchema) });
