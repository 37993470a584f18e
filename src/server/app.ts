import type { Metrics } from './metrics';
import { existsSync, readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from '../shared/zod-setup';
import { requestPoolReady, type Database } from './db/client';
import type { Config } from './env';
import type { Mailer } from './mailer';
import { maskedRequest } from './mask';
import { createJobs, type Jobs, type JobsOptions } from './jobs';
import { registerErrorHandling } from './plugins/errors';
import { requestContext } from './plugins/request-context';
import { apiDocs } from './plugins/api-docs';
import { checkingSerializerCompiler } from './plugins/response-check';
import { projectingSerializerCompiler } from './plugins/response-projection';
import { idempotency } from './plugins/idempotency';
import { securityHeaders } from './plugins/security-headers';
import { registerFeatureRoutes } from './routes';
import { loginMarkup, loginPreloads, myWorkPreloads, withLoginMarkup } from './spa-preloads';
import { inlineScriptSources } from './inline-scripts';
import { subdomainOf } from '../shared/subdomain';
import { errorAnswerSchema } from '../shared/pagination';
import { openStorage, signUploadUrls, uploadSigner, type Storage } from './uploads/storage';
import { requestIdGenerator } from './request-id';

export interface AppDeps {
  database: Database;
  config: Config;
  mailer?: Mailer;
  /** The background jobs (decision 027); made here when not given, with these options. */
  jobs?: Jobs;
  jobOptions?: JobsOptions;
  storage?: Storage;
  /** Folder of the built SPA; served with a fallback to index.html when present. */
  webRoot?: string;
  logger?: boolean | object;
  /** Tests: a response schema that would drop or change part of an answer fails the request (plugins/response-check.ts). */
  checkResponses?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: { database: Database; config: Config; mailer: Mailer; storage: Storage; jobs: Jobs };
  }
}

