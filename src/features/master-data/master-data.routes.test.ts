import { beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../server/db/client';
import { assets, parts, taxes, workOrderLabors, workOrders } from '../../server/db/schema';
import { createOrg, useTestApp, type Client, type TestOrg } from '../../server/test/harness';

const t = useTestApp();

/** A refused write: 400 with this error message. */
function expectRefused(res: { status: number; body: { error?: string } }, error: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error).toBe(error);
}

const messages = (res: { body: { issues?: { path: string; message: string }[] } }) => (res.body.issues ?? []).map((i) => `${i.path}: ${i.message}`);

const camel = (slug: string) => slug.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
/** A list's routes under /api/<slug> (get-<slug>, add-/update-/delete-<one>) and its response keys, camel-cased. */
const api = (slug: string, one: string) => ({
  base: `/api/${slug}`,
  list: `get-${slug}`,
  add: `add-${one}`,
  update: `update-${one}`,
  del: `delete-${one}`,
  plural: camel(slug),
  single: camel(one),
});

/** Every simple master-data list with a valid body, a second valid body and its response keys. */
const simple: (ReturnType<typeof api> & {
  name: string;
  updated?: string;
  body: Record<string, unknown> & { name: string };
  body2: Record<string, unknown> & { name: string };
})[] = [
  { name: 'product categories', ...api('product-categories', 'product-category'), body: { name: 'Bearings' }, body2: { name: 'Hydraulics' } },
  {
    name: 'taxes',
    ...api('taxes', 'tax'),
    body: { name: 'Sales Tax 7%', scope: 'sales', taxComputation: 'percentage_of_price', amount: 7, isPriceIncluded: false },
    body2: { name: 'Eco Fee', scope: 'sales', taxComputation: 'fixed', amount: 2.5, isPriceIncluded: true },
  },
  {
    name: 'UOM categories',
    ...api('uom-categories', 'uom-category'),
    single: 'addedUomCategory',
    updated: 'category',
    body: { name: 'Weight' },
    body2: { name: 'Length' },
  },
  {
    name: 'asset categories',
    ...api('asset-categories', 'asset-category'),
    body: { name: 'HVAC Equipment', code: 'HVAC' },
    body2: { name: 'Pumps', shortCode: 'PMP' },
  },
  {
    name: 'time tracking reasons',
    ...api('time-tracking-reasons', 'time-tracking-reason'),
    body: { name: 'Waiting for Parts', type: 'availability', is_blocking_reason: true },
    body2: { name: 'Repair Work', type: 'productivity', isBlockingReason: 'no' },
  },
];

