import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVERYONE } from '../../server/plugins/request-context';
import { processImage, readUploadedImage } from '../../server/uploads/images';
import { idParamsSchema } from '../../shared/pagination';
import { myPartsQuerySchema, myPartsSchema, myPhotoAddedSchema, myPhotosSchema, myWorkListSchema, myWorkQuerySchema } from './my-work.schema';
import { addWorkOrderPhoto, checkPhotoTarget, listMyParts, listMyWork, listWorkOrderPhotos } from './my-work.service';

/** The technician's app (prefix /api/my-work, issue 27, decision 041): its device copy's reads and its photos. */
export async function myWorkRoutes(appBase: FastifyInstance) {
  const app = appBase.withTypeProvider<ZodTypeProvider>();

  app.get('/list-my-work', { schema: { querystring: myWorkQuerySchema, response: { 200: myWorkListSchema } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listMyWork(tx, req.auth.orgId, req.auth, req.query)),
  );

  app.get('/list-my-parts', { schema: { querystring: myPartsQuerySchema, response: { 200: myPartsSchema } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listMyParts(tx, req.auth.orgId, req.query)),
  );

  app.get('/list-photos/:id', { schema: { params: idParamsSchema, response: { 200: myPhotosSchema } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => listWorkOrderPhotos(tx, req.auth.orgId, req.auth, req.params.id)),
  );

  // Multipart field `image`: checked before a byte is read, re-encoded, stored, then kept in one write. A keyed
  // retry of a photo already kept replays the first answer: the second copy of the bytes is removed.
  app.post(
    '/add-photo/:id',
    { schema: { params: idParamsSchema, response: { 201: myPhotoAddedSchema } }, config: { access: EVERYONE } },
    async (req, reply) => {
      const { id } = req.params;
      await req.read((tx) => checkPhotoTarget(tx, req.auth.orgId, req.auth, id));
      const image = await processImage(await readUploadedImage(req, 'image'), 'image');
      const url = await app.deps.storage.put(req.auth.orgId, image.full, 'webp');
      reply.status(201);
      try {
        return await req.inTenant((tx) => addWorkOrderPhoto(tx, req.auth.orgId, req.auth, id, url));
      } catch (err) {
        await app.deps.storage.remove(url).catch(() => undefined);
        throw err;
      }
    },
  );
}
