import { z } from '../../shared/zod-setup';
import { NAME_MESSAGES, nameField } from '../../shared/record-fields.schema';
import { nameOptionsQuerySchema } from '../../shared/options-query';
import { listAnswers, messageSchema, optionSchema, pageQuerySchema } from '../../shared/pagination';
import { idField, requiredString } from '../../shared/validation';
import { optionalRef, renameAliases, requiredRef, textFilter } from '../../shared/reference-fields';
import { locationFilterField } from '../locations/locations.schema';

/** Spec doc 1 section 5 "Work station", with its messages. */
export const WORK_STATION_MESSAGES = {
  code: 'Code is required',
  codeMax: 'Code must be at most 20 characters',
  ...NAME_MESSAGES,
  city: 'City is required',
  cityMax: 'City must be at most 100 characters',
  team: 'Team is required',
  teamUnknown: 'Team does not exist in this organization',
  codeTaken: 'A work station with this code already exists',
  inUse: 'This work station is used by services and cannot be deleted',
  location: 'Location is invalid',
  locationUnknown: 'Location does not exist in this organization',
} as const;

/** Add and update body: code, name, city, teamId (also accepted as `team` / `Team`, a number or `{ id }`). */
export const workStationInputSchema = z.preprocess(
  renameAliases({ team: 'teamId', Team: 'teamId', location: 'locationId', Location: 'locationId' }),
  z.strictObject({
    code: requiredString(WORK_STATION_MESSAGES.code).max(20, WORK_STATION_MESSAGES.codeMax),
    name: nameField(),
    city: requiredString(WORK_STATION_MESSAGES.city).max(100, WORK_STATION_MESSAGES.cityMax),
    teamId: requiredRef(WORK_STATION_MESSAGES.team),
    /** Where it is (decision 072); null clears it, absent keeps it on an update. */
    locationId: optionalRef(WORK_STATION_MESSAGES.location).optional(),
  }),
);
export type WorkStationInput = z.output<typeof workStationInputSchema>;

/** get-workstations: page, pageSize (default 25, spec section 9), name (matches name or code), teamId. */
export const workStationListQuerySchema = pageQuerySchema.extend({
  pageSize: pageQuerySchema.shape.pageSize.default(25),
  name: textFilter,
  teamId: idField('Invalid team').optional(),
  /** Only the records related to this user (spec section 3: the user's related_* records; the UI sends the signed-in user for "Only mine"). */
  relatedTo: idField('Invalid user').optional(),
  /** A location and everything under it (decision 072). */
  locationId: locationFilterField,
});
export type WorkStationListQuery = z.output<typeof workStationListQuerySchema>;

export const workStationOptionsQuerySchema = nameOptionsQuerySchema;

/** A work station as the API returns it. */
export const workStationDtoSchema = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  city: z.string(),
  teamId: z.number(),
  Team: z.object({ id: z.number(), name: z.string() }).nullable(),
  locationId: z.number().nullable(),
  Location: z.object({ id: z.number(), name: z.string() }).nullable(),
  createdAt: z.string(),
});
export type WorkStationDto = z.infer<typeof workStationDtoSchema>;

/** The work station routes' answers (issue 28); an update answers `{ message, updatedWorkStation }`. */
export const workStationAnswers = {
  ...listAnswers('workStations', workStationDtoSchema, 'workStation'),
  updated: messageSchema.extend({ updatedWorkStation: workStationDtoSchema }),
};
export type WorkStationList = z.infer<typeof workStationAnswers.list>;

export const workStationOptionSchema = optionSchema.extend({ code: z.string() });
export type WorkStationOption = z.infer<typeof workStationOptionSchema>;