describe.each(simple)('$name', (e) => {
  it('adds (201, record under the singular key, refreshed list), lists, updates and deletes', async () => {
    const org = await createOrg(t);
    const added = await org.admin.post(`${e.base}/${e.add}?pageSize=10`, e.body);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.message).toMatch(/added successfully/);
    const record = added.body[e.single];
    expect(record.id).toBeGreaterThan(0);
    expect(record.name).toBe(e.body.name);
    expect(added.body[e.plural].map((r: { id: number }) => r.id)).toContain(record.id);
    expect(added.body.pagination).toEqual({ totalRecords: 1, currentPage: 1, totalPages: 1 });

    const second = await org.admin.post(`${e.base}/${e.add}`, e.body2);
    expect(second.status).toBe(201);

    const list = await org.admin.get(`${e.base}/${e.list}`);
    expect(list.status).toBe(200);
    expect(list.body[e.plural]).toHaveLength(2);
    expect(list.body.pagination).toEqual({ totalRecords: 2, currentPage: 1, totalPages: 1 });

    const filtered = await org.admin.get(`${e.base}/${e.list}?name=${encodeURIComponent(e.body2.name.slice(1, 4).toUpperCase())}`);
    expect(filtered.body[e.plural].map((r: { name: string }) => r.name)).toEqual([e.body2.name]);
    // Past the last page the total still counts the filter's matches only.
    const filteredPast = await org.admin.get(`${e.base}/${e.list}?name=${encodeURIComponent(e.body2.name.slice(1, 4))}&page=2&pageSize=10`);
    expect(filteredPast.body.pagination).toEqual({ totalRecords: 1, currentPage: 2, totalPages: 1 });

    const paged = await org.admin.get(`${e.base}/${e.list}?page=2&pageSize=10`);
    expect(paged.body[e.plural]).toHaveLength(0);
    expect(paged.body.pagination).toEqual({ totalRecords: 2, currentPage: 2, totalPages: 1 });

    const updated = await org.admin.put(`${e.base}/${e.update}/${record.id}`, { ...e.body, name: `${e.body.name} Renamed` });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body[e.updated ?? e.single].name).toBe(`${e.body.name} Renamed`);
    expect(updated.body.message).toMatch(/updated successfully/);

    const deleted = await org.admin.del(`${e.base}/${e.del}/${record.id}?pageSize=10`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.message).toMatch(/deleted successfully/);
    expect(deleted.body[e.plural].map((r: { id: number }) => r.id)).toEqual([second.body[e.single].id]);
    expect(deleted.body.pagination.totalRecords).toBe(1);

    expect((await org.admin.del(`${e.base}/${e.del}/${record.id}`)).status).toBe(404);
    expect((await org.admin.put(`${e.base}/${e.update}/${record.id}`, e.body)).status).toBe(404);
  });

  it('lets workers read but not manage; managers manage', async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker');
    const manager = await org.as('manager');
    const added = await manager.post(`${e.base}/${e.add}`, e.body);
    expect(added.status).toBe(201);
    const id = added.body[e.single].id;
    expect((await worker.get(`${e.base}/${e.list}`)).status).toBe(200);
    expect((await worker.post(`${e.base}/${e.add}`, e.body2)).status).toBe(403);
    expect((await worker.put(`${e.base}/${e.update}/${id}`, e.body2)).status).toBe(403);
    expect((await worker.del(`${e.base}/${e.del}/${id}`)).status).toBe(403);
    expect((await org.anonymous.get(`${e.base}/${e.list}`)).status).toBe(401);
    expect((await manager.del(`${e.base}/${e.del}/${id}`)).status).toBe(200);
  });

  it('refuses unknown fields and bad page sizes', async () => {
    const org = await createOrg(t);
    const res = await org.admin.post(`${e.base}/${e.add}`, { ...e.body, orgId: 99 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/Unknown field: orgId/);
    expect((await org.admin.get(`${e.base}/${e.list}?pageSize=7`)).status).toBe(400);
    expect((await org.admin.get(`${e.base}/${e.list}?page=0&pageSize=10`)).status).toBe(400);
  });

  it('isolation: another organisation gets 404 on update and delete, and the record is unchanged', async () => {
    const a = await createOrg(t, 'Alpha');
    const b = await createOrg(t, 'Beta');
    const added = await a.admin.post(`${e.base}/${e.add}`, e.body);
    const id = added.body[e.single].id;
    const before = (await a.admin.get(`${e.base}/${e.list}`)).body;
    expect((await b.admin.put(`${e.base}/${e.update}/${id}`, e.body2)).status).toBe(404);
    expect((await b.admin.del(`${e.base}/${e.del}/${id}`)).status).toBe(404);
    expect((await b.admin.get(`${e.base}/${e.list}`)).body[e.plural]).toEqual([]);
    expect((await a.admin.get(`${e.base}/${e.list}`)).body).toEqual(before);
  });
});

