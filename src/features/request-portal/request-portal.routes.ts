import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMINS, EVERYONE, MANAGERS } from '../../server/plugins/request-context';
import { idParamsSchema } from '../../shared/pagination';
import { HttpError, badRequest } from '../../server/http-error';
import { addressKey, hitRateLimit, throttle } from '../../server/rate-limit';
import { IMAGE_RULES, processImage } from '../../server/uploads/images';
import { uploadSigner } from '../../server/uploads/storage';
import { publicOrigin } from '../../server/env';
import {
  assetLabelsPdfSchema,
  assetLabelsSchema,
  assetSummarySchema,
  foundAssetSchema,
  portalCodeTargetSchema,
  portalCommentedSchema,
  portalCountSchema,
  portalFormDtoSchema,
  portalRequestAcceptedSchema,
  portalRequestAnswerSchema,
  portalRequestChangedSchema,
  portalRequestListSchema,
  portalSettingsDtoSchema,
  portalSettingsSavedSchema,
  portalStatusDtoSchema,
  portalSubmittedSchema,
  findAssetQuerySchema,
  PORTAL_LIMITS,
  portalAcceptSchema,
  portalCommentSchema,
  portalDeclineSchema,
  portalListQuerySchema,
  portalMergeSchema,
  portalReplySchema,
  portalRequestOptionsQuerySchema,
  portalRequestOptionsSchema,
  portalSettingsInputSchema,
  portalSubmitSchema,
  tokenParamsSchema,
} from './request-portal.schema';
import * as portal from './request-portal.service';
import { assetLabelsPdf } from './request-portal.labels';
import { usePortalMailer } from './request-portal.flow';

/** A multipart body of the public side: its text fields and its images (at most `maxFiles`, each under the image rule). */
async function readForm(req: FastifyRequest, maxFiles: number) {
  const fields: Record<string, string> = {};
  const files: Buffer[] = [];
  if (!req.isMultipart()) {
    // A JSON body (no photo) is taken too.
    const body = req.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Invalid body');
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string') fields[k] = v;
    return { fields, files };
  }
  try {
    for await (const part of req.parts({ limits: { fileSize: IMAGE_RULES.image.maxBytes, files: maxFiles, fields: 12, fieldSize: 8 * 1024 } })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.file.truncated) throw new HttpError(413, IMAGE_RULES.image.sizeMessage);
        if (bytes.length) files.push(bytes);
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, IMAGE_RULES.image.sizeMessage);
    if (code === 'FST_FILES_LIMIT') throw new HttpError(413, `At most ${maxFiles} photos`);
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') throw new HttpError(413, 'Too many fields');
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new HttpError(415, IMAGE_RULES.image.typeMessage);
    throw err;
  }
  return { fields, files };
}
type ZodApp = ReturnType<typeof withZod>;
const withZod = (app: FastifyInstance) => app.withTypeProvider<ZodTypeProvider>();
type PortalKit = ReturnType<typeof portalKit>;

/**
 * The request portal (prefix /api/portal, decision 039). Public: the form, sending a request, and the
 * requester's status page by its private token (throttled per address; sending also per organisation).
 * Signed in: the inbox and its triage (managers), the portal's settings (admins), codes and labels.
 */
export async function requestPortalRoutes(appBase: FastifyInstance) {
  const app = withZod(appBase);
  const { config, mailer } = app.deps;
  // Work orders and maintenance requests tell requesters of their changes through this app's mailer (request-portal.flow.ts).
  const releaseMailer = usePortalMailer({ mailer, config });
  app.addHook('onClose', async () => releaseMailer());
  const kit = portalKit(app);
  publicPortalRoutes(app, kit);
  memberPortalRoutes(app, kit);
}

