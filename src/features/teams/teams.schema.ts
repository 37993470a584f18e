import { z } from '../../shared/zod-setup';
import { idField } from '../../shared/validation';
import { simpleListAnswers } from '../master-data/master-data.schema';

// The zod contract of teams (spec document 2, "Team" validation): the form and the routes share it.

export const TEAM_MESSAGES = {
  memberRequired: 'At least one member is required',
  workerRequired: 'Please select a worker',
  workerOnce: 'A worker can be selected only once',
  oneLead: 'Only one member can be the Team Lead',
  oneDefault: 'Only one member can be the Default Assignee',
} as const;

const flag = z.preprocess((v) => (v === null || v === undefined ? false : v), z.boolean({ error: 'Must be true or false' }));

export const teamMemberSchema = z.strictObject({
  // 0 or '' is the empty select of a new row
  workerId: z.preprocess((v) => (v === '' || v === null || v === 0 || v === '0' ? undefined : v), idField(TEAM_MESSAGES.workerRequired)),
  isTeamLead: flag,
  isDefaultAssignee: flag,
});

export const teamInputSchema = z
  .strictObject({
    name: z
      .string({ error: 'Name is required' })
      .trim()
      .min(1, 'Name is required')
      .min(3, 'Name must be at least 3 characters long')
      .max(100, 'Name must be at most 100 characters long'),
    members: z.array(teamMemberSchema, { error: TEAM_MESSAGES.memberRequired }).min(1, TEAM_MESSAGES.memberRequired).max(500, 'Too many members'),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<number>();
    v.members.forEach((m, i) => {
      if (seen.has(m.workerId)) ctx.addIssue({ code: 'custom', path: ['members', i, 'workerId'], message: TEAM_MESSAGES.workerOnce });
      seen.add(m.workerId);
    });
    const leads = v.members.flatMap((m, i) => (m.isTeamLead ? [i] : []));
    if (leads.length > 1) ctx.addIssue({ code: 'custom', path: ['members', leads[1], 'isTeamLead'], message: TEAM_MESSAGES.oneLead });
    const defaults = v.members.flatMap((m, i) => (m.isDefaultAssignee ? [i] : []));
    if (defaults.length > 1) ctx.addIssue({ code: 'custom', path: ['members', defaults[1], 'isDefaultAssignee'], message: TEAM_MESSAGES.oneDefault });
  });
export type TeamInput = z.input<typeof teamInputSchema>;
export type TeamMemberInput = z.input<typeof teamMemberSchema>;

export const teamMemberDtoSchema = z.object({
  workerId: z.number(),
  isTeamLead: z.boolean(),
  isDefaultAssignee: z.boolean(),
  Worker: z.object({ id: z.number(), firstName: z.string(), lastName: z.string(), email: z.string() }),
});
export type TeamMemberDto = z.infer<typeof teamMemberDtoSchema>;

export const teamDtoSchema = z.object({
  id: z.number(),
  name: z.string(),
  members: z.array(teamMemberDtoSchema),
  /** The members' worker ids (spec "Workers (worker ids)"). */
  Workers: z.array(z.number()),
  teamLeadId: z.number().nullable(),
  defaultAssigneeId: z.number().nullable(),
  memberCount: z.number(),
  createdAt: z.string(),
});
export type TeamDto = z.infer<typeof teamDtoSchema>;

/** The teams routes' answers (issue 28). */
export const teamAnswers = simpleListAnswers('teams', teamDtoSchema, 'team', ['team']);