describe('validation messages (spec document 2, section 5)', () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await createOrg(t);
  });

  it('product category: name min 3', async () => {
    const res = await org.admin.post('/api/product-categories/add-product-category', { name: 'ab' });
    expect(res.status).toBe(400);
    expect(messages(res)).toContain('name: Name must be at least 3 characters long');
    expect(messages(await org.admin.post('/api/product-categories/add-product-category', {}))).toContain('name: Name is required');
  });

  it('tax: every message of the spec', async () => {
    const empty = await org.admin.post('/api/taxes/add-tax', {});
    expect(empty.status).toBe(400);
    expect(messages(empty)).toEqual(
      expect.arrayContaining([
        'name: Tax Name is required',
        'scope: Scope is required',
        'taxComputation: Tax Computation type is required',
        'isPriceIncluded: Price Included selection is required',
      ]),
    );
    const base = { name: 'VAT', scope: 'sales', isPriceIncluded: false };
    expect(messages(await org.admin.post('/api/taxes/add-tax', { ...base, taxComputation: 'group' }))).toContain(
      'children: Child Taxes are required when Tax Computation is Group',
    );
    expect(messages(await org.admin.post('/api/taxes/add-tax', { ...base, taxComputation: 'group', children: [] }))).toContain(
      'children: Child Taxes are required when Tax Computation is Group',
    );
    expect(messages(await org.admin.post('/api/taxes/add-tax', { ...base, taxComputation: 'fixed' }))).toContain('amount: Amount is required');
    expect(messages(await org.admin.post('/api/taxes/add-tax', { ...base, taxComputation: 'fixed', amount: '' }))).toContain('amount: Amount is required');
    expect(messages(await org.admin.post('/api/taxes/add-tax', { ...base, taxComputation: 'fixed', amount: 'abc' }))).toContain(
      'amount: Only numbers are allowed',
    );
    // negative amounts are withholdings (decision 036), down to -100 %
    expect(messages(await org.admin.post('/api/taxes/add-tax', { ...base, taxComputation: 'percentage_of_price', amount: -120 }))).toContain(
      'amount: A percentage cannot be less than -100',
    );
    expect(messages(await org.admin.post('/api/taxes/add-tax', { ...base, taxComputation: 'percentage_of_price', amount: 120 }))).toContain(
      'amount: A percentage cannot be more than 100',
    );
    expect(messages(await org.admin.post('/api/taxes/add-tax', { ...base, scope: 'both', taxComputation: 'fixed', amount: 1 }))).toContain(
      'scope: Scope is required',
    );
    // amounts typed in a form arrive as strings; yes/no selections are accepted
    const typed = await org.admin.post('/api/taxes/add-tax', {
      ...base,
      taxComputation: 'percentage_of_price_tax_included',
      amount: '15',
      isPriceIncluded: 'yes',
    });
    expect(typed.status).toBe(201);
    expect(typed.body.tax).toMatchObject({ taxComputation: 'percentage_of_price_tax_included', amount: 15, isPriceIncluded: true, Children: [] });
  });

  it('UOM category and UOM messages', async () => {
    expect(messages(await org.admin.post('/api/uom-categories/add-uom-category', { name: 'kg' }))).toContain('name: Name must be at least 3 characters long');
    const empty = await org.admin.post('/api/uoms/add-uom', {});
    expect(messages(empty)).toEqual(expect.arrayContaining(['name: Name is required', 'categoryId: Category ID is required', 'type: Type is required']));
    const cat = await org.admin.post('/api/uom-categories/add-uom-category', { name: 'Weight' });
    const categoryId = cat.body.addedUomCategory.id;
    expect(messages(await org.admin.post('/api/uoms/add-uom', { name: 'Gram', categoryId, type: 'lesser' }))).toContain('ratio: Ratio is required');
    expect(messages(await org.admin.post('/api/uoms/add-uom', { name: 'Gram', categoryId, type: 'lesser', ratio: 0 }))).toContain(
      'ratio: The number must be greater than 0',
    );
    expect(messages(await org.admin.post('/api/uoms/add-uom', { name: 'Gram', categoryId, type: 'lesser', ratio: 'x' }))).toContain(
      'ratio: Only numbers are allowed',
    );
    expect(messages(await org.admin.post('/api/uoms/add-uom', { name: 'Gram', categoryId, type: 'huge', ratio: 2 }))).toContain('type: Type is required');
  });

  it('asset category: name min 3 and short code min 3 (code or shortCode)', async () => {
    const res = await org.admin.post('/api/asset-categories/add-asset-category', { name: 'Pu', code: 'PM' });
    expect(messages(res)).toEqual(
      expect.arrayContaining(['name: Name must be at least 3 characters long', 'code: Short code must be at least 3 characters long']),
    );
    expect(messages(await org.admin.post('/api/asset-categories/add-asset-category', { name: 'Pumps', shortCode: 'P' }))).toContain(
      'shortCode: Short code must be at least 3 characters long',
    );
    expect(messages(await org.admin.post('/api/asset-categories/add-asset-category', { name: 'Pumps' }))).toContain('code: Short code is required');
  });

  it('asset category codes are unique per organisation (case-insensitive), not across organisations', async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    expect((await a.admin.post('/api/asset-categories/add-asset-category', { name: 'Pumps', code: 'PMP' })).status).toBe(201);
    // The list's name filter also finds a category by its short code.
    const byCode = await a.admin.get('/api/asset-categories/get-asset-categories?name=pmp');
    expect(byCode.body.assetCategories.map((c: { name: string }) => c.name)).toEqual(['Pumps']);
    const dup = await a.admin.post('/api/asset-categories/add-asset-category', { name: 'Other pumps', code: 'pmp' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('An asset category with this short code already exists');
    expect((await b.admin.post('/api/asset-categories/add-asset-category', { name: 'Pumps', code: 'PMP' })).status).toBe(201);
  });

  it("time tracking reason: name min 3, type required, the blocking flag's message reads 'Type is required'", async () => {
    const res = await org.admin.post('/api/time-tracking-reasons/add-time-tracking-reason', { name: 'ab' });
    expect(messages(res)).toEqual(
      expect.arrayContaining(['name: Name must be at least 3 characters long', 'type: Type is required', 'is_blocking_reason: Type is required']),
    );
    const ok = await org.admin.post('/api/time-tracking-reasons/add-time-tracking-reason', { name: 'Breakdown', type: 'availability', isBlockingReason: true });
    expect(ok.body.timeTrackingReason).toMatchObject({ name: 'Breakdown', type: 'availability', is_blocking_reason: true, isBlockingReason: true });
    const no = await org.admin.post('/api/time-tracking-reasons/add-time-tracking-reason', { name: 'Rework', type: 'quality', is_blocking_reason: 'no' });
    expect(no.body.timeTrackingReason).toMatchObject({ is_blocking_reason: false, isBlockingReason: false });
  });
});

