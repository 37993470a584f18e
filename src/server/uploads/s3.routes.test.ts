import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { solidImage } from '../test/images';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminGet, createOrg, createTestApp, type Client, type TestApp, type TestOrg } from '../test/harness';
import { PDF, unzip } from '../test/fixtures';
import { startTestBucket, type TestBucket } from '../test/s3';
import { catalogue } from '../../features/maintenance-requests/test-fixtures';
import { correctiveRequest } from '../test/fixtures';

const SIGNED = /^\/uploads\/(org-\d+\/[0-9a-f-]{36}\.(?:webp|pdf))\?exp=\d+&sig=[\w-]+$/;
/** The bucket key behind a signed URL (`org-<id>/<uuid>.<ext>`). */
const keyOf = (signed: string) => SIGNED.exec(signed)![1];
const png = () => solidImage('png', 64, 48, '#884422');
/** A PDF of some size: the fixture's header and body, then random bytes (any byte value, several network chunks). */
const bigPdf = Buffer.concat([PDF, randomBytes(200_000)]);

/** GET a file the way an <img> does (no token), from the given app. */
const fetchFile = (t: TestApp, url: string, host: string) => t.app.inject({ method: 'GET', url, headers: { host } });

async function requestWithFiles(t: TestApp, org: TestOrg) {
  const refs = await catalogue(t, org.orgId);
  const added = await org.admin.post('/api/maintenance-requests/add-maintenance-request', correctiveRequest(refs));
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const id: number = added.body.maintenanceRequest.id;
  const res = await org.admin.upload(`/api/maintenance-requests/add-attachments/${id}`, [
    { field: 'files', name: 'report.pdf', bytes: bigPdf, type: 'application/pdf' },
    { field: 'files', name: 'photo.png', bytes: await png(), type: 'image/png' },
  ]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // The request keeps both among its documents (the photo re-encoded to WebP).
  const urls: string[] = [...res.body.request.documents, ...res.body.request.images].map((d: { url: string }) => d.url);
  expect(urls).toHaveLength(2);
  return { id, pdf: urls.find((u) => u.includes('.pdf?'))!, photo: urls.find((u) => u.includes('.webp?'))! };
}

const zipOf = async (t: TestApp, org: { host: string; admin: Client }) => {
  const res = await adminGet(t, org, '/api/data-transfer/export-organisation');
  expect(res.statusCode, res.body).toBe(200);
  return unzip(res.rawPayload);
};

describe('uploads in an S3 bucket (S3_BUCKET; decision 061)', () => {
  let bucket: TestBucket;
  let t: TestApp;
  beforeAll(async () => {
    bucket = await startTestBucket();
    t = await createTestApp({ s3: bucket.s3 });
  });
  afterAll(async () => {
    await t?.close();
    await bucket?.close();
  });

  it("stores a request's PDF and photo in the bucket, serves them byte for byte, archives them, deletes them from the bucket; another organisation gets 404 and changes nothing", async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    const { id, pdf, photo } = await requestWithFiles(t, a);

    // In the bucket, not on this instance's disk.
    expect((await bucket.object(keyOf(pdf)))?.equals(bigPdf)).toBe(true);
    const photoBytes = await bucket.object(keyOf(photo));
    expect(photoBytes?.subarray(8, 12).toString()).toBe('WEBP'); // re-encoded, as in the folder
    expect(existsSync(join(t.config.dataDir, 'uploads'))).toBe(false);

    // Served through the app, by the signed URL, byte for byte.
    const served = await fetchFile(t, pdf, a.host);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.rawPayload.equals(bigPdf)).toBe(true);
    expect((await fetchFile(t, photo, a.host)).rawPayload.equals(photoBytes!)).toBe(true);
    expect((await fetchFile(t, photo.split('?')[0], a.host)).statusCode).toBe(404);

    // The organisation's archive holds both, byte for byte; the other organisation's holds neither.
    const files = await zipOf(t, a);
    expect(files.get(`files/${keyOf(pdf).split('/')[1]}`)?.equals(bigPdf)).toBe(true);
    expect(files.get(`files/${keyOf(photo).split('/')[1]}`)?.equals(photoBytes!)).toBe(true);
    expect([...(await zipOf(t, b)).keys()].filter((n) => n.startsWith('files/'))).toEqual([]);

    // Another organisation: its responses never sign a's path (so the file is 404 to it), and it cannot delete it.
    expect((await b.admin.post('/api/teams/add-team', { name: 'Crew', members: [{ workerId: 1 }] })).status).toBe(201);
    const noted = await b.admin.post('/api/activities/team/1/notes', { note: pdf.split('?')[0] });
    expect(noted.body.activities[0].note).toBe(pdf.split('?')[0]);
    expect((await fetchFile(t, noted.body.activities[0].note, b.host)).statusCode).toBe(404);
    expect((await b.admin.del(`/api/maintenance-requests/delete-attachment/${id}?url=${encodeURIComponent(pdf)}`)).status).toBe(404);
    expect((await bucket.object(keyOf(pdf)))?.equals(bigPdf)).toBe(true);

    // Deleted: gone from the bucket and no longer served; the request's deletion takes the photo.
    expect((await a.admin.del(`/api/maintenance-requests/delete-attachment/${id}?url=${encodeURIComponent(pdf)}`)).status).toBe(200);
    expect(await bucket.object(keyOf(pdf))).toBeNull();
    expect((await fetchFile(t, pdf, a.host)).statusCode).toBe(404);
    expect(await bucket.object(keyOf(photo))).not.toBeNull();
    expect((await a.admin.del(`/api/maintenance-requests/delete-maintenance-request/${id}`)).status).toBe(200);
    expect(await bucket.object(keyOf(photo))).toBeNull();
    expect(await bucket.keys()).toEqual([]);
  });

  it("prints the organisation's logo, read from the bucket, on its asset labels", async () => {
    const org = await createOrg(t);
    const { asset } = await catalogue(t, org.orgId);
    const images = async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/portal/asset-labels',
        payload: { assetIds: [asset.id], layout: 'single-large' },
        headers: { host: org.host, authorization: `Bearer ${org.admin.token}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.rawPayload.toString('latin1').split('/Subtype /Image').length - 1;
    };
    const before = await images();
    const up = await org.admin.upload('/api/company/add-profile-picture', [{ field: 'image', name: 'logo.png', bytes: await png(), type: 'image/png' }]);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const logo = JSON.stringify(up.body).match(/\/uploads\/org-\d+\/[0-9a-f-]{36}\.webp\?exp=\d+&sig=[\w-]+/)![0];
    expect(await bucket.object(keyOf(logo))).not.toBeNull();
    expect(await images()).toBeGreaterThan(before);
  });
});

/**
 * Two instances behind a round-robin proxy: two apps, each with its own data folder, on one database and one
 * bucket. On PostgreSQL each has its own connections to the one database; on PGlite (one process owns the
 * database) the two apps of this process share the worker's database handle, which is what the storage needs.
 */
describe('two instances, one bucket', () => {
  let bucket: TestBucket;
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    bucket = await startTestBucket('cmms/');
    // One secret, as a deployment's instances share JWT_SECRET: a token or a signed URL of one is good at the other.
    const jwtSecret = `shared-${randomBytes(8).toString('hex')}`;
    one = await createTestApp({ s3: bucket.s3, jwtSecret });
    two = await createTestApp({ s3: bucket.s3, jwtSecret });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await bucket?.close();
  });

  it('serves at one what was uploaded through the other, archives it there, and a delete through one is gone at the other', async () => {
    expect(one.config.dataDir).not.toBe(two.config.dataDir);
    const org = await createOrg(one);
    const { id, pdf, photo } = await requestWithFiles(one, org);
    const atTwo = await fetchFile(two, pdf, org.host);
    expect(atTwo.statusCode).toBe(200);
    expect(atTwo.rawPayload.equals(bigPdf)).toBe(true);
    expect((await fetchFile(two, photo, org.host)).statusCode).toBe(200);
    expect((await zipOf(two, org)).get(`files/${keyOf(pdf).split('/')[1]}`)?.equals(bigPdf)).toBe(true);

    // Deleted through the second instance (the same organisation's admin, the same token).
    const del = await two.app.inject({
      method: 'DELETE',
      url: `/api/maintenance-requests/delete-attachment/${id}?url=${encodeURIComponent(pdf)}`,
      headers: { host: org.host, authorization: `Bearer ${org.admin.token}` },
    });
    expect(del.statusCode, del.body).toBe(200);
    expect((await fetchFile(one, pdf, org.host)).statusCode).toBe(404);
    expect((await fetchFile(two, pdf, org.host)).statusCode).toBe(404);
    expect(await bucket.keys()).toEqual([`cmms/${keyOf(photo)}`]);
  });
});
