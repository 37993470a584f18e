import { z } from '../../shared/zod-setup';
import { listAnswers, messageSchema, multiValue, optionSchema, pageQuerySchema } from '../../shared/pagination';
import { EMAIL_PATTERN, requiredString } from '../../shared/validation';

export const PARTY_TYPES = ['customer', 'vendor'] as const;
export type PartyType = (typeof PARTY_TYPES)[number];
export const PARTY_CATEGORIES = ['individual', 'company'] as const;
export type PartyCategory = (typeof PARTY_CATEGORIES)[number];

/** The spec's messages (doc 2 section 5 "Customer/vendor"), word for word. */
export const CV_MESSAGES = {
  name: 'Name must be at least 3 characters long',
  email: 'Invalid email format',
  emailRequired: 'Email is required',
  type: 'Type is required',
  category: 'Category is required',
  quickCreateTitle: 'Title is not in a valid email format',
} as const;

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const lower = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : v);

const optionalText = (max: number, label: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: `${label} must be text` })
      .trim()
      .max(max, `${label} must be at most ${max} characters`)
      .optional(),
  );

/** A stored upload as the API returns it; only this application's own upload paths are accepted back. */
// A form sends back the URL as it was shown, signed (decision 024); the server takes the signature off first.
export const UPLOAD_URL_PATTERN = /^\/uploads\/org-\d+\/[0-9a-f-]{36}\.(webp|png|jpg|pdf)(\?exp=\d+&sig=[\w-]+)?$/;
export const storedFileSchema = z.strictObject({
  url: z.string({ error: 'Attachment url is required' }).regex(UPLOAD_URL_PATTERN, 'Attachments must be files uploaded to this application'),
  name: z
    .string({ error: 'Attachment name is required' })
    .trim()
    .min(1, 'Attachment name is required')
    .max(255, 'Attachment name must be at most 255 characters'),
});
export type StoredFile = z.infer<typeof storedFileSchema>;

/** Document upload rules (PDF and images, checked by their bytes on the server). */
export const DOCUMENT_RULES = {
  maxBytes: 10 * 1024 * 1024,
  maxFiles: 10,
  typeMessage: 'Only PDF, JPEG, PNG, and WebP files are allowed.',
  sizeMessage: 'File size should not exceed 10MB.',
} as const;

/** Read-only fields of a record the API returned: accepted back in a body and ignored (they set nothing). */
const READ_ONLY = ['id', 'Parent', 'profilePicture', 'profilePictureFull', 'createdAt'];

/** Unwraps the spec's `overview` envelope (add-customer-vendor sends "overview") before the closed schema. */
function unwrapOverview(v: unknown) {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  let body = { ...(v as Record<string, unknown>) };
  if (body.overview && typeof body.overview === 'object' && !Array.isArray(body.overview)) {
    const { overview, ...rest } = body;
    body = { ...(overview as Record<string, unknown>), ...rest };
  }
  for (const key of READ_ONLY) delete body[key];
  return body;
}

/** Uploaded files, or bare upload URLs (named after their file). */
const toStoredFiles = (v: unknown) =>
  v === null
    ? undefined
    : Array.isArray(v)
      ? v.map((a) => (typeof a === 'string' && UPLOAD_URL_PATTERN.test(a) ? { url: a, name: a.split('/').pop() } : a))
      : v;