describe('product category tree', () => {
  it('takes a parent of the organisation and refuses a category as its own ancestor', async () => {
    const org = await createOrg(t);
    const add = (body: object) => org.admin.post('/api/product-categories/add-product-category', body);
    const root = (await add({ name: 'Mechanical' })).body.productCategory;
    const child = (await add({ name: 'Bearings', parentId: root.id })).body.productCategory;
    const grandchild = (await add({ name: 'Ball Bearings', parentId: child.id })).body.productCategory;
    expect(child).toMatchObject({ parentId: root.id, parent: { id: root.id, name: 'Mechanical' } });
    expect((await add({ name: 'Loose', parentId: '' })).body.productCategory.parentId).toBeNull();

    expectRefused(
      await org.admin.put(`/api/product-categories/update-product-category/${root.id}`, { name: 'Mechanical', parentId: root.id }),
      'A category cannot be its own parent',
    );
    expectRefused(
      await org.admin.put(`/api/product-categories/update-product-category/${root.id}`, { name: 'Mechanical', parentId: grandchild.id }),
      'A category cannot be its own ancestor',
    );
    expectRefused(await add({ name: 'Orphan', parentId: 999 }), 'Parent category not found');

    const moved = await org.admin.put(`/api/product-categories/update-product-category/${grandchild.id}`, { name: 'Ball Bearings', parentId: root.id });
    expect(moved.body.productCategory.parentId).toBe(root.id);
  });

  it("refuses another organisation's category as parent", async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    const foreign = (await b.admin.post('/api/product-categories/add-product-category', { name: 'Foreign' })).body.productCategory;
    expectRefused(await a.admin.post('/api/product-categories/add-product-category', { name: 'Mine', parentId: foreign.id }), 'Parent category not found');
  });
});

