import { describe, expect, it } from 'vitest';
import { client, createOrg, useTestApp } from '../../server/test/harness';

const t = useTestApp();

const messages = (body: { issues?: { path: string; message: string }[] }) => Object.fromEntries((body.issues ?? []).reverse().map((i) => [i.path, i.message]));

describe('company profile', () => {
  it('reads the company, with numberOfWorkers', async () => {
    const org = await createOrg(t);
    const res = await org.admin.get('/api/company/get-company-data');
    expect(res.status).toBe(200);
    expect(res.body.company).toMatchObject({ subdomain: org.subdomain, numberOfWorkers: 5 });
  });

  it('gives the company messages: the US zip rule for the US (or no country), postal codes elsewhere', async () => {
    const org = await createOrg(t);
    const { company } = (await org.admin.get('/api/company/get-company-data')).body;
    const bad = await org.admin.put(`/api/company/update-company/${company.id}`, {
      organization: 'A',
      zipCode: '!!',
      website: 'not a url',
      phoneNumber: 'abc',
    });
    expect(messages(bad.body)).toEqual({
      organization: 'Organization must be at least 2 characters',
      zipCode: 'Invalid zip code format',
      website: 'Invalid website URL',
      phoneNumber: 'Please provide a valid phone number',
    });
    expect(messages((await org.admin.put(`/api/company/update-company/${company.id}`, {})).body)).toEqual({ organization: 'Organization is required' });
    for (const [zip, country] of [
      ['45402', ''],
      ['45402-1234', 'United States'],
      ['SW1A 1AA', 'United Kingdom'],
      ['H3Z 2Y7', 'Canada'],
      ['10115', 'Germany'],
    ]) {
      const ok = await org.admin.put(`/api/company/update-company/${company.id}`, {
        organization: 'Acme Plant',
        zipCode: zip,
        country,
        website: 'https://acme.example.com',
        phoneNumber: '+15551234567',
      });
      expect(ok.status, zip).toBe(200);
      expect(ok.body.company.zipCode).toBe(zip);
    }
  });

  it('keeps numberOfWorkers read only and company changes to managers', async () => {
    const org = await createOrg(t);
    const { company } = (await org.admin.get('/api/company/get-company-data')).body;
    const sneaky = await org.admin.put(`/api/company/update-company/${company.id}`, { organization: 'Acme', numberOfWorkers: 999 });
    expect(sneaky.status).toBe(200); // accepted so a form can send back what it read, and ignored
    expect((await org.admin.get('/api/company/get-company-data')).body.company.numberOfWorkers).toBe(5);
    const worker = await org.as('worker');
    expect((await worker.put(`/api/company/update-company/${company.id}`, { organization: 'Worker Co' })).status).toBe(403);
    expect((await worker.get('/api/company/get-company-data')).status).toBe(200);
  });

  it('isolates organisations: another organisation gets 404 and changes nothing', async () => {
    const a = await createOrg(t, 'A');
    const b = await createOrg(t, 'B');
    const aCompany = (await a.admin.get('/api/company/get-company-data')).body.company;
    const res = await b.admin.put(`/api/company/update-company/${aCompany.id}`, { organization: 'Taken over' });
    expect([403, 404]).toContain(res.status);
    expect((await a.admin.get('/api/company/get-company-data')).body.company.organization).toBe(aCompany.organization);
  });

  // Issue 39, decision 064: the organisation's time zone.
  it('keeps the time zone the signup sent (UTC for an unknown one); a manager changes it to a known IANA name', async () => {
    const org = await createOrg(t);
    const { company } = (await org.admin.get('/api/company/get-company-data')).body;
    expect(company.timeZone).toBe('UTC');
    const bad = await org.admin.put(`/api/company/update-company/${company.id}`, { organization: company.organization, timeZone: 'Mars/Olympus' });
    expect(bad.status).toBe(400);
    expect(messages(bad.body)).toEqual({ timeZone: 'Time zone must be a time zone name' });
    const ok = await org.admin.put(`/api/company/update-company/${company.id}`, { organization: company.organization, timeZone: 'Asia/Riyadh' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.company.timeZone).toBe('Asia/Riyadh');
    // Left out: kept.
    expect((await org.admin.put(`/api/company/update-company/${company.id}`, { organization: company.organization })).body.company.timeZone).toBe(
      'Asia/Riyadh',
    );
    const worker = await org.as('worker');
    expect((await worker.put(`/api/company/update-company/${company.id}`, { organization: company.organization, timeZone: 'UTC' })).status).toBe(403);

    const signup = async (timeZone: unknown) => {
      const sub = `tz${Math.random().toString(36).slice(2, 10)}`;
      const res = await client(t.app, t.config.baseDomain).post('/api/signup', {
        organization: `Zone ${sub}`,
        email: `a@${sub}.example.com`,
        password: 'Passw0rd!long',
        subdomainName: sub,
        numberOfWorkers: 3,
        consent: true,
        timeZone,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const login = await client(t.app, `${sub}.${t.config.baseDomain}`).post('/api/login', { email: `a@${sub}.example.com`, password: 'Passw0rd!long' });
      return (await client(t.app, `${sub}.${t.config.baseDomain}`, login.body.accessToken).get('/api/company/get-company-data')).body.company.timeZone;
    };
    expect(await signup('Asia/Riyadh')).toBe('Asia/Riyadh');
    expect(await signup('Not/AZone')).toBe('UTC');
    expect(await signup(42)).toBe('UTC');
  });
});
