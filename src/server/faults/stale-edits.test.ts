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
  name: string;
  /** Creates a record and returns its update path, get path, item key and an update body builder. */
  make(
    org: Client,
    orgId: number,
  ): Promise<{ update: string; get: string; key: string; body(title: string): Record<string, unknown>; title(record: Record<string, unknown>): unknown }>;
  /** 'version' or 'updatedAt': what the client sends back. */
  field: 'version' | 'updatedAt';
}

const kinds: Kind[] = [
  {
    name: 'work order',
    field: 'updatedAt',
    async make(org) {
      const res = await org.post('/api/work-orders/add-work-order', { title: 'Replace belt' });
      const id = res.body.workOrder.id;
      return {
        update: `/api/work-orders/update-work-order/${id}`,
        get: `/api/work-orders/get-work-order/${id}`,
        key: 'workOrder',
        body: (title) => ({ title }),
        title: (r) => r.title,
      };
    },
  },
  {
    name: 'maintenance request',
    field: 'version',
    async make(org, orgId) {
      const refs = await catalogue(t, orgId, 'S');
      const body = (title: string) => correctiveRequest(refs, { title });
      const res = await org.post('/api/maintenance-requests/add-maintenance-request', body('Pump noise'));
      const id = res.body.maintenanceRequest.id;
      return {
        update: `/api/maintenance-requests/update-maintenance-request/${id}`,
        get: `/api/maintenance-requests/get-maintenance-request/${id}`,
        key: 'maintenanceRequest',
        body,
        title: (r) => r.title,
      };
    },
  },
  {
    name: 'maintenance order',
    field: 'version',
    async make(org, orgId) {
      const refs = await catalogue(t, orgId, 'O');
      const request = await org.post('/api/maintenance-requests/add-maintenance-request', preventiveRequest(refs));
      const body = (title: string) => maintenanceOrder(refs, request.body.maintenanceRequest.id, { rootCauseAnalysis: title });
      const res = await org.post('/api/maintenance-orders/add-maintenance-order', body('Wear'));
      const id = res.body.maintenanceOrder.id;
      return {
        update: `/api/maintenance-orders/update-maintenance-order/${id}`,
        get: `/api/maintenance-orders/get-maintenance-order/${id}`,
        key: 'maintenanceOrder',
        body,
        title: (r) => r.rootCauseAnalysis,
      };
    },
  },
  {
    name: 'quotation',
    field: 'updatedAt',
    async make(org, orgId) {
      const r = await commercialRows(t, orgId, 'Q');
      const body = (note: string) => ({
        overview: { customer: r.customer.id, salesPerson: 1, quotationDate: inDays(0), expirationDate: inDays(30), note },
        serviceDetails: [{ serviceId: r.service.id, quantity: 1, price: 120, discount: 0 }],
        partDetails: [],
      });
      const res = await org.post('/api/quotations/add-quotation', body('First'));
      const id = res.body.quotation.id;
      return { update: `/api/quotations/update-quotation/${id}`, get: `/api/quotations/get-quotation/${id}`, key: 'quotation', body, title: (x) => x.note };
    },
  },
  {
    name: 'purchase order',
    field: 'updatedAt',
    async make(org, orgId) {
      const r = await commercialRows(t, orgId, 'P');
      const body = (note: string) => ({
        overview: { vendor: r.vendor.id, requester: 1, purchaseOrderDate: inDays(0), expirationDate: inDays(14), note },
        serviceDetails: [{ serviceId: r.service.id, quantity: 1, unitPrice: 200, discount: 0, taxId: r.purchase5.id }],
        partDetails: [],
      });
      const res = await org.post('/api/purchase-orders/add-purchase-order', body('First'));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const id = res.body.purchaseOrder.id;
      return {
        update: `/api/purchase-orders/update-purchase-order/${id}`,
        get: `/api/purchase-orders/get-purchase-order/${id}`,
        key: 'purchaseOrder',
        body,
        title: (x) => x.note,
      };
    },
  },
  {
    name: 'asset',
    field: 'version',
    async make(org, orgId) {
      const m = await masterRows(t, orgId, 'X');
      const body = (name: string) => ({ name, date: '2024-01-15', assetCategoryId: m.assetCategory.id });
      const res = await org.post('/api/assets/add-asset', body('Boiler pump'));
      const id = res.body.asset.id;
      return { update: `/api/assets/update-asset/${id}`, get: `/api/assets/get-asset/${id}`, key: 'asset', body, title: (x) => x.name };
    },
  },
  {
    name: 'part',
    field: 'version',
    async make(org, orgId) {
      const m = await masterRows(t, orgId, 'Y');
      const body = (name: string) => ({
        name,
        type: 'stockable',
        categoryId: m.productCategory.id,
        salesPrice: 8.5,
        unitOfMeasureId: m.each.id,
        purchaseUnitOfMeasureId: m.each.id,
      });
      const res = await org.post('/api/parts/add-part', body('Bearing'));
      const id = res.body.part.id;
      return { update: `/api/parts/update-part/${id}`, get: `/api/parts/get-part/${id}`, key: 'part', body, title: (x) => x.name };
    },
  },
];

describe('stale edits get 409 and keep the first edit', () => {
  for (const kind of kinds) {
    it(kind.name, async () => {
      const org = await createOrg(t);
      const rec = await kind.make(org.admin, org.orgId);
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
