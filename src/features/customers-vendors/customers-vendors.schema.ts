import { z } from '../../shared/zod-setup';
import { DOCUMENT_UPLOAD_RULES, overviewBody } from '../../shared/record-fields.schema';
import { lowerCased } from '../../shared/spelling.schema';
import { listAnswers, messageSchema, multiValue, optionSchema, pageQuerySchema, optionsPageSize } from '../../shared/pagination';
import { EMAIL_PATTERN, requiredString, idField, optionalIdField } from '../../shared/validation';
import { storedFileSchema, toStoredFiles } from '../../shared/stored-file';
import { blankToUndefined, optionalTextField } from '../../shared/reference-fields';
export type { StoredFile } from '../../shared/stored-file';

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

/** Document upload rules (PDF and images, checked by their bytes on the server). */
export const DOCUMENT_RULES = DOCUMENT_UPLOAD_RULES;

/** Read-only fields of a record the API returned: accepted back in a body and ignored (they set nothing). */
const READ_ONLY = ['id', 'Parent', 'profilePicture', 'profilePictureFull', 'createdAt'];

/** Unwraps the spec's `overview` envelope (add-customer-vendor sends "overview") before the closed schema. */
function unwrapOverview(v: unknown) {
  const body = overviewBody(v);
  if (!body) return v;
  for (const key of READ_ONLY) delete body[key];
  return body;
}

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
  type: z.preprocess((v) => lowerCased(blankToUndefined(v)), z.enum(PARTY_TYPES, { error: CV_MESSAGES.type })),
  category: z.preprocess((v) => lowerCased(blankToUndefined(v)), z.enum(PARTY_CATEGORIES, { error: CV_MESSAGES.category })),
  parentId: optionalIdField('Select a valid parent'),
  street: optionalTextField(200, 'Street'),
  street2: optionalTextField(200, 'Street 2'),
  city: optionalTextField(100, 'City'),
  state: optionalTextField(100, 'State'),
  zipCode: optionalTextField(20, 'Zip code'),
  country: optionalTextField(100, 'Country'),
  tinVat: optionalTextField(50, 'TIN/VAT'),
  phone: optionalTextField(30, 'Phone'),
  mobile: optionalTextField(30, 'Mobile'),
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
  type: multiValue(z.preprocess(lowerCased, z.enum(PARTY_TYPES, { error: 'Type must be customer or vendor' }))),
  name: z.string().trim().max(100, 'Name must be at most 100 characters').optional(),
});
export type CustomerVendorsQuery = z.output<typeof customerVendorsQuerySchema>;

/** GET get-customer-vendor-options: 10 at a time, optional name and type. */
export const customerVendorOptionsQuerySchema = z.object({
  pageSize: optionsPageSize(),
  name: z.string().trim().max(100, 'Name must be at most 100 characters').optional(),
  type: multiValue(z.preprocess(lowerCased, z.enum(PARTY_TYPES, { error: 'Type must be customer or vendor' }))),
});

/** The id of the record a profile picture is for, when not in the path (query `?id=` or a multipart field). */
export const profilePictureQuerySchema = z.object({
  id: idField('Invalid id').optional(),
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