describe('tax groups', () => {
  async function setup(admin: Client) {
    const add = (body: object) => admin.post('/api/taxes/add-tax', body);
    const fixed = (await add({ name: 'Eco Fee', scope: 'sales', taxComputation: 'fixed', amount: 2.5, isPriceIncluded: false })).body.tax;
    const percent = (await add({ name: 'Sales Tax 7%', scope: 'sales', taxComputation: 'percentage_of_price', amount: 7, isPriceIncluded: false })).body.tax;
    const purchase = (await add({ name: 'Purchase Tax', scope: 'purchase', taxComputation: 'percentage_of_price', amount: 5, isPriceIncluded: false })).body
      .tax;
    return { add, fixed, percent, purchase };
  }

  it('a group takes child taxes (Children in responses), never other groups', async () => {
    const org = await createOrg(t);
    const { add, fixed, percent, purchase } = await setup(org.admin);
    const group = await add({
      name: 'Sales + Eco',
      scope: 'sales',
      taxComputation: 'group',
      isPriceIncluded: false,
      children: [fixed.id, percent.id, fixed.id],
      amount: 9,
    });
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    expect(group.body.tax.amount).toBeNull();
    expect(group.body.tax.Children.map((c: { id: number }) => c.id).sort()).toEqual([fixed.id, percent.id].sort());
    expect(group.body.taxes.find((x: { id: number }) => x.id === group.body.tax.id).Children).toHaveLength(2);

    // a form sends the hidden amount as ''
    const fromForm = await add({ name: 'Form group', scope: 'sales', taxComputation: 'group', isPriceIncluded: 'no', children: [fixed.id], amount: '' });
    expect(fromForm.status, JSON.stringify(fromForm.body)).toBe(201);

    expectRefused(
      await add({ name: 'Nested', scope: 'sales', taxComputation: 'group', isPriceIncluded: false, children: [group.body.tax.id] }),
      'A group tax cannot contain another group tax',
    );

    expectRefused(
      await add({ name: 'Mixed', scope: 'sales', taxComputation: 'group', isPriceIncluded: false, children: [purchase.id] }),
      'Child taxes must have the same scope as the group',
    );

    expectRefused(await add({ name: 'Missing', scope: 'sales', taxComputation: 'group', isPriceIncluded: false, children: [999] }), 'Child tax not found');

    expectRefused(
      await org.admin.put(`/api/taxes/update-tax/${group.body.tax.id}`, {
        name: 'Sales + Eco',
        scope: 'sales',
        taxComputation: 'group',
        isPriceIncluded: false,
        children: [group.body.tax.id],
      }),
      'A group tax cannot contain itself',
    );

    // a child cannot become a group, nor leave the group's scope
    expectRefused(
      await org.admin.put(`/api/taxes/update-tax/${fixed.id}`, {
        name: 'Eco Fee',
        scope: 'sales',
        taxComputation: 'group',
        isPriceIncluded: false,
        children: [percent.id],
      }),
      'This tax is a child of a group tax and cannot become a group',
    );
    const childScope = await org.admin.put(`/api/taxes/update-tax/${fixed.id}`, {
      name: 'Eco Fee',
      scope: 'purchase',
      taxComputation: 'fixed',
      amount: 2,
      isPriceIncluded: false,
    });
    expect(childScope.status).toBe(400);

    // changing a group's children and turning it into a plain tax
    const oneChild = await org.admin.put(`/api/taxes/update-tax/${group.body.tax.id}`, {
      name: 'Sales only',
      scope: 'sales',
      taxComputation: 'group',
      isPriceIncluded: false,
      children: [percent.id],
    });
    expect(oneChild.body.tax.Children.map((c: { id: number }) => c.id)).toEqual([percent.id]);
    const plain = await org.admin.put(`/api/taxes/update-tax/${group.body.tax.id}`, {
      name: 'Flat',
      scope: 'sales',
      taxComputation: 'fixed',
      amount: 3,
      isPriceIncluded: false,
      children: [percent.id],
    });
    expect(plain.body.tax).toMatchObject({ taxComputation: 'fixed', amount: 3, Children: [] });
  });

  it("refuses another organisation's tax as a child", async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    const { fixed } = await setup(b.admin);
    expectRefused(
      await a.admin.post('/api/taxes/add-tax', {
        name: 'Group',
        scope: 'sales',
        taxComputation: 'group',
        isPriceIncluded: false,
        children: [fixed.id],
      }),
      'Child tax not found',
    );
  });

  it('deleting a tax used by a group is refused with 409; the group keeps its child', async () => {
    const org = await createOrg(t);
    const { add, fixed, percent } = await setup(org.admin);
    const group = (await add({ name: 'Sales + Eco', scope: 'sales', taxComputation: 'group', isPriceIncluded: false, children: [fixed.id, percent.id] })).body
      .tax;
    const res = await org.admin.del(`/api/taxes/delete-tax/${fixed.id}`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('This tax is used by other records and cannot be deleted');
    const after = (await org.admin.get('/api/taxes/get-taxes')).body.taxes.find((x: { id: number }) => x.id === group.id);
    expect(after.Children).toHaveLength(2);
    // deleting the group releases its children
    expect((await org.admin.del(`/api/taxes/delete-tax/${group.id}`)).status).toBe(200);
    expect((await org.admin.del(`/api/taxes/delete-tax/${fixed.id}`)).status).toBe(200);
  });
});

