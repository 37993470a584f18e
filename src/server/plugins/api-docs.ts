import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, HTTPMethods } from 'fastify';
import { FILE_MEDIA_TYPE } from '../../shared/pagination';
import { finishDocument } from './openapi-document';

/**
 * A file answer (`fileAnswer`, marked with FILE_MEDIA_TYPE) becomes `content: { <media type>: binary string }`, which
 * @fastify/swagger keeps as it is, instead of a JSON string under application/json.
 */
function fileAnswers<T extends { schema?: unknown }>(transformed: T): T {
  const response = (transformed.schema as { response?: Record<string, Record<string, unknown>> } | undefined)?.response;
  for (const [status, answer] of Object.entries(response ?? {})) {
    const mediaType = answer?.[FILE_MEDIA_TYPE];
    if (typeof mediaType !== 'string') continue;
    const { [FILE_MEDIA_TYPE]: _marker, description, ...schema } = answer;
    response![status] = { description, content: { [mediaType]: { schema } } };
  }
  return transformed;
}

/**
 * The OpenAPI document and its UI at /api/docs, built on the first visit. @fastify/swagger, its YAML
 * library, swagger-ui and a second static-file server cost about a fifth of a cold start (decision 013),
 * for a page few requests ever open. So this plugin only notes every API route's schema; the first visit
 * builds a separate Fastify instance that declares the same routes under swagger, and the docs requests
 * are answered by it.
 */
export const apiDocs = fp(async (app: FastifyInstance) => {
  const routes: { method: HTTPMethods[]; url: string; schema?: FastifySchema }[] = [];
  // Who may call each operation (`METHOD /api/x/{id}`): the document's security requirements and refusals.
  const access = new Map<string, 'public' | readonly string[]>();
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    // Fastify adds HEAD beside each GET by itself.
    const method = [route.method].flat().filter((m) => m !== 'HEAD') as HTTPMethods[];
    if (method.length) routes.push({ method, url: route.url, schema: route.schema });
    const declared = (route.config as { access?: 'public' | readonly string[] } | undefined)?.access;
    if (declared) for (const m of method) access.set(`${m} ${route.url.replace(/:(\w+)/g, '{$1}')}`, declared);
  });

  let docs: Promise<FastifyInstance> | undefined;
  const build = async () => {
    const [{ default: Fastify }, { default: swagger }, { default: swaggerUi }, zod] = await Promise.all([
      import('fastify'),
      import('@fastify/swagger'),
      import('@fastify/swagger-ui'),
      import('fastify-type-provider-zod'),
    ]);
    const docsApp = Fastify({ logger: false });
    docsApp.setValidatorCompiler(zod.validatorCompiler);
    docsApp.setSerializerCompiler(zod.serializerCompiler);
    await docsApp.register(swagger, {
      openapi: { info: { title: 'CMMS API', version: '1.0.0' } },
      transform: (input) => fileAnswers(zod.jsonSchemaTransform(input)),
      transformObject: (input) =>
        ('openapiObject' in input
          ? finishDocument(input.openapiObject as Record<string, unknown>, (method, path) => access.get(`${method} ${path}`))
          : input.swaggerObject) as never,
    });
    await docsApp.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });
    for (const route of routes) docsApp.route({ ...route, handler: async () => null });
    await docsApp.ready();
    return docsApp;
  };

  const forward = async (req: FastifyRequest, reply: FastifyReply) => {
    docs ??= build().catch((err) => {
      docs = undefined; // a failed build is retried on the next visit
      throw err;
    });
    const res = await (await docs).inject({ method: req.method as HTTPMethods, url: req.url, headers: { accept: req.headers.accept ?? '*/*' } });
    for (const name of ['content-type', 'cache-control', 'etag', 'last-modified', 'location']) {
      const value = res.headers[name];
      if (value !== undefined) reply.header(name, value);
    }
    return reply.status(res.statusCode).send(res.rawPayload);
  };
  app.get('/api/docs', { config: { access: 'public' } }, forward);
  app.get('/api/docs/*', { config: { access: 'public' } }, forward);
});
