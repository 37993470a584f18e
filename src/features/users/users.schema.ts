import { z } from '../../shared/zod-setup';
import { languageField, LANGUAGES } from '../../shared/record-fields.schema';
import { emailField, PHONE_PATTERN, requiredString, idField } from '../../shared/validation';
import { listAnswerSchema, messageSchema, pageQuerySchema } from '../../shared/pagination';
import { MAX_HOURLY_RATE_MINOR } from '../work-orders/work-orders.schema';

export const ROLES = ['admin', 'manager', 'worker'] as const;
export type Role = (typeof ROLES)[number];
/** Roles a manager can give (admin belongs to the organisation's creator). */
export const ASSIGNABLE_ROLES = ['manager', 'worker'] as const;

/** An optional field of an update: '' or null clears it (null), a field left out is kept as it is. */
const cleared = (v: unknown) => (v === '' || v === null ? null : v);

const optionalMin2 = (message: string) =>
  z.preprocess(cleared, z.string().trim().min(2, message).max(100, 'Must be at most 100 characters').nullable().optional());

/** A list of record ids ([1, 2] or [{ id: 1 }]); left out, the user's links are kept. */
const relatedIds = (message: string) =>
  z
    .preprocess(
      (v) => (v === null ? [] : Array.isArray(v) ? v.map((x) => (x && typeof x === 'object' && 'id' in x ? (x as { id: unknown }).id : x)) : v),
      z.array(idField(message), { error: message }).max(200, 'At most 200 items'),
    )
    .optional();

/** The user's related records (spec section 3), as the API takes them: ids; only a manager or admin sets them. */
export const RELATED_KEYS = ['related_workStations', 'related_assets', 'related_services'] as const;
export type RelatedKey = (typeof RELATED_KEYS)[number];

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
  language: languageField().optional(),
  location: z.preprocess(cleared, z.string().trim().max(200, 'Must be at most 200 characters').nullable().optional()),
  related_workStations: relatedIds('Select a valid work station'),
  related_assets: relatedIds('Select a valid asset'),
  related_services: relatedIds('Select a valid service'),
  /** Labour rate per hour in the organisation currency's minor units (optional; a manager's edit only; decision 038). */
  hourlyRate: z.preprocess(
    cleared,
    z.coerce
      .number({ error: 'Hourly rate must be a positive amount' })
      .int('Hourly rate must be a positive amount')
      .min(0, 'Hourly rate must be a positive amount')
      // 24 hours of it stay within a labour line's bound (issue 45).
      .max(MAX_HOURLY_RATE_MINOR, 'Hourly rate is too large')
      .nullable()
      .optional(),
  ),
});
export type UserUpdateInput = z.input<typeof userUpdateSchema>;

/** Spec "Invite user": e-mail twice and a role. */
export const inviteUserSchema = z
  .strictObject({
    email: emailField('Email is required', 'Invalid email address'),
    confirmEmail: emailField('Email is required', 'Invalid email address'),
    role: z.enum(ASSIGNABLE_ROLES, { error: 'Role is required' }),
    /** The invitation's language (and the new user's); the inviting admin's own when not given (decision 065). */
    language: languageField().optional(),
  })
  // checked as soon as both addresses are valid, whatever the role (zod skips a refinement after any issue)
  .refine((v) => v.email === v.confirmEmail, {
    message: 'Emails do not match',
    path: ['confirmEmail'],
    // not when the body itself is wrong (null, an array: an issue at the root) or an address is
    when: ({ issues }) => !issues.some((i) => !i.path?.length || i.path[0] === 'email' || i.path[0] === 'confirmEmail'),
  });
export type InviteUserInput = z.input<typeof inviteUserSchema>;

export const usersQuerySchema = pageQuerySchema.extend({
  pageSize: pageQuerySchema.shape.pageSize.default(25),
  name: z.string().trim().max(100, 'Must be at most 100 characters').optional(),
});

/** A user as the API returns it: never a password hash. */
export const userDtoSchema = z.object({
  id: z.number(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phoneNumber: z.string().nullable(),
  jobTitle: z.string().nullable(),
  role: z.enum(ROLES),
  language: z.enum(LANGUAGES),
  location: z.string().nullable(),
  inviteStatus: z.enum(['ACTIVE', 'PENDING']),
  profilePicture: z.string().nullable(),
  profilePictureLow: z.string().nullable(),
  createdAt: z.string(),
  /** The related records (spec section 3), by name: work stations and assets `{ id, name }`, services `{ id, title }`. */
  related_workStations: z.array(z.object({ id: z.number(), name: z.string() })),
  related_assets: z.array(z.object({ id: z.number(), name: z.string() })),
  related_services: z.array(z.object({ id: z.number(), title: z.string() })),
  /** Minor units of the organisation currency per hour; null when not set (decision 038). */
  hourlyRate: z.number().nullable(),
});
export type UserDto = z.infer<typeof userDtoSchema>;

/** The users routes' answers (issue 28). */
const userList = listAnswerSchema('users', userDtoSchema);
export const userAnswers = {
  list: userList,
  one: z.object({ user: userDtoSchema }),
  remove: userList.extend(messageSchema.shape),
  invited: z.object({ newUser: userDtoSchema }),
};
