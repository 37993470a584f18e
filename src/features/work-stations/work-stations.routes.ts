import type { FastifyInstance } from 'fastify';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { registerCrudRoutes } from '../../server/crud-routes';
import {
  workStationAnswers as answers,
  workStationInputSchema,
  workStationOptionSchema,
  workStationListQuerySchema,
  workStationOptionsQuerySchema,
} from './work-stations.schema';
import { addWorkStation, deleteWorkStation, getWorkStation, listWorkStationOptions, listWorkStations, updateWorkStation } from './work-stations.service';

/** Work stations (prefix /api/workstations). Reading is for everyone; stations are plant set-up, so writes are for managers. */
export async function workStationsRoutes(app: FastifyInstance) {
  registerCrudRoutes(app, {
    names: { noun: 'workstation', plural: 'workstations' },
    access: { read: EVERYONE, write: MANAGERS },
    schemas: { listQuery: workStationListQuerySchema, input: workStationInputSchema, answers: { ...answers, update: answers.updated } },
    service: { list: listWorkStations, add: addWorkStation, update: updateWorkStation, remove: deleteWorkStation },
    options: { path: '/get-workstation-options', query: workStationOptionsQuerySchema, item: workStationOptionSchema, list: listWorkStationOptions },
    one: { key: 'workStation', get: getWorkStation },
  });
}
