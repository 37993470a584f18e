import type { FastifyInstance } from 'fastify';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { registerCrudRoutes } from '../../server/crud-routes';
import { simpleListQuerySchema } from '../master-data/master-data.schema';
import { teamAnswers, teamInputSchema } from './teams.schema';
import { addTeam, deleteTeam, listTeams, updateTeam } from './teams.service';

/** Teams (prefix /api/teams): everyone reads them (work stations and assignments need them); managers manage them. */
export async function teamsRoutes(app: FastifyInstance) {
  registerCrudRoutes(app, {
    names: { noun: 'team', plural: 'teams' },
    access: { read: EVERYONE, write: MANAGERS },
    schemas: { listQuery: simpleListQuerySchema, input: teamInputSchema, answers: teamAnswers },
    service: { list: listTeams, add: addTeam, update: updateTeam, remove: deleteTeam },
  });
}
