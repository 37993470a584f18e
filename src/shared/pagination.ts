import { z } from './zod-setup';
import { PAGE_SIZES } from './page-sizes';

export { PAGE_SIZES };

/** `?status=a&status=b` and `?status=a,b` both become ['a', 'b']. */
export const multiValue = <T extends z.ZodType<string>>(item: T) =>
  z.preprocess((v) => {
    if (v === undefined || v === '') return undefined;
    const list = Array.isArray(v) ? v : [v];
    return list
      .flatMap((x) => String(x).split(','))
      .map((x) => x.trim())
      .filter(Boolean);
  }, z.array(item).optional());

/** page (from 1) and pageSize (10, 25, 50, 100); anything else is a 400, never clamped. */
export const pageQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'page must be a whole number of at least 1' })
    .int('page must be a whole number of at least 1')
    .min(1, 'page must be a whole number of at least 1')
    .default(1),
  pageSize: z.coerce
    .number({ error: 'pageSize must be one of 10, 25, 50, 100' })
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), 'pageSize must be one of 10, 25, 50, 100')
    .default(10),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/** An options (picker) query's pageSize: a whole number from 1 to 100, `size` unless asked. */
export const optionsPageSize = (size = 10) =>
  z.coerce
    .number({ error: 'pageSize must be between 1 and 100' })
    .int('pageSize must be between 1 and 100')
    .min(1, 'pageSize must be between 1 and 100')
    .max(100, 'pageSize must be between 1 and 100')
    .default(size);

export const paginationSchema = z.object({ totalRecords: z.number(), currentPage: z.number(), totalPages: z.number() });
export type Pagination = z.infer<typeof paginationSchema>;

/** A list's answer (response schema): `{ <plural>: [item…], pagination }`. */
export const listAnswerSchema = <K extends string, T extends z.ZodType>(plural: K, item: T) =>
  z.object({ [plural]: z.array(item), pagination: paginationSchema } as { [P in K]: z.ZodArray<T> } & { pagination: typeof paginationSchema });

/** The answer of a change that says what it did (`{ message }`), to extend with what it returns. */
export const messageSchema = z.object({ message: z.string() });

/** A refusal (response schema of a 4xx): `{ error, issues? }` (DESIGN section 7, src/server/plugins/errors.ts). */
export const errorAnswerSchema = z.object({ error: z.string(), issues: z.array(z.object({ path: z.string(), message: z.string() })).optional() });

/** The OpenAPI key that marks a file answer's media type (read by src/server/plugins/api-docs.ts). */
export const FILE_MEDIA_TYPE = 'x-media-type';

/**
 * A file sent as bytes (a PDF…), never serialised (Fastify sends a Buffer as it is). The API document describes it as
 * `content: { <mediaType>: { schema: { type: string, format: binary } } }` (api-docs.ts rewrites the marked schema).
 */
export const fileAnswer = (mediaType: string, description: string) => z.string().meta({ description, format: 'binary', [FILE_MEDIA_TYPE]: mediaType });

/** A printed record's answers: the PDF, or a refusal (a bad id, no caller, no such record for this caller). */
export const pdfAnswers = (description: string) => ({
  200: fileAnswer('application/pdf', description),
  400: errorAnswerSchema,
  401: errorAnswerSchema,
  404: errorAnswerSchema,
});

export function pagination(totalRecords: number, page: number, pageSize: number): Pagination {
  return { totalRecords, currentPage: page, totalPages: Math.max(1, Math.ceil(totalRecords / pageSize)) };
}

/**
 * The answers of a feature's list routes (response schemas): `list` `{ <plural>, pagination }`, `one`
 * `{ <singular> }`, `add` (the list, a message and the record), `update` (a message and the record) and `remove`
 * (the list and a message), as AGENTS.md's conventions have them.
 */
export function listAnswers<K extends string, S extends string, T extends z.ZodType>(plural: K, item: T, singular: S) {
  const list = listAnswerSchema(plural, item);
  const one = z.object({ [singular]: item } as { [P in S]: T });
  return {
    list,
    one,
    add: list.extend(messageSchema.shape).extend(one.shape),
    update: messageSchema.extend(one.shape),
    remove: list.extend(messageSchema.shape),
  };
}

/** Path parameter `{id}`: a positive integer (ids are per organisation). */
export const idParamsSchema = z.strictObject({
  id: z.coerce.number({ error: 'Invalid id' }).int('Invalid id').min(1, 'Invalid id').max(2147483647, 'Invalid id'),
});

/** An option of a select: value and label (some carry a price). */
export const optionSchema = z.object({ value: z.number(), label: z.string() });
export type Option = z.infer<typeof optionSchema>;
