import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createOrg, createTestApp, type TestApp, type TestOrg } from '../../server/test/harness';
import { withTenant } from '../../server/db/client';
import { users } from '../../server/db/schema';
import { masterRows } from '../assets/test-fixtures';
import { pdfText } from '../commercial-documents/document-pdf.service';

// The printable count sheet per storeroom (decision 081 addendum).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function sheet(org: TestOrg, token: string | undefined, locationId: number) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/stock/get-count-sheet/${locationId}`,
    headers: { host: org.host, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return res;
}

async function setup(name: string) {
  const org = await createOrg(t, name);
  const m = await masterRows(t, org.orgId, 'C');
  const part = async (partName: string, skuCode: string, openingStock: number) => {
    const res = await org.admin.post('/api/parts/add-part', {
      name: partName,
      skuCode,
      type: 'stockable',
      categoryId: m.productCategory.id,
      salesPrice: 4,
      unitOfMeasureId: m.each.id,
      purchaseUnitOfMeasureId: m.each.id,
      quantityOnHand: openingStock,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.part as { id: number };
  };
  const main = async () => (await org.admin.get('/api/stock/get-locations')).body.locations[0] as { id: number; name: string };
  return { org, part, main };
}

describe('count sheet', () => {
  it('prints the parts at a storeroom with bin and expected quantity, a blank Counted column, in English and Arabic', async () => {
    const { org, part, ...s } = await setup('Sheet');
    const seal = await part('Seal kit', 'SK-1', 7);
    const belt = await part('حزام المروحة', 'BLT-2', 3);
    const main = await s.main();
    expect((await org.admin.put('/api/stock/update-stock-level', { partId: seal.id, locationId: main.id, bin: 'A-01' })).status).toBe(200);
    const van = await org.admin.post('/api/stock/add-location', { name: 'Van 1', kind: 'van' });
    const vanId = (van.body.locations as { id: number; name: string }[]).find((l) => l.name === 'Van 1')!.id;
    expect((await org.admin.post('/api/stock/transfer-stock', { partId: belt.id, fromLocationId: main.id, toLocationId: vanId, quantity: 1 })).status).toBe(
      200,
    );

    const worker = await org.as('worker');
    const res = await sheet(org, worker.token, main.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = pdfText(res.rawPayload);
    const lines = text.split('\n');
    for (const words of ['Count sheet', 'Storeroom: Main store', 'Part', 'SKU', 'Bin', 'Expected', 'Counted', 'Seal kit', 'SK-1', 'A-01', 'BLT-2']) {
      expect(lines, words).toContain(words);
    }
    // expected: 7 seal kits, 2 belts (one went to the van); the Counted column is blank (no number after Expected)
    expect(lines[lines.indexOf('A-01') + 1]).toBe('7');
    expect(lines[lines.indexOf('BLT-2') + 1]).toBe('2');
    expect(lines[lines.indexOf('A-01') + 2]).not.toMatch(/^\d/);
    // the van's sheet holds the belt only
    const vanText = pdfText((await sheet(org, worker.token, vanId)).rawPayload).split('\n');
    expect(vanText).toContain('Storeroom: Van 1');
    expect(vanText).not.toContain('SK-1');
    expect(vanText[vanText.indexOf('BLT-2') + 1]).toBe('1');

    // in the reader's language
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .update(users)
        .set({ language: 'ar' })
        .where(and(eq(users.orgId, org.orgId), eq(users.id, worker.userId))),
    );
    const reversed = (s: string) => [...s].reverse().join('');
    const arabic = pdfText((await sheet(org, worker.token, main.id)).rawPayload).split('\n');
    expect(arabic).toContain(reversed('ورقة الجرد'));
    expect(arabic).toContain(reversed('المعدود'));
    expect(arabic).toContain('SK-1');
  });

  it('another organisation gets 404; no token gets 401', async () => {
    const a = await setup('SheetA');
    const b = await setup('SheetB');
    await a.part('Seal kit', 'SK-1', 1);
    const mainA = await a.main();
    expect((await sheet(b.org, b.org.admin.token, mainA.id)).statusCode).toBe(404);
    expect((await sheet(a.org, undefined, mainA.id)).statusCode).toBe(401);
  });
});