export const customerVendorFields = z.strictObject({
  name: z.preprocess(
    (v) => (v === null ? undefined : v),
    z.string({ error: CV_MESSAGES.name }).trim().min(3, CV_MESSAGES.name).max(100, 'Name must be at most 100 characters'),
  ),
  email: z.preprocess(
    blankToUndefined,
    requiredString(CV_MESSAGES.email)
      .max(254, CV_MESSAGES.email)
      .regex(EMAIL_PATTERN, CV_MESSAGES.email)
      .transform((s) => s.toLowerCase()),
  ),
  type: z.preprocess((v) => lower(blankToUndefined(v)), z.enum(PARTY_TYPES, { error: CV_MESSAGES.type })),
  category: z.preprocess((v) => lower(blankToUndefined(v)), z.enum(PARTY_CATEGORIES, { error: CV_MESSAGES.category })),
  parentId: z.preprocess(
    (v) => (v === '' || v === null || v === 0 || v === '0' ? undefined : v),
    z.coerce
      .number({ error: 'Select a valid parent' })
      .int('Select a valid parent')
      .min(1, 'Select a valid parent')
      .max(2147483647, 'Select a valid parent')
      .optional(),
  ),
  street: optionalText(200, 'Street'),
  street2: optionalText(200, 'Street 2'),
  city: optionalText(100, 'City'),
  state: optionalText(100, 'State'),
  zipCode: optionalText(20, 'Zip code'),
  country: optionalText(100, 'Country'),
  tinVat: optionalText(50, 'TIN/VAT'),
  phone: optionalText(30, 'Phone'),
  mobile: optionalText(30, 'Mobile'),
  website: z.preprocess(
    blankToUndefined,
    z
      .string({ error: 'Invalid website URL' })
      .trim()
      .max(200, 'Website must be at most 200 characters')
      .regex(/^(https?:\/\/)?[^\s/$.?#][^\s]*\.[^\s]{2,}$/i, 'Invalid website URL')
      .optional(),
  ),
  customerDocuments: z.preprocess(
    toStoredFiles,
    z.array(storedFileSchema, { error: 'Documents must be a list of uploaded files' }).max(20, 'At most 20 documents').optional(),
  ),
});

/** Body of add-customer-vendor and update-customer-vendor/{id}: the fields, or the same inside `overview`. */
export const customerVendorInputSchema = z.preprocess(unwrapOverview, customerVendorFields);
export type CustomerVendorInput = z.input<typeof customerVendorFields>;
export type CustomerVendorValues = z.output<typeof customerVendorFields>;

/** Quick create from a title box: the title must look like an e-mail (used as both name and e-mail). */
export const quickCreateTitleSchema = z
  .string({ error: CV_MESSAGES.quickCreateTitle })
  .trim()
  .min(3, CV_MESSAGES.quickCreateTitle)
  .max(100, CV_MESSAGES.quickCreateTitle)
  .regex(EMAIL_PATTERN, CV_MESSAGES.quickCreateTitle);

/** GET get-customer-vendors: page, pageSize, type (several), name (contains, name or e-mail). */
export const customerVendorsQuerySchema = pageQuerySchema.extend({
  type: multiValue(z.preprocess(lower, z.enum(PARTY_TYPES, { error: 'Type must be customer or vendor' }))),
  name: z.string().trim().max(100, 'Name must be at most 100 characters').optional(),
});
export type CustomerVendorsQuery = z.output<typeof customerVendorsQuerySchema>;

/** GET get-customer-vendor-options: 10 at a time, optional name and type. */
export const customerVendorOptionsQuerySchema = z.object({
  pageSize: z.coerce
    .number({ error: 'pageSize must be between 1 and 100' })
    .int('pageSize must be between 1 and 100')
    .min(1, 'pageSize must be between 1 and 100')
    .max(100, 'pageSize must be between 1 and 100')
    .default(10),
  name: z.string().trim().max(100, 'Name must be at most 100 characters').optional(),
  type: multiValue(z.preprocess(lower, z.enum(PARTY_TYPES, { error: 'Type must be customer or vendor' }))),
});

/** The id of the record a profile picture is for, when not in the path (query `?id=` or a multipart field). */
export const profilePictureQuerySchema = z.object({
  id: z.coerce.number({ error: 'Invalid id' }).int('Invalid id').min(1, 'Invalid id').max(2147483647, 'Invalid id').optional(),
});

/** A stored file as answers carry it (response schemas). */
export const fileDtoSchema = z.object({ url: z.string(), name: z.string() });

/** A customer or vendor as the API returns it. `profilePicture` is the low-resolution variant (spec). */
export const customerVendorDtoSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  type: z.enum(PARTY_TYPES),
  category: z.enum(PARTY_CATEGORIES),
  parentId: z.number().nullable(),
  Parent: z.object({ id: z.number(), name: z.string() }).nullable(),
  street: z.string().nullable(),
  street2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zipCode: z.string().nullable(),
  country: z.string().nullable(),
  tinVat: z.string().nullable(),
  phone: z.string().nullable(),
  mobile: z.string().nullable(),
  website: z.string().nullable(),
  customerDocuments: z.array(fileDtoSchema),
  profilePicture: z.string().nullable(),
  profilePictureFull: z.string().nullable(),
  createdAt: z.string(),
});
export type CustomerVendorDto = z.infer<typeof customerVendorDtoSchema>;

/** The customer/vendor routes' answers (issue 28); an update answers `{ message, updatedData }`. */
export const customerVendorAnswers = {
  ...listAnswers('customerVendors', customerVendorDtoSchema, 'customerVendor'),
  updated: messageSchema.extend({ updatedData: customerVendorDtoSchema }),
  picture: messageSchema.extend({ customerVendor: customerVendorDtoSchema, profilePicture: z.string().nullable() }),
  documents: z.object({ documents: z.array(fileDtoSchema) }),
};
export type CustomerVendorList = z.infer<typeof customerVendorAnswers.list>;

/** An option of the customer/vendor select. */
export const customerVendorOptionSchema = optionSchema.extend({ email: z.string(), type: z.enum(PARTY_TYPES) });
export type CustomerVendorOption = z.infer<typeof customerVendorOptionSchema>;
