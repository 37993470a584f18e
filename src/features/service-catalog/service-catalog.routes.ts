import type { FastifyInstance } from 'fastify';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { registerCrudRoutes } from '../../server/crud-routes';
import { serviceAnswers, serviceInputSchema, serviceOptionSchema, serviceListQuerySchema, serviceOptionsQuerySchema } from './service-catalog.schema';
import { addService, deleteService, getService, listServiceOptions, listServices, updateService } from './service-catalog.service';

/** Services (prefix /api/services). Reading is for everyone; the catalogue is plant set-up, so writes are for managers. */
export async function serviceCatalogRoutes(app: FastifyInstance) {
  registerCrudRoutes(app, {
    names: { noun: 'service', plural: 'services' },
    access: { read: EVERYONE, write: MANAGERS },
    schemas: { listQuery: serviceListQuerySchema, input: serviceInputSchema, answers: serviceAnswers },
    service: { list: listServices, add: addService, update: updateService, remove: deleteService },
    options: { path: '/get-services-options', query: serviceOptionsQuerySchema, item: serviceOptionSchema, list: listServiceOptions },
    one: { key: 'service', get: getService },
  });
}
