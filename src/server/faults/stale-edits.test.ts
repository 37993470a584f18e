import { describe, expect, it } from 'vitest';
import { createOrg, useTestApp, type Client } from '../test/harness';
import { catalogue } from '../../features/maintenance-requests/test-fixtures';
import { commercialRows, inDays } from '../../features/commercial-documents/test-fixtures';
import { masterRows } from '../../features/assets/test-fixtures';
import { STALE_EDIT_MESSAGE } from '../../shared/edit-version';
import { correctiveRequest, maintenanceOrder, preventiveRequest } from '../test/fixtures';

/**
 * No silent last-writer-wins (decision 025): two people edit the same record from the same loaded copy; the
 * second save gets 409 with the record as it is now, and the record keeps the first edit. A client that sends
 * no version (an older API client) still saves.
 */
const t = useTestApp();

interface Kind {
  /** The record's name, as its routes spell it (`work order`: /api/work-orders/update-work-order/:id, key workOrder). */
  name: string;
  /** 'version' or 'updatedAt': what the client sends back. */
  field: 'version' | 'updatedAt';
  /** Makes what a record needs and returns its add/update body builder and where the edited title shows. */
  prepare(orgId: number, org: Client): Promise<{ body(title: string): Record<string, unknown>; title(record: Record<string, unknown>): unknown }>;
}

const kinds: Kind[] = [
  {
    name: 'work order',
    field: 'updatedAt',
    prepare: async () => ({ body: (title) => ({ title }), title: (r) => r.title }),
  },
  {
    name: 'maintenance request',
    field: 'version',
    async prepare(orgId) {
      const refs = await catalogue(t, orgId, 'S');
      return { body: (title) => correctiveRequest(refs, { title }), title: (r) => r.title };
    },
  },
  {
    name: 'maintenance order',
    field: 'version',
    async prepare(orgId, org) {
      const refs = await catalogue(t, orgId, 'O');
      const request = await org.post('/api/maintenance-requests/add-maintenance-request', preventiveRequest(refs));
      return { body: (title) => maintenanceOrder(refs, request.body.maintenanceRequest.id, { rootCauseAnalysis: title }), title: (r) => r.rootCauseAnalysis };
    },
  },
  {
    name: 'quotation',
    field: 'updatedAt',
    async prepare(orgId) {
      const r = await commercialRows(t, orgId, 'Q');
      const body = (note: string) => ({
        overview: { customer: r.customer.id, salesPerson: 1, quotationDate: inDays(0), expirationDate: inDays(30), note },
        serviceDetails: [{ serviceId: r.service.id, quantity: 1, price: 120, discount: 0 }],
        partDetails: [],
      });
      return { body, title: (x) => x.note };
    },
  },
  {
    name: 'purchase order',
    field: 'updatedAt',
    async prepare(orgId) {
      const r = await commercialRows(t, orgId, 'P');
      const body = (note: string) => ({
        overview: { vendor: r.vendor.id, requester: 1, purchaseOrderDate: inDays(0), expirationDate: inDays(14), note },
        serviceDetails: [{ serviceId: r.service.id, quantity: 1, unitPrice: 200, discount: 0, taxId: r.purchase5.id }],
        partDetails: [],
      });
      return { body, title: (x) => x.note };
    },
  },
  {
    name: 'asset',
    field: 'version',
    async prepare(orgId) {
      const m = await masterRows(t, orgId, 'X');
      return { body: (name) => ({ name, date: '2024-01-15', assetCategoryId: m.assetCategory.id }), title: (x) => x.name };
    },
  },
  {
    name: 'part',
    field: 'version',
    async prepare(orgId) {
      const m = await masterRows(t, orgId, 'Y');
      const body = (name: string) => ({
        name,
        type: 'stockable',
        categoryId: m.productCategory.id,
        salesPrice: 8.5,
        unitOfMeasureId: m.each.id,
        purchaseUnitOfMeasureId: m.each.id,
      });
      return { body, title: (x) => x.name };
    },
  },
];

/** A new record of the kind: its update and get paths, its key in the answers, its body builder and title. */
async function make(kind: Kind, org: Client, orgId: number) {
  const entity = kind.name.replace(' ', '-');
  const key = entity.replace(/-(\w)/, (_, c: string) => c.toUpperCase());
  const { body, title } = await kind.prepare(orgId, org);
  const added = await org.post(`/api/${entity}s/add-${entity}`, body('First'));
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const id = added.body[key].id;
  return { update: `/api/${entity}s/update-${entity}/${id}`, get: `/api/${entity}s/get-${entity}/${id}`, key, body, title };
}

describe('stale edits get 409 and keep the first edit', () => {
  for (const kind of kinds) {
    it(kind.name, async () => {
      const org = await createOrg(t);
      const rec = await make(kind, org.admin, org.orgId);
      const loaded = (await org.admin.get(rec.get)).body[rec.key];
      expect(loaded[kind.field], 'the record carries its version').toBeDefined();
      const from = { [kind.field]: loaded[kind.field] };

      const first = await org.admin.put(rec.update, { ...rec.body('Edit by Ann'), ...from });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const second = await org.admin.put(rec.update, { ...rec.body('Edit by Bob'), ...from });
      expect(second.status, JSON.stringify(second.body)).toBe(409);
      expect(second.body.error).toBe(STALE_EDIT_MESSAGE);
      expect(rec.title(second.body.current)).toBe('Edit by Ann');
      const now = (await org.admin.get(rec.get)).body[rec.key];
      expect(rec.title(now)).toBe('Edit by Ann');
      expect(now[kind.field]).not.toEqual(loaded[kind.field]);
      expect(second.body.current[kind.field]).toEqual(now[kind.field]);

      // From the current copy the edit saves; without any version (older API clients) too.
      const third = await org.admin.put(rec.update, { ...rec.body('Edit by Bob again'), [kind.field]: now[kind.field] });
      expect(third.status, JSON.stringify(third.body)).toBe(200);
      expect((await org.admin.put(rec.update, rec.body('No version'))).status).toBe(200);

      // Another organisation gets 404, with or without a version, and changes nothing.
      const other = await createOrg(t, 'Other');
      expect((await other.admin.put(rec.update, { ...rec.body('Intruder'), ...from })).status).toBe(404);
      expect(rec.title((await org.admin.get(rec.get)).body[rec.key])).toBe('No version');
    });
  }
});
