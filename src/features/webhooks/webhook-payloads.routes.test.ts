import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Ajv, type ValidateFunction } from 'ajv';
import { createOrg, useTestAppWith, type TestOrg } from '../../server/test/harness';
import { orgRows } from '../../server/test/sql';
import { updatePart } from '../../server/test/builders';
import { withTenant } from '../../server/db/client';
import { portalCodes } from '../../server/db/schema';
import { catalogue } from '../maintenance-requests/test-fixtures';
import { commercialRows, inDays } from '../commercial-documents/test-fixtures';
import { correctiveRequest, until } from '../../server/test/fixtures';
import { WEBHOOK_EVENTS, type WebhookEvent } from './webhooks.schema';
import { startReceiver } from './test-fixtures';

/**
 * Issue 45: every webhook event actually delivered matches the payload the API document promises for it
 * (`x-webhooks`, decision 060). The events are driven through the API, received by a real HTTP server, and each
 * body is validated with Ajv against the served document's schema, with every object that lists its properties
 * read as closed: a field the document does not name fails, as does an event delivered but not documented or
 * documented but never produced.
 */

/** Documented events the drive below does not produce, with the reason. Empty: every event is driven. */
const NOT_DRIVEN: Partial<Record<WebhookEvent, string>> = {};

type Json = Record<string, unknown>;

/** A copy of a schema where every object that names its properties and says nothing more is closed. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = Object.fromEntries(Object.entries(schema as Json).map(([k, v]) => [k, closed(v)]));
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

/** The served document's webhook payload validators, by event. */
function validators(doc: Json): Map<string, ValidateFunction> {
  // The document is OpenAPI 3.0 (`nullable`, `example`…): Ajv's OpenAPI support reads `nullable`; other
  // annotations are ignored (strict off), `date-time` is checked here.
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (s: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)),
  });
  const components = doc.components as { schemas: Json };
  ajv.addSchema({ $id: 'api', components: { schemas: closed(components.schemas) } });
  const hooks = doc['x-webhooks'] as Record<string, { post: { requestBody: { content: { 'application/json': { schema: { $ref: string } } } } } }>;
  const out = new Map<string, ValidateFunction>();
  for (const [event, item] of Object.entries(hooks)) {
    const ref = item.post.requestBody.content['application/json'].schema.$ref;
    const validate = ajv.getSchema(`api${ref}`);
    if (!validate) throw new Error(`${event}: ${ref} does not resolve`);
    out.set(event, validate);
  }
  return out;
}

// The receiver is started before the app and closed after it; this file's webhook is its URL with ?payloads.
const [t, receiver] = useTestAppWith(startReceiver, () => []);
/** The events delivered to this file's webhook, parsed. */
function received() {
  const mine = receiver().received.filter((r) => r.url.endsWith('?payloads'));
  return mine.map((r) => JSON.parse(r.body) as Json).map((body) => ({ type: String(body.type), body }));
}

