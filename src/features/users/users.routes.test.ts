import { describe, expect, it } from 'vitest';
import { client, createOrg, useTestAppWith } from '../../server/test/harness';
import { startSmtpServer } from '../../server/test/fixtures';
import { pngClaiming, solidImage } from '../../server/test/images';
import { withTenant } from '../../server/db/client';
import { assetCategories, assets, services, teams, workStations } from '../../server/db/schema';
import { publicOrigin } from '../../server/env';
import { firstIssuesOf } from '../../server/test/issues-of';

const [t, smtp] = useTestAppWith(startSmtpServer, (mailbox) => [{ smtpUrl: mailbox.url }]);

/** Two work stations, two assets and two services of the organisation, inserted directly. */
async function records(orgId: number, tag = '') {
  return withTenant(t.database.db, orgId, async (tx) => {
    const [team] = await tx
      .insert(teams)
      .values({ orgId, name: `Crew${tag}` })
      .returning();
    const [category] = await tx
      .insert(assetCategories)
      .values({ orgId, name: `Pumps${tag}`, code: `P${tag}` })
      .returning();
    const stations = await tx
      .insert(workStations)
      .values([
        { orgId, code: `L1${tag}`, name: `Lathe${tag}`, city: 'Oslo', teamId: team.id },
        { orgId, code: `M1${tag}`, name: `Mill${tag}`, city: 'Oslo', teamId: team.id },
      ])
      .returning();
    const assetRows = await tx
      .insert(assets)
      .values([
        { orgId, name: `Boiler${tag}`, date: '2026-01-01', assetCategoryId: category.id },
        { orgId, name: `Chiller${tag}`, date: '2026-01-01', assetCategoryId: category.id },
      ])
      .returning();
    const serviceRows = await tx
      .insert(services)
      .values([
        { orgId, title: `Inspection${tag}`, price: 10 },
        { orgId, title: `Overhaul${tag}`, price: 90 },
      ])
      .returning();
    return { stations, assets: assetRows, services: serviceRows };
  });
}

/** One file in field `image`. */
const upload = (host: string, token: string, url: string, bytes: Buffer, name = 'a.png', type = 'image/png') =>
  client(t.app, host, token).upload(url, [{ field: 'image', name, bytes, type }]);

