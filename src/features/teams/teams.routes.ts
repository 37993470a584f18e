import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema } from '../../shared/pagination';
import { simpleListQuerySchema } from '../master-data/master-data.schema';
import { teamAnswers, teamInputSchema } from './teams.schema';
import { addTeam, deleteTeam, listTeams, updateTeam } from './teams.service';

/** Teams (prefix /api/teams): everyone reads them (work stations and assignments need them); managers manage them. */
export async function teamsRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();
  app.get('/get-teams', { schema: { querystring: simpleListQuerySchema, response: { 200: teamAnswers.list } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listTeams(tx, req.auth.orgId, req.query)),
  );
  app.post(
    '/add-team',
    { schema: { querystring: simpleListQuerySchema, body: teamInputSchema, response: { 201: teamAnswers.add } }, config: { access: MANAGERS } },
    async (req, reply) => reply.status(201).send(await req.inTenant((tx) => addTeam(tx, req.auth.orgId, req.auth.userId, req.body, req.query))),
  );
  app.put(
    '/update-team/:id',
    { schema: { params: idParamsSchema, body: teamInputSchema, response: { 200: teamAnswers.update } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => updateTeam(tx, req.auth.orgId, req.auth.userId, req.params.id, req.body)),
  );
  app.delete(
    '/delete-team/:id',
    { schema: { params: idParamsSchema, querystring: simpleListQuerySchema, response: { 200: teamAnswers.remove } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => deleteTeam(tx, req.auth.orgId, req.auth.userId, req.params.id, req.query)),
  );
}
