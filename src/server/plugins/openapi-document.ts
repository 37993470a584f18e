import { z } from '../../shared/zod-setup';
import { WEBHOOK_EVENTS } from '../../features/webhooks/webhooks.schema';
import { WEBHOOK_EVENT_DATA, WEBHOOK_SIGNATURE_HEADERS, webhookEnvelopeSchema } from '../../features/webhooks/webhook-events.schema';

/**
 * The finishing pass over the generated OpenAPI document (issue 45): what a client generator and a linter
 * (Redocly's `recommended` rules) need and the route schemas cannot say. Each operation gets an operationId and a
 * summary derived from its path (unless the route sets its own), the bearer security scheme (public routes none),
 * and the refusals that apply (400/401/403/404, `{ error, issues? }`). Two shapes @fastify/swagger prints badly are
 * repaired: a `nullable` without a type, and a querystring that is a record (one `filters` object parameter).
 */

type Json = Record<string, unknown>;
/** Who may call a route, by `METHOD /openapi/{path}`: 'public' or the roles. */
export type AccessOf = (method: string, path: string) => 'public' | readonly string[] | undefined;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const camel = (words: string[]) =>
  words
    .flatMap((w) => w.split(/[-_\s]+/))
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1)))
    .join('');
const human = (words: string[]) => {
  const text = words
    .flatMap((w) => w.split(/[-_]+/))
    .flatMap((w) => w.split(/(?=[A-Z][a-z])/))
    .filter(Boolean)
    .join(' ')
    .toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
};

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const REFUSALS: Record<string, string> = {
  '400': 'The request is invalid: `error` says why, `issues` names each field',
  '401': 'No valid token or API key',
  '403': 'The caller is not allowed (role, read-only key, or a route closed to keys)',
  '404': 'Not found in the organisation',
};

