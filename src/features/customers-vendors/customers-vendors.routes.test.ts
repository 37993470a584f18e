import { describe, expect, it } from 'vitest';
import { solidImage } from '../../server/test/images';
import { createOrg, useTestApp, type Client } from '../../server/test/harness';

const t = useTestApp();

const base = '/api/customer-vendors';
const acme = { name: 'Acme Industrial', email: 'sales@acme.example.com', type: 'customer', category: 'company' };

async function add(c: Client, body: Record<string, unknown> = acme, query = '') {
  const res = await c.post(`${base}/add-customer-vendor${query}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const png = () => solidImage('png', 40, 30, '#3366cc');

/** A new organisation with Acme (record 1) and its child "Child Co" (record 2). */
async function orgWithParentAndChild() {
  const org = await createOrg(t);
  await add(org.admin);
  await add(org.admin, { ...acme, name: 'Child Co', parentId: 1 });
  return org;
}

describe('customers and vendors', () => {
  it('adds with the fields or inside `overview`, returns the record and the refreshed list', async () => {
    const org = await createOrg(t);
    const first = await add(org.admin);
    expect(first.message).toBe('Customer added successfully');
    expect(first.customerVendor).toMatchObject({
      id: 1,
      name: 'Acme Industrial',
      email: 'sales@acme.example.com',
      type: 'customer',
      category: 'company',
      Parent: null,
    });
    expect(first.customerVendors).toHaveLength(1);
    expect(first.pagination).toEqual({ totalRecords: 1, currentPage: 1, totalPages: 1 });

    const second = await add(org.admin, {
      overview: {
        name: 'Bolt Supply',
        email: 'Orders@Bolt.example.com',
        type: 'Vendor',
        category: 'company',
        parentId: 1,
        street: '1 Main St',
        city: 'Dayton',
        country: 'United States',
        tinVat: 'US123',
        phone: '+15555550100',
        mobile: '+15555550101',
        website: 'https://bolt.example.com',
      },
    });
    expect(second.message).toBe('Vendor added successfully');
    expect(second.customerVendor).toMatchObject({
      email: 'orders@bolt.example.com',
      type: 'vendor',
      parentId: 1,
      Parent: { id: 1, name: 'Acme Industrial' },
      city: 'Dayton',
    });
    expect(second.customerVendors.map((r: { id: number }) => r.id)).toEqual([2, 1]);
  });

  it("gives the spec's messages", async () => {
    const org = await createOrg(t);
    const res = await org.admin.post(`${base}/add-customer-vendor`, { name: 'ab', email: 'not-an-email' });
    expect(res.status).toBe(400);
    const messages = Object.fromEntries(res.body.issues.map((i: { path: string; message: string }) => [i.path, i.message]));
    expect(messages).toMatchObject({
      name: 'Name must be at least 3 characters long',
      email: 'Invalid email format',
      type: 'Type is required',
      category: 'Category is required',
    });
    const unknown = await org.admin.post(`${base}/add-customer-vendor`, { ...acme, orgId: 99 });
    expect(unknown.status).toBe(400);
    const badType = await org.admin.post(`${base}/add-customer-vendor`, { ...acme, type: 'partner' });
    expect(badType.body.issues[0]).toEqual({ path: 'type', message: 'Type is required' });
  });

  it('quick create: the title as name and e-mail, category individual', async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker');
    const res = await add(worker, { name: 'jane@client.example.com', email: 'jane@client.example.com', type: 'customer', category: 'individual' });
    expect(res.customerVendor).toMatchObject({ name: 'jane@client.example.com', email: 'jane@client.example.com', category: 'individual' });
  });

  it('lists with paging, type (several) and name filters', async () => {
    const org = await createOrg(t);
    for (let i = 1; i <= 12; i++) await add(org.admin, { ...acme, name: `Customer ${String(i).padStart(2, '0')}`, type: i % 3 === 0 ? 'vendor' : 'customer' });
    const page2 = await org.admin.get(`${base}/get-customer-vendors?page=2&pageSize=10`);
    expect(page2.status).toBe(200);
    expect(page2.body.customerVendors).toHaveLength(2);
    expect(page2.body.pagination).toEqual({ totalRecords: 12, currentPage: 2, totalPages: 2 });
    const vendors = await org.admin.get(`${base}/get-customer-vendors?type=vendor`);
    expect(vendors.body.pagination.totalRecords).toBe(4);
    const both = await org.admin.get(`${base}/get-customer-vendors?type=vendor&type=customer`);
    expect(both.body.pagination.totalRecords).toBe(12);
    const comma = await org.admin.get(`${base}/get-customer-vendors?type=vendor,customer`);
    expect(comma.body.pagination.totalRecords).toBe(12);
    const named = await org.admin.get(`${base}/get-customer-vendors?name=customer 1`);
    expect(named.body.customerVendors.map((r: { name: string }) => r.name).sort()).toEqual(['Customer 10', 'Customer 11', 'Customer 12']);
    expect((await org.admin.get(`${base}/get-customer-vendors?pageSize=7`)).status).toBe(400);
    expect((await org.admin.get(`${base}/get-customer-vendors?page=0`)).status).toBe(400);
    expect((await org.admin.get(`${base}/get-customer-vendors?type=partner`)).status).toBe(400);
  });

  it('options: value and label, 10 by default, by name and type', async () => {
    const org = await createOrg(t);
    for (let i = 1; i <= 12; i++) await add(org.admin, { ...acme, name: `Party ${i}`, type: i <= 2 ? 'vendor' : 'customer' });
    const res = await org.admin.get(`${base}/get-customer-vendor-options`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(10);
    expect(res.body[0]).toMatchObject({ value: expect.any(Number), label: expect.any(String), type: expect.any(String) });
    const named = await org.admin.get(`${base}/get-customer-vendor-options?name=party 1`);
    expect(named.body.map((o: { label: string }) => o.label).sort()).toEqual(['Party 1', 'Party 10', 'Party 11', 'Party 12']);
    const vendors = await org.admin.get(`${base}/get-customer-vendor-options?type=vendor`);
    expect(vendors.body.map((o: { label: string }) => o.label).sort()).toEqual(['Party 1', 'Party 2']);
  });

  it('gets one, updates it (updatedData) and records the history', async () => {
    const org = await createOrg(t);
    await add(org.admin);
    const got = await org.admin.get(`${base}/get-customer-vendor/1`);
    expect(got.status).toBe(200);
    expect(got.body.customerVendor.name).toBe('Acme Industrial');
    const upd = await org.admin.put(`${base}/update-customer-vendor/1`, { ...acme, name: 'Acme Industrial Ltd', city: 'Akron' });
    expect(upd.status).toBe(200);
    expect(upd.body.message).toBe('Customer updated successfully');
    expect(upd.body.updatedData).toMatchObject({ id: 1, name: 'Acme Industrial Ltd', city: 'Akron' });
    const history = await org.admin.get('/api/activities/customer-vendor/1');
    expect(history.status).toBe(200);
    const actions = (Array.isArray(history.body) ? history.body : history.body.activities).map((a: { action: string }) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['created', 'updated']));
    expect((await org.admin.put(`${base}/update-customer-vendor/9`, acme)).status).toBe(404);
    expect((await org.admin.get(`${base}/get-customer-vendor/9`)).status).toBe(404);
    const self = await org.admin.put(`${base}/update-customer-vendor/1`, { ...acme, parentId: 1 });
    expect(self.status).toBe(400);
  });

  it('refuses a parent that does not exist or would make a loop', async () => {
    const org = await orgWithParentAndChild();
    expect((await org.admin.post(`${base}/add-customer-vendor`, { ...acme, parentId: 42 })).body.issues).toEqual([
      { path: 'parentId', message: 'Parent not found' },
    ]);
    const loop = await org.admin.put(`${base}/update-customer-vendor/1`, { ...acme, parentId: 2 });
    expect(loop.status).toBe(400);
  });

  it('deletes (managers only) and returns the refreshed list; 409 while another record uses it', async () => {
    const org = await orgWithParentAndChild();
    const worker = await org.as('worker');
    expect((await worker.del(`${base}/delete-customer-vendor/2`)).status).toBe(403);
    const used = await org.admin.del(`${base}/delete-customer-vendor/1`);
    expect(used.status).toBe(409);
    const res = await org.admin.del(`${base}/delete-customer-vendor/2?pageSize=25`);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Customer deleted successfully');
    expect(res.body.customerVendors.map((r: { id: number }) => r.id)).toEqual([1]);
    expect(res.body.pagination.totalRecords).toBe(1);
    expect((await org.admin.del(`${base}/delete-customer-vendor/2`)).status).toBe(404);
  });

  it('uploads a profile picture for an existing record (path, query or field id) and documents', async () => {
    const org = await createOrg(t);
    await add(org.admin);
    const bytes = await png();
    const upload = (url: string, fields: Record<string, string> = {}) =>
      org.admin.upload(url, [{ field: 'image', name: 'logo.png', bytes, type: 'image/png' }], fields);
    const byPath = await upload(`${base}/add-profile-picture/1`);
    expect(byPath.status, JSON.stringify(byPath.body)).toBe(200);
    expect(byPath.body.customerVendor.profilePicture).toMatch(/^\/uploads\/org-\d+\/.+\.webp\?exp=\d+&sig=[\w-]+$/); // signed (decision 024);
    expect((await upload(`${base}/add-profile-picture?id=1`)).status).toBe(200);
    expect((await upload(`${base}/add-profile-picture`, { id: '1' })).status).toBe(200);
    expect((await upload(`${base}/add-profile-picture`)).status).toBe(400);
    expect((await upload(`${base}/add-profile-picture/5`)).status).toBe(404);
    const bad = await org.admin.upload(`${base}/add-profile-picture/1`, [
      { field: 'image', name: 'x.png', bytes: Buffer.from('hello world'), type: 'image/png' },
    ]);
    expect(bad.status).toBe(415);
    expect(bad.body.error).toBe('Only JPEG, PNG, and WebP images are allowed.');

    const up = await org.admin.upload(`${base}/upload-documents`, [{ field: 'documents', name: 'contract.png', bytes, type: 'image/png' }]);
    expect(up.status).toBe(200);
    const documents = up.body.documents;
    expect(documents[0]).toMatchObject({ name: 'contract.png', url: expect.stringMatching(/^\/uploads\/org-/) });
    const saved = await org.admin.put(`${base}/update-customer-vendor/1`, { ...acme, customerDocuments: documents });
    expect(saved.body.updatedData.customerDocuments).toEqual(documents);
    // a file of another organisation cannot be referenced
    const other = await createOrg(t);
    await add(other.admin);
    const foreign = await other.admin.put(`${base}/update-customer-vendor/1`, { ...acme, customerDocuments: documents });
    expect(foreign.status).toBe(400);
  });

  it('isolation: another organisation gets 404 and changes nothing; foreign parents are refused', async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    await add(a.admin);
    await add(a.admin, { ...acme, name: 'Second Co' });
    const before = (await a.admin.get(`${base}/get-customer-vendor/2`)).body;
    expect((await b.admin.get(`${base}/get-customer-vendor/2`)).status).toBe(404);
    expect((await b.admin.put(`${base}/update-customer-vendor/2`, { ...acme, name: 'Hacked' })).status).toBe(404);
    expect((await b.admin.del(`${base}/delete-customer-vendor/2`)).status).toBe(404);
    expect((await b.admin.get(`${base}/get-customer-vendors`)).body.customerVendors).toEqual([]);
    expect(await b.admin.get(`${base}/get-customer-vendor-options`).then((r) => r.body)).toEqual([]);
    const foreignParent = await b.admin.post(`${base}/add-customer-vendor`, { ...acme, parentId: 2 });
    expect(foreignParent.status).toBe(400);
    expect((await a.admin.get(`${base}/get-customer-vendor/2`)).body).toEqual(before);
    expect((await a.admin.get(`${base}/get-customer-vendors`)).body.pagination.totalRecords).toBe(2);
  });

  it('needs a signed-in caller', async () => {
    const org = await createOrg(t);
    expect((await org.anonymous.get(`${base}/get-customer-vendors`)).status).toBe(401);
  });
  it('accepts back what get-customer-vendor returned (read-only fields ignored) and documents as URLs', async () => {
    const org = await createOrg(t);
    await add(org.admin);
    const got = (await org.admin.get(`${base}/get-customer-vendor/1`)).body.customerVendor;
    const res = await org.admin.put(`${base}/update-customer-vendor/1`, { ...got, city: 'Toledo' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.updatedData).toMatchObject({ id: 1, city: 'Toledo', name: 'Acme Industrial' });
    const bad = await org.admin.put(`${base}/update-customer-vendor/1`, { ...acme, customerDocuments: ['https://evil.example.com/x.pdf'] });
    expect(bad.status).toBe(400);
  });
});