describe('invitations', () => {
  it('links an invitation (the invite form and the users import) to the configured domain, never the Host header (issue 45)', async () => {
    const org = await createOrg(t);
    // The host names the organisation (so the token is accepted), in a spelling and on a port the caller chose.
    const forged = { host: `${org.subdomain.toUpperCase()}.${t.config.baseDomain}:6666` };
    const invited = `forged.${org.subdomain}@example.com`;
    expect((await org.admin.post('/api/auth/addUser', { email: invited, confirmEmail: invited, role: 'worker' }, forged)).status).toBe(201);
    const imported = `imported.${org.subdomain}@example.com`;
    const res = await org.admin.post('/api/data-transfer/import/users', { rows: [{ email: imported, role: 'worker' }] }, forged);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    for (const to of [invited, imported]) {
      const link = /https?:\/\/[^\s"<>]+\/complete-registration\?token=/.exec((await smtp().mailTo(to)).text)?.[0];
      expect(link, to).toBe(`${publicOrigin(t.config, org.subdomain)}/complete-registration?token=`);
    }
  });

  it('checks the invite form, e-mails a single-use link over SMTP, and the invited person completes registration', async () => {
    const org = await createOrg(t);
    const empty = await org.admin.post('/api/auth/addUser', {});
    expect(firstIssuesOf(empty.body)).toEqual({ email: 'Email is required', confirmEmail: 'Email is required', role: 'Role is required' });
    const mismatch = await org.admin.post('/api/auth/addUser', { email: 'a@x.example.com', confirmEmail: 'b@x.example.com', role: 'worker' });
    expect(firstIssuesOf(mismatch.body)).toEqual({ confirmEmail: 'Emails do not match' });
    expect((await org.admin.post('/api/auth/addUser', { email: 'a@x.example.com', confirmEmail: 'a@x.example.com', role: 'admin' })).status).toBe(400);

    const email = `new.${org.subdomain}@example.com`;
    const invited = await org.admin.post('/api/auth/addUser', { email, confirmEmail: email, role: 'worker' });
    expect(invited.status).toBe(201);
    expect(invited.body.newUser).toMatchObject({ email, role: 'worker', inviteStatus: 'PENDING' });
    expect(invited.body.newUser.passwordHash).toBeUndefined();
    const dup = await org.admin.post('/api/auth/addUser', { email, confirmEmail: email, role: 'worker' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('A user with this email already exists');

    const mail = await smtp().mailTo(email);
    const link = /http:\/\/[^\s"<>]+\/complete-registration\?token=([A-Za-z0-9_%-]+)/.exec(mail.text);
    expect(link?.[0].startsWith(`${publicOrigin(t.config, org.subdomain)}/complete-registration`)).toBe(true);
    const token = decodeURIComponent(link![1]);

    expect((await org.anonymous.get('/api/auth/verify-token')).body.error).toBe('No token found.');
    const bad = await org.anonymous.get('/api/auth/verify-token?token=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid or expired invite link.');
    // the token belongs to its organisation only
    const elsewhere = await createOrg(t);
    expect((await elsewhere.anonymous.get(`/api/auth/verify-token?token=${encodeURIComponent(token)}`)).body.error).toBe('Invalid or expired invite link.');
    expect((await org.anonymous.get(`/api/auth/verify-token?token=${encodeURIComponent(token)}`)).body).toEqual({ valid: true, email });

    const form = { token, firstName: 'Wendy', lastName: 'Worker', phoneNumber: '+15551234567', password: 'FirstPass123' };
    const incomplete = await org.anonymous.post('/api/auth/complete-registration', { token });
    expect(firstIssuesOf(incomplete.body)).toMatchObject({
      firstName: 'First Name is required',
      lastName: 'Last Name is required',
      password: 'Password is required',
    });
    expect(firstIssuesOf((await org.anonymous.post('/api/auth/complete-registration', { ...form, phoneNumber: '123' })).body)).toEqual({
      phoneNumber: 'Phone number must be 10 to 15 characters',
    });
    expect((await org.anonymous.post('/api/auth/complete-registration', form)).status).toBe(200);
    expect((await org.anonymous.post('/api/auth/complete-registration', form)).body.error).toBe('Invalid or expired invite link.');
    const login = await org.anonymous.post('/api/login', { email, password: 'FirstPass123' });
    expect(login.status).toBe(200);
    const list = await org.admin.get('/api/user/getCompanyUsers');
    expect(list.body.users.find((u: { email: string }) => u.email === email).inviteStatus).toBe('ACTIVE');
    expect(list.body.pagination).toEqual({ totalRecords: 2, currentPage: 1, totalPages: 1 });
    // The total rides on the page's rows; a page past the end still reports it, and filters count too.
    const past = await org.admin.get('/api/user/getCompanyUsers?page=3&pageSize=10');
    expect(past.body).toEqual({ users: [], pagination: { totalRecords: 2, currentPage: 3, totalPages: 1 } });
    const one = await org.admin.get('/api/user/getCompanyUsers?pageSize=10&name=' + encodeURIComponent(email));
    expect(one.body.pagination.totalRecords).toBe(1);
    expect(Object.keys(one.body.users[0])).not.toContain('total');
  });

  it('is for managers and admins only', async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker');
    expect((await worker.post('/api/auth/addUser', { email: 'z@x.example.com', confirmEmail: 'z@x.example.com', role: 'worker' })).status).toBe(403);
  });
});

describe('users', () => {
  it('applies the User edit rules and messages', async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker');
    const bad = await org.admin.put(`/api/user/updateUser/${worker.userId}`, {
      firstName: 'A',
      lastName: 'B',
      email: 'nope',
      phoneNumber: '12',
      jobTitle: 'x',
      role: 'boss',
    });
    expect(firstIssuesOf(bad.body)).toEqual({
      firstName: 'First Name must be at least 2 characters',
      lastName: 'Last Name must be at least 2 characters',
      email: 'Please provide a valid email',
      phoneNumber: 'Please provide a valid phone number',
      jobTitle: 'Job Title must be at least 2 characters',
      role: 'Role is required',
    });
    expect(firstIssuesOf((await org.admin.put(`/api/user/updateUser/${worker.userId}`, {})).body)).toMatchObject({
      firstName: 'First Name is required',
      email: 'Please provide a valid email',
      role: 'Role is required',
    });
    const ok = await org.admin.put(`/api/user/updateUser/${worker.userId}`, {
      firstName: 'Marcus',
      lastName: 'Lee',
      email: 'marcus@x.example.com',
      phoneNumber: '+15550001111',
      role: 'manager',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ firstName: 'Marcus', role: 'manager' });
  });

  it('refuses deleting oneself and changing one’s own role; workers edit only themselves', async () => {
    const org = await createOrg(t);
    const me = await org.as('manager');
    const worker = await org.as('worker');
    const meId = me.userId;
    expect((await me.del(`/api/user/deleteUser/${meId}`)).body.error).toBe('You cannot delete yourself');
    const own = await me.put(`/api/user/updateUser/${meId}`, { firstName: 'Manny', email: `manager1@${org.subdomain}.example.com`, role: 'worker' });
    expect(own.status).toBe(403);
    expect(own.body.error).toBe('You cannot change your own role');
    expect((await worker.put(`/api/user/updateUser/${meId}`, { firstName: 'Hacked', email: 'h@x.example.com', role: 'manager' })).status).toBe(403);
    expect((await worker.del(`/api/user/deleteUser/${meId}`)).status).toBe(403);
    expect((await me.del(`/api/user/deleteUser/${worker.userId}`)).status).toBe(200);
  });

  it('lets only an admin edit an admin (name, phone, e-mail, role) or delete one (decision 021, issue 45)', async () => {
    const org = await createOrg(t);
    const manager = await org.as('manager');
    const admin = await org.as('admin');
    const adminEmail = `admin2@${org.subdomain}.example.com`;
    const before = (await org.admin.get('/api/user/getCompanyUsers')).body.users.find((u: { id: number }) => u.id === admin.userId);
    expect(before).toMatchObject({ email: adminEmail, role: 'admin' });

    // the same e-mail and role, only the name and phone: still refused
    const name = await manager.put(`/api/user/updateUser/${admin.userId}`, {
      firstName: 'Mallory',
      lastName: 'Impostor',
      phoneNumber: '+15550009999',
      email: adminEmail,
      role: 'admin',
    });
    expect(name.status).toBe(403);
    expect(name.body.error).toBe('Only an admin can edit an admin');
    const email = await manager.put(`/api/user/updateUser/${admin.userId}`, { firstName: before.firstName, email: 'mine@x.example.com', role: 'admin' });
    expect(email.status).toBe(403);
    const role = await manager.put(`/api/user/updateUser/${admin.userId}`, { firstName: before.firstName, email: adminEmail, role: 'worker' });
    expect(role.status).toBe(403);
    const promote = await manager.put(`/api/user/updateUser/${(await org.as('worker')).userId}`, {
      firstName: 'Wes',
      email: 'wes2@x.example.com',
      role: 'admin',
    });
    expect(promote.status).toBe(403);
    expect(promote.body.error).toBe('Only an admin can change an admin role');
    expect((await manager.del(`/api/user/deleteUser/${admin.userId}`)).status).toBe(403);
    const after = (await org.admin.get('/api/user/getCompanyUsers')).body.users.find((u: { id: number }) => u.id === admin.userId);
    expect(after).toEqual(before);

    // an admin may edit another admin, and a manager a worker
    const byAdmin = await org.admin.put(`/api/user/updateUser/${admin.userId}`, {
      firstName: 'Ada',
      phoneNumber: '+15550001234',
      email: 'second.admin@x.example.com',
      role: 'admin',
    });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.user).toMatchObject({ firstName: 'Ada', phoneNumber: '+15550001234', email: 'second.admin@x.example.com' });
    const worker = await org.as('worker');
    expect((await manager.put(`/api/user/updateUser/${worker.userId}`, { firstName: 'Wes', email: 'wes@x.example.com', role: 'worker' })).status).toBe(200);
  });

  it('keeps the optional fields an update leaves out; an empty or null one is cleared', async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker');
    const full = {
      firstName: 'Marcus',
      lastName: 'Lee',
      email: 'marcus@x.example.com',
      phoneNumber: '+15550001111',
      jobTitle: 'Fitter',
      role: 'worker',
      language: 'ar',
      location: 'Hall 2',
    };
    expect((await org.admin.put(`/api/user/updateUser/${worker.userId}`, full)).status).toBe(200);
    const partial = await org.admin.put(`/api/user/updateUser/${worker.userId}`, { firstName: 'Marc', email: full.email, role: 'worker' });
    expect(partial.status).toBe(200);
    expect(partial.body.user).toMatchObject({ ...full, firstName: 'Marc' });
    const own = await worker.put(`/api/user/updateUser/${worker.userId}`, { firstName: 'Marc', email: full.email, role: 'worker', jobTitle: 'Lead fitter' });
    expect(own.body.user).toMatchObject({ ...full, firstName: 'Marc', jobTitle: 'Lead fitter' });
    const cleared = await org.admin.put(`/api/user/updateUser/${worker.userId}`, {
      firstName: 'Marc',
      email: full.email,
      role: 'worker',
      lastName: '',
      phoneNumber: null,
      jobTitle: '',
      location: null,
    });
    expect(cleared.body.user).toMatchObject({ firstName: 'Marc', lastName: '', phoneNumber: null, jobTitle: null, location: null, language: 'ar' });
  });

  it('stores related work stations, assets and services, returns them with the user, and only a manager changes them', async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker', { firstName: 'Marcus' });
    const r = await records(org.orgId);
    const base = { firstName: 'Marcus', email: `marcus@${org.subdomain}.example.com`, role: 'worker' };
    const fresh = (await org.admin.get('/api/user/getCompanyUsers?name=marcus')).body.users[0];
    expect(fresh).toMatchObject({ related_workStations: [], related_assets: [], related_services: [] });

    const res = await org.admin.put(`/api/user/updateUser/${worker.userId}`, {
      ...base,
      related_workStations: [r.stations[1].id, r.stations[0].id],
      related_assets: [{ id: r.assets[0].id }],
      related_services: [r.services[1].id],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const expected = {
      related_workStations: [
        { id: r.stations[0].id, name: 'Lathe' },
        { id: r.stations[1].id, name: 'Mill' },
      ],
      related_assets: [{ id: r.assets[0].id, name: 'Boiler' }],
      related_services: [{ id: r.services[1].id, title: 'Overhaul' }],
    };
    expect(res.body.user).toMatchObject(expected);
    // returned with the user everywhere: the list, the people of the application data, the worker's own app data
    expect((await org.admin.get('/api/user/getCompanyUsers?name=marcus')).body.users[0]).toMatchObject(expected);
    expect((await org.admin.get('/api/user/get-app-data')).body.workers.find((w: { id: number }) => w.id === worker.userId)).toMatchObject(expected);
    expect((await worker.get('/api/user/get-app-data')).body.loggedInUser).toMatchObject(expected);

    // a list left out is kept; an empty list clears it
    const kept = await org.admin.put(`/api/user/updateUser/${worker.userId}`, { ...base, related_assets: [] });
    expect(kept.body.user).toMatchObject({
      related_workStations: expected.related_workStations,
      related_assets: [],
      related_services: expected.related_services,
    });

    // a worker edits their own profile but not their related records
    const own = await worker.put(`/api/user/updateUser/${worker.userId}`, { ...base, related_services: [] });
    expect(own.status).toBe(403);
    expect(own.body.error).toBe('Only a manager can change related records');
    expect((await worker.put(`/api/user/updateUser/${worker.userId}`, { ...base, jobTitle: 'Fitter' })).status).toBe(200);

    // unknown ids and bad values are refused with a field message
    const unknown = await org.admin.put(`/api/user/updateUser/${worker.userId}`, { ...base, related_assets: [9999] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues).toEqual([{ path: 'related_assets', message: 'Select a valid asset' }]);
    const bad = await org.admin.put(`/api/user/updateUser/${worker.userId}`, { ...base, related_workStations: ['x'] });
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0].message).toBe('Select a valid work station');

    // deleting a related record removes the link, never blocks
    await org.admin.del(`/api/assets/delete-asset/${r.assets[1].id}`);
    await org.admin.put(`/api/user/updateUser/${worker.userId}`, { ...base, related_assets: [r.assets[1].id] }).then((x) => expect(x.status).toBe(400));
    expect((await org.admin.del(`/api/services/delete-service/${r.services[1].id}`)).status).toBe(200);
    expect((await org.admin.get('/api/user/getCompanyUsers?name=marcus')).body.users[0].related_services).toEqual([]);
  });

  it("filters the assets, services and work stations lists to a user's related ones (relatedTo)", async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker', { firstName: 'Marcus' });
    const other = await org.as('worker', { firstName: 'Sofia' });
    const r = await records(org.orgId);
    const base = { firstName: 'Marcus', email: `marcus@${org.subdomain}.example.com`, role: 'worker' };
    await org.admin.put(`/api/user/updateUser/${worker.userId}`, {
      ...base,
      related_workStations: [r.stations[1].id],
      related_assets: [r.assets[0].id],
      related_services: [r.services[0].id],
    });
    const names = (body: Record<string, { name?: string; title?: string }[]>, key: string) => body[key].map((x) => x.name ?? x.title);
    // the worker's own lists, "Only mine"
    expect(names((await worker.get(`/api/assets/get-assets?relatedTo=${worker.userId}`)).body, 'assets')).toEqual(['Boiler']);
    expect(names((await worker.get(`/api/services/get-services?relatedTo=${worker.userId}`)).body, 'services')).toEqual(['Inspection']);
    expect(names((await worker.get(`/api/workstations/get-workstations?relatedTo=${worker.userId}`)).body, 'workStations')).toEqual(['Mill']);
    const counted = (await worker.get(`/api/assets/get-assets?relatedTo=${worker.userId}`)).body.pagination;
    expect(counted.totalRecords).toBe(1);
    // someone with no related records sees none; without the filter, everything
    expect((await other.get(`/api/assets/get-assets?relatedTo=${other.userId}`)).body.assets).toEqual([]);
    expect((await other.get('/api/assets/get-assets')).body.assets).toHaveLength(2);
    expect((await worker.get('/api/assets/get-assets?relatedTo=x')).status).toBe(400);
  });

  it("refuses another organisation's records as related ones, and another organisation's user stays untouched", async () => {
    const a = await createOrg(t, 'A');
    const b = await createOrg(t, 'B');
    const worker = await a.as('worker', { firstName: 'Marcus' });
    const foreign = await records(b.orgId, 'B');
    const mine = await records(a.orgId);
    const base = { firstName: 'Marcus', email: `marcus@${a.subdomain}.example.com`, role: 'worker' };
    const res = await a.admin.put(`/api/user/updateUser/${worker.userId}`, { ...base, related_workStations: [foreign.stations[0].id + 100] });
    expect(res.status).toBe(400);
    expect((await a.admin.put(`/api/user/updateUser/${worker.userId}`, { ...base, related_workStations: [mine.stations[0].id] })).status).toBe(200);
    // B cannot relate or read A's user
    expect((await b.admin.put(`/api/user/updateUser/${worker.userId}`, { ...base, related_workStations: [foreign.stations[0].id] })).status).toBe(404);
    expect((await a.admin.get('/api/user/getCompanyUsers?name=marcus')).body.users[0].related_workStations).toEqual([
      { id: mine.stations[0].id, name: 'Lathe' },
    ]);
  });

  it('isolates organisations: another organisation gets 404 and changes nothing', async () => {
    const a = await createOrg(t, 'A');
    const b = await createOrg(t, 'B');
    const victim = await a.as('worker', { firstName: 'Victim' });
    expect((await b.admin.put(`/api/user/updateUser/${victim.userId}`, { firstName: 'Owned', email: 'o@x.example.com', role: 'worker' })).status).toBe(404);
    expect((await b.admin.del(`/api/user/deleteUser/${victim.userId}`)).status).toBe(404);
    const bList = await b.admin.get('/api/user/getCompanyUsers');
    expect(bList.body.users.map((u: { firstName: string }) => u.firstName)).not.toContain('Victim');
    const aList = await a.admin.get('/api/user/getCompanyUsers?name=victim');
    expect(aList.body.users).toHaveLength(1);
    expect(aList.body.users[0].firstName).toBe('Victim');
  });

  it('returns every key of the application data', async () => {
    const org = await createOrg(t);
    const data = await org.admin.get('/api/user/get-app-data');
    expect(Object.keys(data.body)).toEqual(
      expect.arrayContaining([
        'assetCategories',
        'assets',
        'maintenanceOrders',
        'services',
        'workers',
        'workOrders',
        'workStations',
        'loggedInUser',
        'parts',
        'uomCategories',
        'company',
        'productCategories',
        'taxes',
        'timeTrackReasons',
      ]),
    );
    expect(data.body.loggedInUser.email).toBe(org.email);
  });
});