describe('units of measure', () => {
  async function category(admin: Client, name = 'Weight') {
    return (await admin.post('/api/uom-categories/add-uom-category', { name })).body.addedUomCategory;
  }

  it('a reference unit has ratio 1; a category takes only one reference; isReferenceSet follows', async () => {
    const org = await createOrg(t);
    const weight = await category(org.admin);
    expect(weight.isReferenceSet).toBe(false);
    // the hidden ratio of a reference unit may arrive empty or not at all; it is always 1
    const kg = await org.admin.post('/api/uoms/add-uom', { name: 'Kilogram', categoryId: weight.id, type: 'reference', ratio: '' });
    expect(kg.status, JSON.stringify(kg.body)).toBe(201);
    expect(kg.body.uom).toMatchObject({ name: 'Kilogram', type: 'reference', ratio: 1, categoryId: weight.id, category: { id: weight.id, name: 'Weight' } });
    expect(kg.body.uoms).toHaveLength(1);
    expect(kg.body.pagination).toEqual({ totalRecords: 1, currentPage: 1, totalPages: 1 });
    const cats = (await org.admin.get('/api/uom-categories/get-uom-categories')).body.uomCategories;
    expect(cats.find((c: { id: number }) => c.id === weight.id).isReferenceSet).toBe(true);

    const second = await org.admin.post('/api/uoms/add-uom', { name: 'Pound', categoryId: weight.id, type: 'reference' });
    expect(second.status).toBe(409);
    expect(second.body.error).toBe('This category already has a reference unit');

    const gram = await org.admin.post('/api/uoms/add-uom', { name: 'Gram', categoryId: weight.id, type: 'lesser', ratio: '1000' });
    expect(gram.body.uom).toMatchObject({ type: 'lesser', ratio: 1000 });
    const toRef = await org.admin.put(`/api/uoms/update-uom/${gram.body.uom.id}`, { name: 'Gram', categoryId: weight.id, type: 'reference' });
    expect(toRef.status).toBe(409);
    // updating the reference unit itself keeps it the reference
    const kgAgain = await org.admin.put(`/api/uoms/update-uom/${kg.body.uom.id}`, { name: 'Kilograms', categoryId: weight.id, type: 'reference' });
    expect(kgAgain.status).toBe(200);
    expect(kgAgain.body.uom).toMatchObject({ name: 'Kilograms', ratio: 1 });
    expect(kgAgain.body.category.id).toBe(kg.body.uom.id);

    // another category may have its own reference
    const length = await category(org.admin, 'Length');
    expect((await org.admin.post('/api/uoms/add-uom', { name: 'Meter', categoryId: length.id, type: 'reference' })).status).toBe(201);

    // a category with units cannot be deleted
    const delCat = await org.admin.del(`/api/uom-categories/delete-uom-category/${weight.id}`);
    expect(delCat.status).toBe(409);
    expect(delCat.body.error).toBe('This UOM category has units of measure and cannot be deleted');
  });

  it("isReferenceSet comes from the category's own units: empty, with a reference, only bigger/lesser, after deleting the reference", async () => {
    const org = await createOrg(t);
    const flags = async () =>
      Object.fromEntries(
        ((await org.admin.get('/api/uom-categories/get-uom-categories')).body.uomCategories as { name: string; isReferenceSet: boolean }[]).map((c) => [
          c.name,
          c.isReferenceSet,
        ]),
      );
    // ids chosen so that a unit's id equals its category's id (1 and 1): the case that once marked every category
    const weight = await category(org.admin, 'Weight');
    const kg = (await org.admin.post('/api/uoms/add-uom', { name: 'Kilogram', categoryId: weight.id, type: 'reference' })).body.uom;
    expect(kg.id).toBe(weight.id);
    const empty = await category(org.admin, 'Empty');
    expect(empty.isReferenceSet).toBe(false);
    const sizes = await category(org.admin, 'Sizes');
    expect((await org.admin.post('/api/uoms/add-uom', { name: 'Large', categoryId: sizes.id, type: 'bigger', ratio: 2 })).status).toBe(201);
    expect((await org.admin.post('/api/uoms/add-uom', { name: 'Small', categoryId: sizes.id, type: 'lesser', ratio: 2 })).status).toBe(201);
    expect(await flags()).toEqual({ Weight: true, Empty: false, Sizes: false });
    // the empty category takes a reference unit, as its flag says it may
    expect((await org.admin.post('/api/uoms/add-uom', { name: 'Each', categoryId: empty.id, type: 'reference' })).status).toBe(201);
    expect((await org.admin.get('/api/user/get-app-data')).body.uomCategories.find((c: { id: number }) => c.id === empty.id).isReferenceSet).toBe(true);
    // after deleting the reference, the category has none again
    expect((await org.admin.del(`/api/uoms/delete-uom/${kg.id}`)).status).toBe(200);
    expect(await flags()).toEqual({ Weight: false, Empty: true, Sizes: false });
    const renamed = await org.admin.put(`/api/uom-categories/update-uom-category/${sizes.id}`, { name: 'Sizes' });
    expect(renamed.body.category.isReferenceSet).toBe(false);
  });

  it('pages on the server (default 10) with a name filter, and offers options', async () => {
    const org = await createOrg(t);
    const weight = await category(org.admin);
    for (let i = 1; i <= 12; i++) {
      const res = await org.admin.post('/api/uoms/add-uom', {
        name: `Unit ${String(i).padStart(2, '0')}`,
        categoryId: weight.id,
        type: i === 1 ? 'reference' : 'bigger',
        ratio: i,
      });
      expect(res.status).toBe(201);
    }
    const first = await org.admin.get('/api/uoms/get-uoms');
    expect(first.body.uoms).toHaveLength(10);
    expect(first.body.pagination).toEqual({ totalRecords: 12, currentPage: 1, totalPages: 2 });
    const second = await org.admin.get('/api/uoms/get-uoms?page=2');
    expect(second.body.uoms.map((u: { name: string }) => u.name)).toEqual(['Unit 11', 'Unit 12']);
    const filtered = await org.admin.get('/api/uoms/get-uoms?name=unit%201');
    expect(filtered.body.pagination.totalRecords).toBe(3); // 10, 11, 12
    expect((await org.admin.get('/api/uoms/get-uoms?pageSize=5')).status).toBe(400);
    const options = await org.admin.get('/api/uoms/get-uom-options?name=unit%200');
    expect(options.status).toBe(200);
    expect(options.body).toHaveLength(9);
    expect(options.body[0]).toMatchObject({ value: expect.any(Number), label: 'Unit 01' });
    // a deleted unit refreshes the page it was on
    const del = await org.admin.del(`/api/uoms/delete-uom/${first.body.uoms[0].id}?page=2`);
    expect(del.body.uoms).toHaveLength(1);
    expect(del.body.pagination).toEqual({ totalRecords: 11, currentPage: 2, totalPages: 2 });
  });

  it("refuses another organisation's category; isolation of units", async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    const foreign = await category(b.admin);
    expectRefused(await a.admin.post('/api/uoms/add-uom', { name: 'Kilogram', categoryId: foreign.id, type: 'reference' }), 'UOM category not found');
    const kg = (await b.admin.post('/api/uoms/add-uom', { name: 'Kilogram', categoryId: foreign.id, type: 'reference' })).body.uom;
    const before = await b.admin.get('/api/uoms/get-uoms');
    expect((await a.admin.put(`/api/uoms/update-uom/${kg.id}`, { name: 'Stolen', categoryId: kg.categoryId, type: 'bigger', ratio: 2 })).status).toBe(404);
    expect((await a.admin.del(`/api/uoms/delete-uom/${kg.id}`)).status).toBe(404);
    expect((await a.admin.get('/api/uoms/get-uoms')).body.uoms).toEqual([]);
    expect((await a.admin.get('/api/uoms/get-uom-options')).body).toEqual([]);
    expect((await b.admin.get('/api/uoms/get-uoms')).body).toEqual(before.body);
  });
});

