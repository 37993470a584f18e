import { describe, expect, it } from 'vitest';
import { createOrg, useTestApp } from '../../server/test/harness';
import { isValidZip } from './organization.schema';

const t = useTestApp();

describe('company zip codes', () => {
  it.each([
    ['12345', undefined, true],
    ['12345-6789', 'United States', true],
    ['1234', undefined, false],
    ['123456', 'USA', false],
    ['abc', undefined, false],
    ['SW1A 1AA', 'United Kingdom', true],
    ['K1A 0B1', 'Canada', true],
    ['8001', 'Switzerland', true],
    ['100-0001', 'Japan', true],
    ['<script>', 'France', false],
  ])('%s in %s: %s', (zip, country, ok) => {
    expect(isValidZip(zip, country)).toBe(ok);
  });

  it("says 'Invalid zip code format' for a malformed US code and accepts a foreign one", async () => {
    const org = await createOrg(t);
    const bad = await org.admin.put(`/api/company/update-company/${org.orgId}`, { organization: 'Acme Plant', zipCode: '1234' });
    expect(bad.status).toBe(400);
    expect(bad.body.issues).toContainEqual({ path: 'zipCode', message: 'Invalid zip code format' });
    const uk = await org.admin.put(`/api/company/update-company/${org.orgId}`, { organization: 'Acme Plant', zipCode: 'SW1A 1AA', country: 'United Kingdom' });
    expect(uk.status).toBe(200);
    expect(uk.body.company.zipCode).toBe('SW1A 1AA');
  });

  it('ignores numberOfWorkers sent back with the form: it stays read only', async () => {
    const org = await createOrg(t);
    const { company } = (await org.admin.get('/api/company/get-company-data')).body;
    const res = await org.admin.put(`/api/company/update-company/${org.orgId}`, { organization: 'Renamed Co', numberOfWorkers: 999 });
    expect(res.status).toBe(200);
    expect(res.body.company).toMatchObject({ organization: 'Renamed Co', numberOfWorkers: company.numberOfWorkers });
  });
});

describe('deleting a user', () => {
  it('returns the refreshed list with pagination, like every delete', async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker');
    const res = await org.admin.del(`/api/user/deleteUser/${worker.userId}?page=1&pageSize=25`);
    expect(res.status).toBe(200);
    expect(res.body.users.map((u: { id: number }) => u.id)).not.toContain(worker.userId);
    expect(res.body.pagination).toMatchObject({ totalRecords: 1, currentPage: 1 });
  });
});