/** What the portal's routes share: the host's organisation, links, signed photos, stored files, the form's parsing. */
function portalKit(app: ZodApp) {
  const { config, mailer, storage } = app.deps;
  const signer = uploadSigner(config.jwtSecret);
  /** The host's organisation; a host of none gets the same 404 as an unknown code. */
  const orgOf = (req: FastifyRequest) => {
    if (!req.org) throw new HttpError(404, 'Not found');
    return req.org.id;
  };
  /** Links in mail and QR codes: the organisation's subdomain of the configured base domain, not the Host header. */
  const originOf = (req: FastifyRequest) => {
    if (!req.org) throw new HttpError(404, 'Not found');
    return publicOrigin(config, req.org.subdomain);
  };
  // Links in requesters' mail: the organisation's subdomain of the configured base domain (publicOrigin), the status token derived with the app's secret (decision 060).
  const mailOf = () => ({ mailer, config });
  /** The requester sees their own photos: signed here, since they hold no session (the hook signs members' only). */
  const signed = <T extends { photos: string[]; replies: { photos: string[] }[] }>(dto: T): T => {
    const sign = (urls: string[]) => urls.map((u) => signer.sign(u));
    return { ...dto, photos: sign(dto.photos), replies: dto.replies.map((x) => ({ ...x, photos: sign(x.photos) })) };
  };
  /** Decodes and re-encodes each photo (as every upload) and stores it; returns the stored URLs. */
  const storePhotos = async (orgId: number, files: Buffer[]) => {
    const urls: string[] = [];
    try {
      for (const bytes of files) urls.push(await storage.put(orgId, (await processImage(bytes, 'image')).full, 'webp'));
    } catch (err) {
      await Promise.all(urls.map((u) => storage.remove(u)));
      throw err;
    }
    return urls;
  };
  /** Copies stored files (a file already gone is left out); on a failure the copies made are removed. */
  const copyFiles = async (orgId: number, urls: string[]) => {
    const copies: string[] = [];
    try {
      for (const url of urls) {
        const bytes = await storage.read(url);
        if (bytes) copies.push(await storage.put(orgId, bytes, 'webp'));
      }
    } catch (err) {
      await Promise.all(copies.map((u) => storage.remove(u).catch(() => undefined)));
      throw err;
    }
    return copies;
  };
  const removeOnFailure = async <T>(urls: string[], work: () => Promise<T>) => {
    try {
      return await work();
    } catch (err) {
      await Promise.all(urls.map((u) => storage.remove(u).catch(() => undefined)));
      throw err;
    }
  };
  const parse = <S extends typeof portalSubmitSchema | typeof portalCommentSchema>(schema: S, fields: Record<string, string>) => {
    const result = schema.safeParse(fields);
    if (!result.success) {
      const issues = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
      throw new HttpError(400, issues[0]?.message ?? 'Invalid request', issues);
    }
    return result.data as ReturnType<S['parse']>;
  };
  return { orgOf, originOf, mailOf, signed, storePhotos, copyFiles, removeOnFailure, parse };
}

/** The public side: the form, sending a request, the requester's status page and comments. */
function publicPortalRoutes(app: ZodApp, { orgOf, mailOf, signed, storePhotos, removeOnFailure, parse }: PortalKit) {
  const { config, database } = app.deps;

  app.get('/form', { schema: { response: { 200: portalFormDtoSchema } }, config: { access: 'public' }, onRequest: throttle('portalRead') }, (req) =>
    req.read((tx) => portal.getPortalForm(tx, orgOf(req), undefined)),
  );

  app.get(
    '/form/:token',
    { schema: { params: tokenParamsSchema, response: { 200: portalFormDtoSchema } }, config: { access: 'public' }, onRequest: throttle('portalRead') },
    (req) => req.read((tx) => portal.getPortalForm(tx, orgOf(req), req.params.token)),
  );

  app.post(
    '/submit-request',
    { schema: { response: { 201: portalSubmittedSchema } }, config: { access: 'public' }, onRequest: throttle('portalSubmit') },
    async (req, reply) => {
      const orgId = orgOf(req);
      const { fields, files } = await readForm(req, PORTAL_LIMITS.photosPerRequest);
      const input = parse(portalSubmitSchema, fields);
      // The honeypot: people never see the field. A filled one is answered as a success and nothing is kept.
      if (input.website) return reply.status(201).send({ message: 'Request received' });
      // The organisation's hourly budget never shuts the portal (decision 054): an address past its share of it, or
      // anyone past the budget, is taken but held for review; only the address's own limit (portalSubmit) refuses.
      const { max, windowSeconds } = config.routeLimits.portalOrgSubmit;
      const share = await hitRateLimit(database.db, `portalOrgShare:${orgId}:${addressKey(req.ip)}`, windowSeconds);
      const held =
        share.hits > Math.max(1, Math.ceil(max * PORTAL_LIMITS.addressShare)) ||
        (await hitRateLimit(database.db, `portalOrgSubmit:org:${orgId}`, windowSeconds)).hits > max;
      // Refused before any image work; checked again in the write.
      await req.read((tx) => portal.checkSubmission(tx, orgId, input, held));
      const photos = await storePhotos(orgId, files);
      const result = await removeOnFailure(photos, () => req.inTenant((tx) => portal.submitPortalRequest(tx, orgId, input, photos, mailOf(), held)));
      return reply.status(201).send(result);
    },
  );

  app.get(
    '/status/:token',
    { schema: { params: tokenParamsSchema, response: { 200: portalStatusDtoSchema } }, config: { access: 'public' }, onRequest: throttle('portalRead') },
    async (req) => signed(await req.read((tx) => portal.getPortalStatus(tx, orgOf(req), req.params.token))),
  );

  app.post(
    '/status/:token/add-comment',
    { schema: { params: tokenParamsSchema, response: { 201: portalCommentedSchema } }, config: { access: 'public' }, onRequest: throttle('portalSubmit') },
    async (req, reply) => {
      const orgId = orgOf(req);
      const { fields, files } = await readForm(req, 1);
      const input = parse(portalCommentSchema, fields);
      if (input.website) return reply.status(201).send({ message: 'Comment added' });
      await req.read((tx) => portal.checkComment(tx, orgId, req.params.token, files.length > 0));
      const photos = await storePhotos(orgId, files);
      const result = await removeOnFailure(photos, () => req.inTenant((tx) => portal.addPortalComment(tx, orgId, req.params.token, input.body, photos)));
      return reply.status(201).send({ ...result, status: signed(result.status) });
    },
  );
}

