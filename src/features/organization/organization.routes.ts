import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema } from '../../shared/pagination';
import { processImage, readUploadedImage } from '../../server/uploads/images';
import { companyAnswerSchema, companyUpdateSchema } from './organization.schema';
import { getCompany, setCompanyLogo, updateCompany } from './organization.service';

/** The company profile: read by everyone signed in, changed by managers and admins. */
export async function organizationRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get('/company/get-company-data', { schema: { response: { 200: companyAnswerSchema } }, config: { access: EVERYONE } }, async (req) => ({
    company: await req.read((tx) => getCompany(tx, req.auth.orgId)),
  }));

  app.put(
    '/company/update-company/:id',
    { schema: { params: idParamsSchema, body: companyUpdateSchema, response: { 200: companyAnswerSchema } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => updateCompany(tx, req.auth.orgId, req.params.id, req.body)),
  );

  app.post('/company/add-profile-picture', { schema: { response: { 200: companyAnswerSchema } }, config: { access: MANAGERS } }, async (req) => {
    const image = await processImage(await readUploadedImage(req, 'image'), 'image');
    const { storage } = app.deps;
    const urls = { full: await storage.put(req.auth.orgId, image.full, 'webp'), low: await storage.put(req.auth.orgId, image.low, 'webp') };
    return req.inTenant((tx) => setCompanyLogo(tx, req.auth.orgId, urls));
  });
}