export const API_DESCRIPTION = `The CMMS API. Every path is on the organisation's own host (\`https://<subdomain>.<base domain>\`).

## Authentication
Send \`Authorization: Bearer <token>\`: a session's access token (\`POST /api/login\`) or an **API key**. An admin creates
keys under Settings > API keys (or \`POST /api/api-keys/add-api-key\`) with a role (read-only, worker, manager) and an
expiry; the key (\`cmms_live_…\`) is shown once. A key acts as its creator, its role capped by the creator's; a
read-only key is refused (403) on every method but GET. Admin routes (keys, webhooks) refuse keys.

## Idempotency-Key
A POST may carry \`Idempotency-Key: <unique string>\` (8 to 128 letters, digits, dashes or underscores). The first answer is stored with the write;
the same key and body again get the stored answer instead of a second write; the same key with another body is 422.
Use it to retry a create safely after a network failure.

## Errors
Every refusal is \`{ "error": "<message>", "issues": [{ "path": "<field>", "message": "<message>" }] }\` (\`issues\` on
validation errors only).

## Webhooks
An admin registers endpoints (\`POST /api/webhooks/add-webhook\`); each event is POSTed as JSON
\`{ "type": "<event>", "timestamp": "<ISO time>", "data": { … } }\`, signed as Standard Webhooks: headers
\`webhook-id\` (the delivery's message id, the same on every retry: your idempotency key), \`webhook-timestamp\`
(Unix seconds) and \`webhook-signature\` (\`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">\` keyed with the
base64 part of the endpoint's \`whsec_\` secret). The secret is shown once, when the endpoint is created or its
secret rotated (\`POST /api/webhooks/rotate-webhook-secret/{id}\`). Failures are retried with back-off for 24 hours.

Events and their \`data\`:
- \`work-order.created\`: the work order as \`GET /api/work-orders/get-work-order/{id}\` shows it (\`workOrderId\` is its
  number, \`priority\`, \`assignees\`, \`updatedAt\`…); \`source\` when a plan made it.
- \`work-order.updated\`: the work order, and \`changes\` (\`{ <field>: { from, to } }\`).
- \`work-order.assigned\`: the work order, \`added\` and \`removed\` (user ids).
- \`work-order.status-changed\`: the work order, \`from\` and \`to\`. \`work-order.completed\`: the work order.
- \`maintenance-request.created\`: the request as \`GET /api/maintenance-requests/get-maintenance-request/{id}\` shows it;
  \`maintenance-request.updated\`: the same and \`changes\`.
- \`work-order-share.created\`, \`work-order-share.revoked\`: the share as \`GET /api/shared-work-orders/get-share/{id}\`
  shows it; \`work-order-share.contractor-updated\`: the same and \`change\` (what the contractor did).
- \`part.stock-below-minimum\`: \`{ id, name, quantityOnHand, minimumQuantity }\`.
- \`quotation.accepted\`, \`purchase-order.confirmed\`: \`{ id, number, partyName, totalMinorUnits, currency, status }\`.
- \`asset.down\`, \`asset.up\`: \`{ id, assetId, name, state, reason, at, workOrderId, maintenanceRequestId, cascadedAssetIds }\` (decision 079).
- \`request.received\`: the portal request.
- \`stock.received\`: \`{ purchaseOrderId, number, vendorId, location, receivingStatus, lines }\` (a receipt).
- \`stock.below-reorder-point\`: \`{ partId, name, location, available, onOrder, reorderPoint, ordered, purchaseOrderId }\` (a reorder draft).

All events: ${WEBHOOK_EVENTS.map((e) => `\`${e}\``).join(', ')}.`;

function isSchemaWithoutType(s: Json) {
  return !('type' in s) && !('$ref' in s) && !('allOf' in s) && !('anyOf' in s) && !('oneOf' in s);
}

/** A `nullable` beside no type says nothing (any value is allowed already) and is invalid OpenAPI 3.0. */
function repairNullable(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(repairNullable);
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  if (o.nullable === true && isSchemaWithoutType(o)) delete o.nullable;
  for (const v of Object.values(o)) repairNullable(v);
}

/**
 * OpenAPI 3.0.3: `nullable` does not add null to an `enum`, which must list it (Ajv and generators read it so): a
 * nullable choice (`z.enum([...]).nullable()`) lists null among its values.
 */
function nullInNullableEnums(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(nullInNullableEnums);
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  if (o.nullable === true && Array.isArray(o.enum) && !o.enum.includes(null)) o.enum = [...o.enum, null];
  for (const v of Object.values(o)) nullInNullableEnums(v);
}

/** A record querystring (`z.record`) comes out as parameters named `type` and `additionalProperties`. */
function repairRecordQuery(op: Json) {
  const params = (op.parameters ?? []) as Json[];
  const extra = params.find((p) => p.in === 'query' && p.name === 'additionalProperties');
  if (!extra || !params.some((p) => p.in === 'query' && p.name === 'type' && typeof p.schema === 'string')) return;
  op.parameters = [
    ...params.filter((p) => !(p.in === 'query' && (p.name === 'type' || p.name === 'additionalProperties'))),
    {
      name: 'filters',
      in: 'query',
      style: 'form',
      explode: true,
      description: "The list's filters, as its screen sends them",
      schema: { type: 'object', additionalProperties: extra.schema },
    },
  ];
}

/** `work-order.status-changed` -> `WorkOrderStatusChanged`. */
const pascal = (event: string) =>
  event
    .split(/[-.]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/**
 * The webhook events as OpenAPI describes requests we send (issue 45, decision 060): the document is OpenAPI 3.0,
 * which has no `webhooks` object (3.1), so they go under `x-webhooks` (Redoc's extension, the same shape: a path
 * item per event whose POST is the delivery), with each payload's schema in `components.schemas` and the
 * Standard Webhooks signature headers as header parameters.
 */
function webhookItems(schemas: Json): Json {
  const items: Json = {};
  for (const event of WEBHOOK_EVENTS) {
    const { summary, data } = WEBHOOK_EVENT_DATA[event];
    const name = `${pascal(event)}Event`;
    schemas[name] = z.toJSONSchema(webhookEnvelopeSchema(event, data), { target: 'openapi-3.0', io: 'output', unrepresentable: 'any' });
    delete (schemas[name] as Json).$schema;
    nullInNullableEnums(schemas[name]);
    items[event] = {
      post: {
        operationId: `webhook${pascal(event)}`,
        summary,
        description: `POSTed to every endpoint subscribed to \`${event}\` (\`POST /api/webhooks/add-webhook\`), signed; failures are retried with back-off for 24 hours.`,
        tags: ['Webhooks'],
        security: [],
        parameters: WEBHOOK_SIGNATURE_HEADERS.map((h) => ({
          name: h.name,
          in: 'header',
          required: true,
          description: h.description,
          schema: { type: 'string' },
        })),
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
        responses: {
          '200': { description: 'Received: any 2xx answer ends the delivery' },
          '400': { description: 'Any other answer (or none within the timeout) is a failure: the delivery is tried again later' },
        },
      },
    };
  }
  return items;
}

