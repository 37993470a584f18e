import { z } from '../../shared/zod-setup';
import { emailField, PHONE_PATTERN, requiredString } from '../../shared/validation';
import { pageQuerySchema } from '../../shared/pagination';

export const ROLES = ['admin', 'manager', 'worker'] as const;
export type Role = (typeof ROLES)[number];
/** Roles a manager can give (admin belongs to the organisation's creator). */
export const ASSIGNABLE_ROLES = ['manager', 'worker'] as const;

/** An optional field of an update: '' or null clears it (null), a field left out is kept as it is. */
const cleared = (v: unknown) => (v === '' || v === null ? null : v);

const optionalMin2 = (message: string) =>
  z.preprocess(cleared, z.string().trim().min(2, message).max(100, 'Must be at most 100 characters').nullable().optional());

/**
 * Spec "User edit": the users screen and the profile dialog. firstName, email and role are required (the
 * spec); the optional fields are partial: left out, the user's value is kept (decision 021).
 */
export const userUpdateSchema = z.strictObject({
  firstName: requiredString('First Name is required').min(2, 'First Name must be at least 2 characters').max(100, 'Must be at most 100 characters'),
  lastName: optionalMin2('Last Name must be at least 2 characters'),
  email: emailField('Please provide a valid email', 'Please provide a valid email'),
  phoneNumber: z.preprocess(cleared, z.string().trim().regex(PHONE_PATTERN, 'Please provide a valid phone number').nullable().optional()),
  jobTitle: optionalMin2('Job Title must be at least 2 characters'),
  role: z.enum(ROLES, { error: 'Role is required' }),
  language: z.enum(['en', 'ar'], { error: 'Language must be en or ar' }).optional(),
  location: z.preprocess(cleared, z.string().trim().max(200, 'Must be at most 200 characters').nullable().optional()),
});
export type UserUpdateInput = z.input<typeof userUpdateSchema>;

/** Spec "Invite user": e-mail twice and a role. */
export const inviteUserSchema = z
  .strictObject({
    email: emailField('Email is required', 'Invalid email address'),
    confirmEmail: emailField('Email is required', 'Invalid email address'),
    role: z.enum(ASSIGNABLE_ROLES, { error: 'Role is required' }),
  })
  .refine((v) => v.email === v.confirmEmail, { message: 'Emails do not match', path: ['confirmEmail'] });
export type InviteUserInput = z.input<typeof inviteUserSchema>;

export const usersQuerySchema = pageQuerySchema.extend({
  pageSize: pageQuerySchema.shape.pageSize.default(25),
  name: z.string().trim().max(100, 'Must be at most 100 characters').optional(),
});

/** A user as the API returns it: never a password hash. */
export interface UserDto {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string | null;
  jobTitle: string | null;
  role: Role;
  language: 'en' | 'ar';
  location: string | null;
  inviteStatus: 'ACTIVE' | 'PENDING';
  profilePicture: string | null;
  profilePictureLow: string | null;
  createdAt: string;
}
