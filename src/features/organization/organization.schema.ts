import { z } from '../../shared/zod-setup';
import { blankToUndefined } from '../../shared/reference-fields';
import { PHONE_PATTERN, requiredString } from '../../shared/validation';
import { TAX_ROUNDING_VALUES } from '../../shared/tax';
import { timeZoneField } from '../../shared/dates';

export const TAX_ROUNDING_MESSAGE = 'Tax rounding must be per line or global';

const optional = (schema: z.ZodType<string | undefined>) => z.preprocess(blankToUndefined, schema.optional());

/** The spec's US ZIP: 12345 or 12345-6789. */
export const US_ZIP_PATTERN = /^\d{5}(-\d{4})?$/;
/** Postal codes elsewhere (SW1A 1AA, K1A 0B1, 1012 AB, 100-0001, 8001): letters, digits, one space or hyphen between. */
export const INTERNATIONAL_ZIP_PATTERN = /^[A-Za-z0-9]{2,8}([ -][A-Za-z0-9]{1,5})?$/;
const US_NAMES = new Set(['', 'us', 'usa', 'u.s.', 'u.s.a.', 'united states', 'united states of america']);

/** The US rule applies when the country is the United States or not given; other countries use theirs. */
export const isValidZip = (zip: string, country?: string | null) =>
  US_NAMES.has((country ?? '').trim().toLowerCase()) ? US_ZIP_PATTERN.test(zip) : INTERNATIONAL_ZIP_PATTERN.test(zip);

/** The company profile dialog. numberOfWorkers is read only and not accepted here. */
export const companyUpdateSchema = z
  .strictObject({
    organization: requiredString('Organization is required').min(2, 'Organization must be at least 2 characters').max(100, 'Must be at most 100 characters'),
    addressStreet1: optional(z.string().trim().max(200, 'Must be at most 200 characters')),
    addressStreet2: optional(z.string().trim().max(200, 'Must be at most 200 characters')),
    city: optional(z.string().trim().max(100, 'Must be at most 100 characters')),
    zipCode: optional(z.string().trim().max(12, 'Invalid zip code format')),
    country: optional(z.string().trim().max(100, 'Must be at most 100 characters')),
    website: optional(
      z
        .string()
        .trim()
        .max(300, 'Invalid website URL')
        .refine((s) => {
          try {
            const u = new URL(s);
            return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.includes('.');
          } catch {
            return false;
          }
        }, 'Invalid website URL'),
    ),
    phoneNumber: optional(z.string().trim().regex(PHONE_PATTERN, 'Please provide a valid phone number')),
    currency: optional(
      z
        .string()
        .trim()
        .regex(/^[A-Z]{3}$/, 'Currency must be a three-letter code'),
    ),
    // Odoo's tax_calculation_rounding_method (decision 036); left out keeps the organisation's.
    taxRounding: z.preprocess(blankToUndefined, z.enum(TAX_ROUNDING_VALUES, { error: TAX_ROUNDING_MESSAGE }).optional()),
    // The organisation's IANA time zone (decision 064); left out keeps the organisation's.
    timeZone: z.preprocess(blankToUndefined, timeZoneField.optional()),
    // Read only: accepted so a form can send back what it read, and ignored.
    numberOfWorkers: z.unknown().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.zipCode && !isValidZip(v.zipCode, v.country)) ctx.addIssue({ code: 'custom', path: ['zipCode'], message: 'Invalid zip code format' });
  });
export type CompanyUpdateInput = z.input<typeof companyUpdateSchema>;

export const companyDtoSchema = z.object({
  id: z.number(),
  organization: z.string(),
  subdomain: z.string(),
  addressStreet1: z.string().nullable(),
  addressStreet2: z.string().nullable(),
  city: z.string().nullable(),
  zipCode: z.string().nullable(),
  country: z.string().nullable(),
  website: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  profilePicture: z.string().nullable(),
  profilePictureLow: z.string().nullable(),
  numberOfWorkers: z.number(),
  currency: z.string(),
  taxRounding: z.enum(TAX_ROUNDING_VALUES),
  timeZone: z.string(),
});
export type CompanyDto = z.infer<typeof companyDtoSchema>;
/** Every company route answers `{ company }` (issue 28). */
export const companyAnswerSchema = z.object({ company: companyDtoSchema });