export function finishDocument(doc: Json, accessOf: AccessOf): Json {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>;
  const ops: { path: string; method: string; op: Json; words: string[]; feature: string }[] = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const parts = path.split('/').filter((p) => p && p !== 'api');
      const named = parts.filter((p) => !p.startsWith('{'));
      ops.push({ path, method, op, words: named.slice(-1), feature: named.length > 1 ? named[0] : '' });
    }
  }
  // operationId: the last word of the path (get-work-orders -> getWorkOrders); where two share it, the feature first.
  const taken = new Map<string, number>();
  const first = (o: (typeof ops)[number]) => camel(o.words.length ? o.words : [o.method]);
  for (const o of ops) taken.set(first(o), (taken.get(first(o)) ?? 0) + 1);
  const used = new Set(ops.map((o) => o.op.operationId).filter(Boolean));
  for (const o of ops) {
    if (!o.op.operationId) {
      let id = first(o);
      if ((taken.get(id) ?? 0) > 1) id = camel([o.feature, ...o.words]);
      if (used.has(id)) id = camel([o.method, o.feature, ...o.words]);
      for (let n = 2; used.has(id); n++) id = `${camel([o.method, o.feature, ...o.words])}${n}`;
      o.op.operationId = id;
      used.add(id);
    }
    o.op.summary ??= human(o.words.length ? o.words : [o.method, o.feature]);
    repairRecordQuery(o.op);

    const access = accessOf(o.method.toUpperCase(), o.path);
    const isPublic = access === 'public';
    if (isPublic) o.op.security = [];
    const responses = (o.op.responses ??= {}) as Record<string, Json>;
    const params = (o.op.parameters ?? []) as Json[];
    const wanted = [
      ...(o.op.requestBody || params.length ? ['400'] : []),
      ...(isPublic ? [] : ['401', '403']),
      ...(params.some((p) => p.in === 'path') ? ['404'] : []),
    ];
    // every operation answers at least one refusal (a public route without input: a malformed request)
    if (!wanted.length) wanted.push('400');
    for (const status of wanted) {
      if (responses[status]) continue;
      responses[status] = { description: REFUSALS[status], content: { 'application/json': { schema: ERROR_REF } } };
    }
  }
  repairNullable(doc.paths);
  nullInNullableEnums(doc.paths);
  const components = (doc.components ??= {}) as Json;
  components.securitySchemes = {
    ...(components.securitySchemes as Json | undefined),
    bearer: {
      type: 'http',
      scheme: 'bearer',
      description: "A session's access token (POST /api/login) or an API key (`cmms_live_…`, created by an admin under Settings > API keys, shown once).",
    },
  };
  components.schemas = {
    ...(components.schemas as Json | undefined),
    Error: {
      type: 'object',
      properties: {
        error: { type: 'string' },
        issues: {
          type: 'array',
          items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } }, required: ['path', 'message'] },
        },
      },
      required: ['error'],
    },
  };
  doc['x-webhooks'] = webhookItems(components.schemas as Json);
  doc.security = [{ bearer: [] }];
  doc.servers ??= [{ url: '/', description: "The organisation's own host" }];
  const info = (doc.info ??= {}) as Json;
  info.description ??= API_DESCRIPTION;
  return doc;
}