/** Signed in: the inbox and its triage (managers), the portal's settings (admins), codes and labels. */
function memberPortalRoutes(app: ZodApp, { originOf, mailOf, copyFiles, removeOnFailure }: PortalKit) {
  const { storage } = app.deps;

  app.get('/settings', { schema: { response: { 200: portalSettingsDtoSchema } }, config: { access: MANAGERS } }, (req) =>
    req.read((tx) => portal.getPortalSettings(tx, req.auth.orgId)),
  );

  app.put('/settings', { schema: { body: portalSettingsInputSchema, response: { 200: portalSettingsSavedSchema } }, config: { access: ADMINS } }, (req) =>
    req.inTenant((tx) => portal.savePortalSettings(tx, req.auth.orgId, req.body)),
  );

  app.get(
    '/list-requests',
    { schema: { querystring: portalListQuerySchema, response: { 200: portalRequestListSchema } }, config: { access: MANAGERS } },
    (req) => req.read((tx) => portal.listPortalRequests(tx, req.auth.orgId, req.query)),
  );

  app.get(
    '/get-requests-options',
    { schema: { querystring: portalRequestOptionsQuerySchema, response: { 200: portalRequestOptionsSchema } }, config: { access: MANAGERS } },
    (req) => req.read((tx) => portal.portalRequestOptions(tx, req.auth.orgId, req.query)),
  );

  app.get('/new-requests-count', { schema: { response: { 200: portalCountSchema } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => portal.countNewPortalRequests(tx, req.auth.orgId)),
  );

  app.get('/get-request/:id', { schema: { params: idParamsSchema, response: { 200: portalRequestAnswerSchema } }, config: { access: MANAGERS } }, (req) =>
    req.read((tx) => portal.getPortalRequest(tx, req.auth.orgId, req.params.id)),
  );

  app.post(
    '/accept-request/:id',
    { schema: { params: idParamsSchema, body: portalAcceptSchema, response: { 200: portalRequestAcceptedSchema } }, config: { access: MANAGERS } },
    async (req) => {
      const orgId = req.auth.orgId;
      // The work made of it (work order or maintenance request) gets copies of the photos' files: deleting it (which deletes its photos) leaves the portal request's.
      const copies = await copyFiles(orgId, await req.read((tx) => portal.requestPhotos(tx, orgId, req.params.id)));
      return removeOnFailure(copies, () => req.inTenant((tx) => portal.acceptPortalRequest(tx, orgId, req.auth, req.params.id, req.body, mailOf(), copies)));
    },
  );

  app.post(
    '/decline-request/:id',
    { schema: { params: idParamsSchema, body: portalDeclineSchema, response: { 200: portalRequestChangedSchema } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => portal.declinePortalRequest(tx, req.auth.orgId, req.params.id, req.body.reason, mailOf())),
  );

  app.post(
    '/merge-request/:id',
    { schema: { params: idParamsSchema, body: portalMergeSchema, response: { 200: portalRequestChangedSchema } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => portal.mergePortalRequest(tx, req.auth.orgId, req.params.id, req.body.intoId, mailOf())),
  );

  app.post(
    '/reply-request/:id',
    { schema: { params: idParamsSchema, body: portalReplySchema, response: { 200: portalRequestChangedSchema } }, config: { access: MANAGERS } },
    (req) => req.inTenant((tx) => portal.replyPortalRequest(tx, req.auth.orgId, req.auth, req.params.id, req.body.body, mailOf())),
  );

  app.get('/resolve-code/:token', { schema: { params: tokenParamsSchema, response: { 200: portalCodeTargetSchema } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => portal.resolveCode(tx, req.auth.orgId, req.params.token)),
  );

  app.get('/asset-summary/:id', { schema: { params: idParamsSchema, response: { 200: assetSummarySchema } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => portal.assetSummary(tx, req.auth.orgId, req.auth, req.params.id)),
  );

  app.get('/find-asset', { schema: { querystring: findAssetQuerySchema, response: { 200: foundAssetSchema } }, config: { access: EVERYONE } }, (req) =>
    req.read((tx) => portal.findAssetByNumber(tx, req.auth.orgId, req.query.number)),
  );

  /** Label PDFs (managers): the chosen assets' and work stations' codes (made on first use), names, numbers and the organisation's logo. */
  app.post(
    '/asset-labels',
    { schema: { body: assetLabelsSchema, response: { 200: assetLabelsPdfSchema } }, config: { access: MANAGERS } },
    async (req, reply) => {
      const origin = originOf(req);
      const data = await req.inTenant((tx) => portal.labelData(tx, req.auth.orgId, req.body.assetIds, req.body.workStationIds));
      const logo = data.logo ? await storage.read(data.logo) : null;
      const pdf = await assetLabelsPdf({ ...data, logo, origin, layout: req.body.layout });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', 'attachment; filename="asset-labels.pdf"')
        .send(pdf as never);
    },
  );
}