describe('deleting master data that other records use', () => {
  it('is refused with 409 and a clear message, and the records that use it stay intact', async () => {
    const org = await createOrg(t);
    const admin = org.admin;
    const category = (await admin.post('/api/product-categories/add-product-category', { name: 'Bearings' })).body.productCategory;
    const parentCat = (await admin.post('/api/product-categories/add-product-category', { name: 'Mechanical' })).body.productCategory;
    await admin.post('/api/product-categories/add-product-category', { name: 'Seals', parentId: parentCat.id });
    const uomCat = (await admin.post('/api/uom-categories/add-uom-category', { name: 'Unit' })).body.addedUomCategory;
    const each = (await admin.post('/api/uoms/add-uom', { name: 'Each', categoryId: uomCat.id, type: 'reference' })).body.uom;
    const assetCat = (await admin.post('/api/asset-categories/add-asset-category', { name: 'Pumps', code: 'PMP' })).body.assetCategory;
    const reason = (
      await admin.post('/api/time-tracking-reasons/add-time-tracking-reason', { name: 'Repair', type: 'productivity', is_blocking_reason: false })
    ).body.timeTrackingReason;
    await withTenant(t.database.db, org.orgId, async (tx) => {
      await tx.insert(parts).values({
        orgId: org.orgId,
        name: 'Ball bearing 6204',
        type: 'stockable',
        categoryId: category.id,
        salesPrice: 12.5,
        unitOfMeasureId: each.id,
        purchaseUnitOfMeasureId: each.id,
      });
      await tx.insert(assets).values({ orgId: org.orgId, name: 'Cooling pump', date: '2024-01-10', assetCategoryId: assetCat.id });
      const [wo] = await tx.insert(workOrders).values({ orgId: org.orgId, title: 'Fix pump' }).returning({ id: workOrders.id });
      await tx.insert(workOrderLabors).values({
        orgId: org.orgId,
        workOrderId: wo.id,
        workerId: 1,
        reasonId: reason.id,
        startDate: new Date('2024-01-10T08:00:00Z'),
        endDate: new Date('2024-01-10T09:00:00Z'),
      });
    });

    const cases: [string, string][] = [
      [
        `/api/product-categories/delete-product-category/${category.id}`,
        'This category is used by other records (parts or sub-categories) and cannot be deleted',
      ],
      [
        `/api/product-categories/delete-product-category/${parentCat.id}`,
        'This category is used by other records (parts or sub-categories) and cannot be deleted',
      ],
      [`/api/uoms/delete-uom/${each.id}`, 'This unit of measure is used by other records and cannot be deleted'],
      [`/api/asset-categories/delete-asset-category/${assetCat.id}`, 'This asset category is used by assets and cannot be deleted'],
      [`/api/time-tracking-reasons/delete-time-tracking-reason/${reason.id}`, 'This time tracking reason is used by logged labor and cannot be deleted'],
    ];
    for (const [url, error] of cases) {
      const res = await admin.del(url);
      expect(res.status, url).toBe(409);
      expect(res.body.error).toBe(error);
    }
    const [part] = await withTenant(t.database.db, org.orgId, (tx) => tx.select().from(parts));
    expect(part).toMatchObject({ categoryId: category.id, unitOfMeasureId: each.id });
    expect((await admin.get('/api/uoms/get-uoms')).body.uoms).toHaveLength(1);
  });

  it('a tax used by other records (a raw reference) is refused the same way', async () => {
    const org = await createOrg(t);
    const tax = (await org.admin.post('/api/taxes/add-tax', { name: 'Eco Fee', scope: 'sales', taxComputation: 'fixed', amount: 1, isPriceIncluded: false }))
      .body.tax;
    const group = (
      await org.admin.post('/api/taxes/add-tax', { name: 'Group', scope: 'sales', taxComputation: 'group', isPriceIncluded: false, children: [tax.id] })
    ).body.tax;
    const res = await org.admin.del(`/api/taxes/delete-tax/${tax.id}`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('This tax is used by other records and cannot be deleted');
    const rows = await withTenant(t.database.db, org.orgId, (tx) => tx.select({ id: taxes.id }).from(taxes));
    expect(rows.map((r) => r.id).sort()).toEqual([tax.id, group.id].sort());
  });
});

describe('activity and application data', () => {
  it('records created/updated in the Note Logs and serves master data in get-app-data', async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker');
    const tax = (await org.admin.post('/api/taxes/add-tax', { name: 'Eco Fee', scope: 'sales', taxComputation: 'fixed', amount: 1, isPriceIncluded: false }))
      .body.tax;
    await org.admin.put(`/api/taxes/update-tax/${tax.id}`, { name: 'Eco Fee', scope: 'sales', taxComputation: 'fixed', amount: 2, isPriceIncluded: false });
    const log = await org.admin.get(`/api/activities/tax/${tax.id}`);
    expect(log.status, JSON.stringify(log.body)).toBe(200);
    const items = (log.body.activities ?? log.body) as { action: string; changes: unknown }[];
    expect(items.map((i) => i.action)).toEqual(['updated', 'created']);
    expect(items[0].changes).toEqual({ amount: { from: 1, to: 2 } });

    await org.admin.post('/api/asset-categories/add-asset-category', { name: 'Pumps', code: 'PMP' });
    await org.admin.post('/api/uom-categories/add-uom-category', { name: 'Weight' });
    await org.admin.post('/api/product-categories/add-product-category', { name: 'Bearings' });
    await org.admin.post('/api/time-tracking-reasons/add-time-tracking-reason', { name: 'Repair', type: 'productivity', is_blocking_reason: false });
    const data = await worker.get('/api/user/get-app-data');
    expect(data.status).toBe(200);
    expect(data.body.taxes.map((x: { name: string }) => x.name)).toEqual(['Eco Fee']);
    expect(data.body.assetCategories.map((x: { code: string }) => x.code)).toEqual(['PMP']);
    expect(data.body.uomCategories[0]).toMatchObject({ name: 'Weight', isReferenceSet: false });
    expect(data.body.productCategories.map((x: { name: string }) => x.name)).toEqual(['Bearings']);
    expect(data.body.timeTrackReasons[0]).toMatchObject({ name: 'Repair', is_blocking_reason: false });
  });
});