/** Every event kind, through the API (and the portal's public form), as customers' systems see them. */
async function driveEveryEvent(org: TestOrg) {
  const ok = (res: { status: number; body: unknown }, status: number, what: string) => expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
  const refs = await catalogue(t, org.orgId, 'P');
  const money = await commercialRows(t, org.orgId, 'Q');

  // work orders: created + assigned, updated + assigned, status-changed + completed
  const worker = await org.as('worker', { firstName: 'Wanda' });
  const other = await org.as('worker', { firstName: 'Otto' });
  const wo = await org.admin.post('/api/work-orders/add-work-order', {
    title: 'Payload pump',
    assignees: [worker.userId],
    assetId: refs.asset.id,
    dueDate: inDays(3),
  });
  ok(wo, 201, 'add-work-order');
  const order = wo.body.workOrder;
  const upd = await org.admin.put(`/api/work-orders/update-work-order/${order.id}`, {
    title: 'Payload pump (seal)',
    priority: 'high',
    assignees: [other.userId],
    updatedAt: order.updatedAt,
  });
  ok(upd, 200, 'update-work-order');
  ok(await org.admin.put(`/api/work-orders/update-status/${order.id}`, { status: 'completed' }), 200, 'update-status');
  // work-order.repeat-failure: two orders of the asset closed with the same problem within the window (decision 080)
  const problem = await org.admin.post('/api/failure-codes/add-failure-code', { kind: 'problem', code: 'LEAK', name: 'Leak' });
  ok(problem, 201, 'add-failure-code');
  for (const title of ['Leak 1', 'Leak 2']) {
    const leak = await org.admin.post('/api/work-orders/add-work-order', { title, assetId: refs.asset.id });
    ok(leak, 201, 'add-work-order');
    const closed = await org.admin.put(`/api/work-orders/update-status/${leak.body.workOrder.id}`, {
      status: 'completed',
      problemCodeId: problem.body.failureCode.id,
    });
    ok(closed, 200, 'update-status with a problem code');
  }

  // the plan generator's work-order.created carries its `source` (which plan, which due date)
  const plan = await org.admin.post('/api/pm-plans/add-plan', {
    name: 'Payload plan',
    assetIds: [refs.asset.id],
    title: 'Grease the bearings',
    frequency: 'daily',
    startDate: inDays(0),
  });
  ok(plan, 201, 'add-plan');
  ok(await org.admin.post('/api/pm-plans/run-generator'), 200, 'run-generator');

  // maintenance requests: created, updated (edited and changed state)
  const mr = await org.admin.post('/api/maintenance-requests/add-maintenance-request', correctiveRequest(refs));
  ok(mr, 201, 'add-maintenance-request');
  const mrId = mr.body.maintenanceRequest.id;
  ok(
    await org.admin.put(`/api/maintenance-requests/update-maintenance-request/${mrId}`, correctiveRequest(refs, { title: 'Belt slipping (line 2)' })),
    200,
    'update-maintenance-request',
  );
  ok(await org.admin.put(`/api/maintenance-requests/update-state/${mrId}`, { state: 'approved' }), 200, 'update-state');

  // contractor shares: created, contractor-updated, revoked
  const shared = await org.admin.post('/api/shared-work-orders/create-share', {
    workOrderId: order.id,
    contractorName: 'Coolair Ltd',
    email: 'tech@coolair.example.com',
  });
  ok(shared, 201, 'create-share');
  const token = new URL(shared.body.link).searchParams.get('token')!;
  ok(
    await org.anonymous.post(`/api/shared-work-orders/add-shared-comment?token=${encodeURIComponent(token)}`, { body: 'On site Monday' }),
    201,
    'add-shared-comment',
  );
  ok(await org.admin.put(`/api/shared-work-orders/revoke-share/${shared.body.share.id}`), 200, 'revoke-share');

  // the request portal: request.received (a request from an asset's code)
  ok(
    await org.admin.put('/api/portal/settings', {
      enabled: true,
      nameField: 'optional',
      emailField: 'optional',
      phoneField: 'hidden',
      notifyRequester: false,
      welcome: 'Hello',
      published: [],
    }),
    200,
    'portal settings',
  );
  ok(await org.admin.post('/api/portal/asset-labels', { assetIds: [refs.asset.id], layout: 'single-large' }), 200, 'asset-labels');
  const [code] = await orgRows(t.database.db, org.orgId, portalCodes, eq(portalCodes.targetId, refs.asset.id));
  ok(await org.anonymous.upload('/api/portal/submit-request', [], { code: code.token, description: 'Belt squeals', urgency: 'low' }), 201, 'submit-request');

  // a part's stock falling below its minimum (the minimum set as its form would)
  await withTenant(t.database.db, org.orgId, (tx) => updatePart(tx, org.orgId, refs.part.id, { minimumQuantity: 3 }));
  // Stock comes in through the ledger (decision 071), then falls below the minimum.
  ok(await org.admin.post(`/api/parts/adjust-stock/${refs.part.id}`, { quantity: 5, reason: 'Received' }), 200, 'adjust-stock in');
  ok(await org.admin.post(`/api/parts/adjust-stock/${refs.part.id}`, { quantity: -3, reason: 'Used' }), 200, 'adjust-stock');

  // a quotation accepted (sales order) and a purchase order confirmed
  const q = await org.admin.post('/api/quotations/add-quotation', {
    overview: { customer: money.customer.id, salesPerson: 1, quotationDate: inDays(0), expirationDate: inDays(30) },
    serviceDetails: [{ serviceId: money.service.id, quantity: 2, price: 120, discount: 0, taxId: money.vat10.id }],
    partDetails: [],
  });
  ok(q, 201, 'add-quotation');
  ok(await org.admin.put(`/api/quotations/update-quotation-status/${q.body.quotation.id}`, { status: 'salesOrder' }), 200, 'quotation status');
  const po = await org.admin.post('/api/purchase-orders/add-purchase-order', {
    overview: { vendor: money.vendor.id, requester: 1, purchaseOrderDate: inDays(0) },
    serviceDetails: [],
    partDetails: [{ partId: money.part.id, quantity: 2, unitPrice: 9.99, discount: 0, taxId: money.purchase5.id }],
  });
  ok(po, 201, 'add-purchase-order');
  ok(
    await org.admin.put(`/api/purchase-orders/update-purchase-order-status/${po.body.purchaseOrder.id}`, { status: 'purchaseOrder' }),
    200,
    'purchase order status',
  );
  // an asset goes down and comes back up (decision 079)
  ok(await org.admin.post(`/api/assets/set-asset-state/${refs.asset.id}`, { state: 'down', reason: 'Jam' }), 200, 'asset down');
  ok(await org.admin.post(`/api/assets/set-asset-state/${refs.asset.id}`, { state: 'running' }), 200, 'asset up');
  // stock received from that order, then a reorder draft for a level below its reorder point (decision 081)
  const store = (await org.admin.get('/api/stock/get-location-options')).body[0].value as number;
  ok(
    await org.admin.post(`/api/stock/receive-purchase-order/${po.body.purchaseOrder.id}`, {
      locationId: store,
      lines: [{ partId: money.part.id, quantity: 1 }],
    }),
    200,
    'receive-purchase-order',
  );
  ok(await org.admin.put('/api/stock/update-part-stock-settings', { partId: money.part.id, preferredVendorId: money.vendor.id }), 200, 'preferred vendor');
  ok(
    await org.admin.put('/api/stock/update-stock-level', { partId: money.part.id, locationId: store, reorderPoint: 10, reorderQuantity: 5 }),
    200,
    'reorder point',
  );
  ok(await org.admin.post('/api/stock/draft-reorders'), 200, 'draft-reorders');
}