describe('uploads', () => {
  it('accepts a real image, re-encoded and served with nosniff', async () => {
    const org = await createOrg(t);
    const png = await solidImage('png', 300, 200, '#336699');
    const res = await upload(org.host, org.admin.token!, '/api/user/addProfilePicture', png);
    expect(res.status).toBe(200);
    expect(res.body.user.profilePicture).toMatch(/^\/uploads\/org-\d+\/[0-9a-f-]+\.webp\?exp=\d+&sig=[\w-]+$/); // signed (decision 024);
    expect(res.body.user.profilePictureLow).toMatch(/\.webp\?/);
    const served = await t.app.inject({ method: 'GET', url: res.body.user.profilePicture, headers: { host: org.host } });
    expect(served.statusCode).toBe(200);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-type']).toBe('image/webp');
  });

  it('refuses a text file named .png, an oversize file and a decompression bomb with the spec’s messages', async () => {
    const org = await createOrg(t);
    const token = org.admin.token!;
    const text = await upload(org.host, token, '/api/user/addProfilePicture', Buffer.from('<html><script>alert(1)</script></html>'), 'evil.png', 'image/png');
    expect(text.status).toBe(415);
    expect(text.body.error).toBe('Invalid file type. Only JPG, PNG, and WEBP are allowed.');
    const big = await upload(org.host, token, '/api/user/addProfilePicture', Buffer.alloc(2097152 + 10, 1), 'big.png');
    expect(big.status).toBe(413);
    expect(big.body.error).toBe('File size exceeds 2MB limit.');
    const small = await solidImage('png', 8, 8, '#000');
    const bomb = await upload(org.host, token, '/api/user/addProfilePicture', pngClaiming(small, 60_000, 60_000), 'bomb.png');
    expect(bomb.status).toBe(415);
    // the generic image rule on the company logo
    const logoText = await upload(org.host, token, '/api/company/add-profile-picture', Buffer.from('just text'), 'logo.png');
    expect(logoText.body.error).toBe('Only JPEG, PNG, and WebP images are allowed.');
    const logoBig = await upload(org.host, token, '/api/company/add-profile-picture', Buffer.alloc(5 * 1024 * 1024 + 10, 1), 'logo.png');
    expect(logoBig.status).toBe(413);
    expect(logoBig.body.error).toBe('Image size should not exceed 5MB.');
    // nothing was stored
    expect((await org.admin.get('/api/user/get-app-data')).body.loggedInUser.profilePicture).toBeNull();
  });

  it('needs a signed-in caller on the organisation’s host', async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    const png = await solidImage('png', 4, 4, '#fff');
    expect((await upload(b.host, a.admin.token!, '/api/user/addProfilePicture', png)).status).toBe(401);
    void client;
  });
});