/** Builds the whole HTTP application; main.ts only reads the environment and listens. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // X-Forwarded-For counts only from the proxies TRUST_PROXY names (decision 022). A hop count is written as
  // the function Fastify would build from it (its types lack the number form).
  const trusted = deps.config.trustProxy;
  const app = Fastify({
    // Tokens in request URLs are masked in the log (decision 022); a caller's logger options (tests) keep that.
    logger:
      deps.logger === undefined || typeof deps.logger === 'object'
        ? { level: deps.config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'], serializers: { req: maskedRequest }, ...deps.logger }
        : deps.logger,
    bodyLimit: 1024 * 1024,
    trustProxy: typeof trusted === 'number' ? (_address: string, hop: number) => hop < trusted : trusted,
    // Ours, or a trusted proxy's X-Request-Id (decision 067); returned on every answer (the onSend hook below).
    genReqId: requestIdGenerator(trusted),
    requestIdHeader: false,
    return503OnClosing: true,
    // The job queue's start waits for the database (its schema, a migration lock held by another instance):
    // Fastify's 10 s default failed starts on a loaded machine; slow is better than down.
    pluginTimeout: 60_000,
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(deps.checkResponses ? checkingSerializerCompiler : projectingSerializerCompiler);
  registerErrorHandling(app);
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-request-id', req.id);
    done(null, payload);
  });

  // Prometheus metrics on a listener of their own when METRICS_PORT is set (decision 067); prom-client loads only then.
  const metrics = deps.config.metricsPort ? (await import('./metrics')).createMetrics() : undefined;
  const jobs = deps.jobs ?? createJobs(deps.database, deps.config, app.log, { ...metrics?.jobHooks, ...deps.jobOptions });
  const mailer = deps.mailer ?? jobs.mailer;
  // Uploaded files: the folder, or the S3 bucket shared by every instance (decision 061). Made here, closed here.
  const storage =
    deps.storage ??
    (await openStorage(deps.config).catch((err: Error & { bucket?: string; endpoint?: string; reason?: string }) => {
      // One clear line: which bucket, where, and why (missing, refused, unreachable); the start then fails.
      app.log.fatal({ bucket: err.bucket, endpoint: err.endpoint, reason: err.reason ?? err.message }, `uploads storage unavailable: ${err.message}`);
      throw err;
    }));
  if (!deps.storage) app.addHook('onClose', () => storage.close());
  app.decorate('deps', { database: deps.database, config: deps.config, mailer, storage, jobs });
  // The queue starts when the app is ready (main.ts: after the migrations) and stops, its running jobs
  // finished, before the database closes.
  app.addHook('onReady', () => jobs.start());
  app.addHook('onClose', () => jobs.stop());
  if (metrics && deps.config.metricsPort) {
    metrics.watch(app, { database: deps.database, queue: () => jobs.queue, log: app.log });
    await serveMetricsPort(app, metrics, deps.config.metricsPort, deps.config.metricsHost);
  }

  const webRoot = deps.webRoot;
  const webIndex = webRoot && existsSync(join(webRoot, 'index.html')) ? readFileSync(join(webRoot, 'index.html'), 'utf8') : null;
  await app.register(securityHeaders, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // and the inline scripts of our own index.html, by their hashes (the theme script in <head>, decision 050)
        scriptSrc: ["'self'", ...(webIndex ? inlineScriptSources(webIndex) : [])],
        // Mantine sets style attributes at run time; scripts stay strictly same-origin.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: deps.config.production,
  });
  await app.register(cookie);
  // Bounds on everything a multipart body can carry; going over one is a 413 (plugins/errors.ts), never a 500.
  await app.register(multipart, {
    limits: { fileSize: 10 * 1024 * 1024, files: 10, fields: 20, parts: 30, fieldNameSize: 100, fieldSize: 64 * 1024, headerPairs: 100 },
  });
  await app.register(apiDocs);
  await app.register(requestContext, {
    db: deps.database.db,
    baseDomain: deps.config.baseDomain,
    jwtSecret: deps.config.jwtSecret,
  });

  await app.register(idempotency, { db: deps.database.db });
  // Upload URLs leave signed for the caller's organisation and come back unsigned (decision 024).
  const signer = uploadSigner(deps.config.jwtSecret);
  signUploadUrls(app, signer);

  registerProbes(app, deps.database, jobs);

  await registerFeatureRoutes(app);
  await app.register(storage.routes(signer), { prefix: '/uploads' });

  if (webRoot && webIndex !== null) await serveWebApp(app, webRoot, webIndex, deps.config.baseDomain);
  return app;
}

/** /api/health (the process answers) and /api/ready (it can serve: the request pool and the job queue). */
function registerProbes(app: FastifyInstance, database: Database, jobs: Jobs) {
  const status = z.object({ status: z.string() });
  app.get('/api/health', { schema: { response: { 200: status } }, config: { access: 'public' } }, async () => ({ status: 'ok' }));
  const notReady = errorAnswerSchema.extend({ requestId: z.string().optional() });
  app.get('/api/ready', { schema: { response: { 200: status, 503: notReady } }, config: { access: 'public' } }, async (req, reply) => {
    // What a request needs: the request pool answers a scope (the runtime role, through the pooler if any), and
    // the job queue has started (mail, webhooks and other jobs sent by requests are run).
    try {
      await requestPoolReady(database.db);
    } catch (err) {
      app.log.warn({ err }, 'not ready: the request pool does not answer');
      return reply.status(503).send({ error: 'Database unavailable', requestId: req.id });
    }
    if (jobs.ready && !jobs.ready()) return reply.status(503).send({ error: 'Job queue not started', requestId: req.id });
    return { status: 'ready' };
  });
}

/** Prometheus metrics on a listener of their own (METRICS_PORT, decision 067), opened when the app is ready. */
async function serveMetricsPort(app: FastifyInstance, metrics: Metrics, metricsPort: number, metricsHost: string) {
  const { serveMetrics } = await import('./metrics');
  let server: import('node:http').Server | undefined;
  app.addHook('onReady', async () => {
    server = await serveMetrics(metrics.registry, metricsPort, metricsHost);
    app.log.info({ port: metricsPort, host: metricsHost }, 'metrics served on their own port');
  });
  app.addHook('onClose', (_app, done) => {
    if (!server) return done();
    server.closeAllConnections();
    server.close(() => done());
  });
}

