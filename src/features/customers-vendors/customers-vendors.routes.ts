import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { HttpError } from '../../server/http-error';
import { IMAGE_RULES, processImage } from '../../server/uploads/images';
import { readUploadedFiles, storeDocument } from '../../server/uploads/documents';
import { idParamsSchema } from '../../shared/pagination';
import {
  customerVendorAnswers as answers,
  customerVendorInputSchema,
  customerVendorOptionSchema,
  customerVendorOptionsQuerySchema,
  customerVendorsQuerySchema,
  DOCUMENT_RULES,
  profilePictureQuerySchema,
} from './customers-vendors.schema';
import {
  addCustomerVendor,
  deleteCustomerVendor,
  getCustomerVendor,
  listCustomerVendorOptions,
  listCustomerVendors,
  setCustomerVendorPicture,
  updateCustomerVendor,
} from './customers-vendors.service';
import { registerCrudRoutes } from '../../server/crud-routes';

/**
 * Reads the one image of a multipart request (field `image`, 5 MB rule) and the record id, from the
 * path, the query (`?id=`) or a multipart field `id` sent before the file.
 */
async function readPicture(req: FastifyRequest, pathId?: number, queryId?: number) {
  const rule = IMAGE_RULES.image;
  if (!req.isMultipart()) throw new HttpError(415, rule.typeMessage);
  const file = await req.file({ limits: { fileSize: rule.maxBytes, files: 1 } });
  if (!file) throw new HttpError(400, 'No file uploaded');
  const bytes = await file.toBuffer().catch((err: { code?: string }) => {
    if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, rule.sizeMessage);
    throw err;
  });
  if (file.file.truncated) throw new HttpError(413, rule.sizeMessage);
  const field = file.fields.id as { value?: unknown } | undefined;
  const id = pathId ?? queryId ?? (field && 'value' in field ? Number(field.value) : undefined);
  if (!id || !Number.isInteger(id) || id < 1 || id > 2147483647) {
    throw new HttpError(400, 'Save the customer/vendor first: a profile picture needs its id', [{ path: 'id', message: 'Invalid id' }]);
  }
  return { bytes, id };
}

/** Customers and vendors (prefix /api/customer-vendors). */
export async function customerVendorsRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  registerCrudRoutes(app, {
    names: { noun: 'customer-vendor', plural: 'customer-vendors' },
    access: { read: EVERYONE, write: EVERYONE, remove: MANAGERS },
    schemas: { listQuery: customerVendorsQuerySchema, input: customerVendorInputSchema, answers: { ...answers, update: answers.updated } },
    service: { list: listCustomerVendors, add: addCustomerVendor, update: updateCustomerVendor, remove: deleteCustomerVendor },
    options: {
      path: '/get-customer-vendor-options',
      query: customerVendorOptionsQuerySchema,
      item: customerVendorOptionSchema,
      list: listCustomerVendorOptions,
    },
    one: { key: 'customerVendor', get: getCustomerVendor },
    removesFiles: true,
  });

  // Profile picture of an existing record: /add-profile-picture/{id}, or /add-profile-picture with ?id= or a field `id`.
  const picture = async (req: FastifyRequest, pathId?: number, queryId?: number) => {
    const { bytes, id } = await readPicture(req, pathId, queryId);
    const image = await processImage(bytes, 'image');
    const { storage } = app.deps;
    const urls = { full: await storage.put(req.auth.orgId, image.full, 'webp'), low: await storage.put(req.auth.orgId, image.low, 'webp') };
    return req.inTenant((tx) => setCustomerVendorPicture(tx, req.auth.orgId, req.auth.userId, id, urls));
  };
  app.post('/add-profile-picture/:id', { schema: { params: idParamsSchema, response: { 200: answers.picture } }, config: { access: EVERYONE } }, (req) =>
    picture(req, req.params.id),
  );
  app.post(
    '/add-profile-picture',
    { schema: { querystring: profilePictureQuerySchema, response: { 200: answers.picture } }, config: { access: EVERYONE } },
    (req) => picture(req, undefined, req.query.id),
  );

  // Documents: stored first (PDF or images, checked by their bytes), then saved on the record with the form.
  app.post('/upload-documents', { schema: { response: { 200: answers.documents } }, config: { access: EVERYONE } }, async (req) => {
    const files = await readUploadedFiles(req, DOCUMENT_RULES);
    const documents: { url: string; name: string }[] = [];
    for (const file of files) documents.push(await storeDocument(app.deps.storage, req.auth.orgId, file, DOCUMENT_RULES));
    return { documents };
  });
}