describe('webhook payloads and the API document', () => {
  it('every delivered event is documented, matches its documented schema field for field, and every documented event is delivered', async () => {
    const docRes = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docRes.statusCode).toBe(200);
    const doc = docRes.json() as Json;
    const check = validators(doc);
    const documented = [...check.keys()].sort();

    const org = await createOrg(t, 'Payloads');
    const hook = await org.admin.post('/api/webhooks/add-webhook', { url: `${receiver().url}?payloads`, events: [...WEBHOOK_EVENTS] });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    await driveEveryEvent(org);

    const wanted = [...new Set<string>([...documented, ...WEBHOOK_EVENTS])].filter((e) => !(e in NOT_DRIVEN));
    const seen = () => new Set(received().map((r) => r.type));
    const planOrderSeen = () => received().some((r) => r.type === 'work-order.created' && (r.body.data as Json).source !== undefined);
    await until(() => wanted.every((e) => seen().has(e)) && planOrderSeen(), 45_000).catch(() => undefined);
    // the queue may still be sending a second delivery of a kind already seen
    await new Promise((r) => setTimeout(r, 1500));

    const problems: string[] = [];
    // the document and the events an endpoint may subscribe to are the same list
    for (const event of WEBHOOK_EVENTS) if (!check.has(event)) problems.push(`${event}: an endpoint may subscribe to it, the document does not describe it`);
    for (const event of documented)
      if (!(WEBHOOK_EVENTS as readonly string[]).includes(event)) problems.push(`${event}: documented, no endpoint can subscribe to it`);
    for (const { type, body } of received()) {
      const validate = check.get(type);
      if (!validate) {
        problems.push(`${type}: delivered but not documented`);
        continue;
      }
      if (!validate(body))
        problems.push(
          `${type}: ${(validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`).join('; ')}`,
        );
    }
    for (const event of wanted) if (!seen().has(event)) problems.push(`${event}: never delivered by the drive`);
    const fromPlan = received().find((r) => r.type === 'work-order.created' && (r.body.data as Json).source !== undefined);
    if (!planOrderSeen() || !fromPlan) problems.push("work-order.created: the plan generator's order (with its source) was never delivered");
    else expect(String((fromPlan.body.data as Json).source)).toContain('Payload plan');
    expect(problems).toEqual([]);
    // each kind the drive makes was delivered (created and assigned twice, updated three times)
    expect(received().length).toBeGreaterThanOrEqual(wanted.length);
    // (longer than the wait for a missing event: the list of problems is what fails)
  }, 120_000);
});