/** The built SPA: assets (pre-compressed, cached a year when hashed), index.html, the login page and the portal. */
async function serveWebApp(app: FastifyInstance, webRoot: string, webIndex: string, baseDomain: string) {
  // The build writes .br and .gz files next to the text assets (vite.config.ts): sent as they are to
  // browsers that accept them. Hashed /assets/* are cached for a year; index.html is revalidated.
  // `serve: false`: the handler below serves every file. Left to serve, the plugin made a route per file
  // found at start, with its default max-age=0, and the year-long cache of /assets never applied.
  await app.register(fastifyStatic, { root: webRoot, serve: false, index: false, preCompressed: true });
  // The browser cannot tell `acme.cmms.example.com` (an organisation) from `cmms.example.com` (the bare
  // domain) by counting labels: the page says which domain is the base (src/web/lib/org-host.ts).
  const indexHtml = webIndex.replace('<head>', `<head>\n    <meta name="base-domain" content="${baseDomain.replace(/[^a-z0-9.-]/g, '')}" />`);
  // An organisation's /login: the same page, fetching the login screen's own files with the entry (issue 29),
  // with the form's static HTML (rendered by the build) in #root: it paints before any script has run, and the
  // lean boot takes it over (decision 050). The login page names no organisation, so it is the same on every host.
  const loginHtml = withLoginMarkup(indexHtml.replace('</head>', `    ${loginPreloads(webRoot, indexHtml)}\n  </head>`), loginMarkup(webRoot));
  const myWorkHtml = indexHtml.replace('</head>', `    ${myWorkPreloads(webRoot, indexHtml)}\n  </head>`);
  // The public request portal is a page of its own (decision 039): /r/<code>, /portal, /portal/status/<token>.
  const portalHtml = existsSync(join(webRoot, 'portal.html')) ? readFileSync(join(webRoot, 'portal.html'), 'utf8') : null;
  app.get('/*', { config: { access: 'public' } }, (req, reply) => {
    const path = req.url.split('?')[0];
    // /metrics is served on METRICS_PORT only (decision 067): here a plain 404, not the SPA's page.
    if (path.startsWith('/api/') || path === '/metrics') return reply.status(404).send({ error: 'Not found' });
    if (portalHtml && /^\/(r\/|portal(\/|$))/.test(path))
      return reply.header('vary', 'accept-encoding').header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(portalHtml);
    reply.header('vary', 'accept-encoding');
    // The service worker and the manifest are revalidated on every fetch: a new version is seen at once
    // (the worker's precache holds the hashed assets; decision 041).
    if (path === '/sw.js' || path === '/manifest.webmanifest') {
      return reply.header('cache-control', 'no-cache').sendFile(path.slice(1), { cacheControl: false });
    }
    if (/\.[a-z0-9]+$/i.test(path) && path !== '/index.html') {
      return reply.sendFile(path.slice(1), { maxAge: path.startsWith('/assets/') ? '365d' : 0, immutable: path.startsWith('/assets/') });
    }
    const page = path.replace(/\/+$/, '');
    const login = page === '/login' && subdomainOf(req.headers.host, baseDomain);
    return reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(login ? loginHtml : page === '/dashboard/my-work' ? myWorkHtml : indexHtml);
  });
}

/**
 * A request the HTTP parser could not finish, e.g. a body cut short by a client that closed its side: our
 * `{ error }` as every other answer (Fastify's default adds `message` and `statusCode`), then the socket closes.
 */
function answerClientError(err: Error & { code?: string }, socket: Duplex) {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, error] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request timed out']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request headers are too large']
        : err.code === 'HPE_INVALID_EOF_STATE'
          ? [400, 'Request body ended early']
          : [400, 'Malformed request'];
  const body = JSON.stringify({ error });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
