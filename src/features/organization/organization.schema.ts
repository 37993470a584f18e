import { z } from '../../shared/zod-setup';
import { PHONE_PATTERN, requiredString } from '../../shared/validation';

const optional = (schema: z.ZodType<string | undefined>) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());

/** US ZIP (12345 or 12345-6789) as the spec names, and international postal codes (letters, digits, space, hyphen). */
export const ZIP_PATTERN = /^(\d{5}(-\d{4})?|[A-Za-z0-9][A-Za-z0-9 -]{1,8}[A-Za-z0-9])$/;

/** The company profile dialog. numberOfWorkers is read only and not accepted here. */
export const companyUpdateSchema = z.strictObject({
  organization: requiredString('Organization is required').min(2, 'Organization must be at least 2 characters').max(100, 'Must be at most 100 characters'),
  addressStreet1: optional(z.string().trim().max(200, 'Must be at most 200 characters')),
  addressStreet2: optional(z.string().trim().max(200, 'Must be at most 200 characters')),
  city: optional(z.string().trim().max(100, 'Must be at most 100 characters')),
  zipCode: optional(z.string().trim().regex(ZIP_PATTERN, 'Invalid zip code format')),
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
  currency: optional(z.string().trim().regex(/^[A-Z]{3}$/, 'Currency must be a three-letter code')),
});
export type CompanyUpdateInput = z.input<typeof companyUpdateSchema>;

export interface CompanyDto {
  id: number;
  organization: string;
  subdomain: string;
  addressStreet1: string | null;
  addressStreet2: string | null;
  city: string | null;
  zipCode: string | null;
  country: string | null;
  website: string | null;
  phoneNumber: string | null;
  profilePicture: string | null;
  profilePictureLow: string | null;
  numberOfWorkers: number;
  currency: string;
}
