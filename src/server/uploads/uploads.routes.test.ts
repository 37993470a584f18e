import { describe, expect, it } from 'vitest';
import { solidImage } from '../test/images';
import { and, eq } from 'drizzle-orm';
import { createOrg, useTestApp, type Client } from '../test/harness';
import { withTenant } from '../db/client';
import { customerVendors, parts } from '../db/schema';
import { commercialRows, type CommercialRows } from '../../features/commercial-documents/test-fixtures';
import { catalogue } from '../../features/maintenance-requests/test-fixtures';
import { uploadSigner } from './storage';
import { correctiveRequest, PDF, type UploadFile } from '../test/fixtures';

const t = useTestApp();

const SIGNED = /^(\/uploads\/org-\d+\/[0-9a-f-]{36}\.(?:webp|pdf))\?exp=\d+&sig=[\w-]+$/;
const png = () => solidImage('png', 40, 30, '#336699');

/** POSTs files as multipart/form-data, the way the SPA's forms do; they must be taken. */
async function upload(c: Client, url: string, files: UploadFile[]) {
  const res = await c.upload(url, files);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** GET a file the way an <img> does: no token, no cookie. */
const fetchFile = async (url: string, host = 'x.localhost') => (await t.app.inject({ method: 'GET', url, headers: { host } })).statusCode;
/** The stored URL behind a signed one. */
const stored = (signed: string) => SIGNED.exec(signed)![1];
/** Whether the file is still in storage. */
const onDisk = async (url: string) => (await t.app.deps.storage.read(stored(url))) !== null;

describe('uploaded files are served only through a signed, expiring URL of their organisation (decision 024)', () => {
  it("signs the organisation's URLs in responses; the stored URL, a tampered, moved or expired signature gets 404", async () => {
    const org = await createOrg(t);
    const res = await upload(org.admin, '/api/user/addProfilePicture', [{ field: 'image', name: 'me.png', bytes: await png(), type: 'image/png' }]);
    const url: string = res.user.profilePicture;
    expect(url).toMatch(SIGNED);
    // The same URL again on the next read (same hour): the browser's cache keeps the image.
    const again = await org.admin.get('/api/user/get-app-data');
    expect(JSON.stringify(again.body)).toContain(url);

    expect(await fetchFile(url)).toBe(200);
    expect(await fetchFile(stored(url))).toBe(404); // signed out: the bare path is no longer a capability
    const sig = new URL(url, 'http://x').searchParams.get('sig')!;
    const exp = new URL(url, 'http://x').searchParams.get('exp')!;
    expect(await fetchFile(url.replace(`sig=${sig}`, `sig=${sig.slice(0, -2)}AA`))).toBe(404);
    expect(await fetchFile(url.replace(`exp=${exp}`, `exp=${Number(exp) + 3600}`))).toBe(404);
    // The low-resolution file's signature does not open the full one.
    const low = stored(res.user.profilePictureLow);
    expect(await fetchFile(`${low}?exp=${exp}&sig=${sig}`)).toBe(404);
    // Another organisation's folder, same name: the signature is bound to the path.
    expect(await fetchFile(url.replace(`/org-${org.orgId}/`, `/org-${org.orgId + 1}/`))).toBe(404);
    // Expired: signed three hours ago, with the real key.
    const old = uploadSigner(t.config.jwtSecret).sign(stored(url), Date.now() - 3 * 3600_000);
    expect(await fetchFile(old)).toBe(404);
    expect(await fetchFile(uploadSigner(t.config.jwtSecret).sign(stored(url)))).toBe(200);
    expect(await fetchFile(uploadSigner('another secret').sign(stored(url)))).toBe(404);
  });

  it("never signs another organisation's file, nor for a signed-out caller", async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    const res = await upload(a.admin, '/api/user/addProfilePicture', [{ field: 'image', name: 'me.png', bytes: await png(), type: 'image/png' }]);
    const path = stored(res.user.profilePicture);
    // b's member gets a's path into a response of theirs (a note): it leaves unsigned, so it opens nothing.
    expect((await b.admin.post('/api/teams/add-team', { name: 'Crew', members: [{ workerId: 1 }] })).status).toBe(201);
    const noted = await b.admin.post('/api/activities/team/1/notes', { note: path });
    expect(noted.status).toBe(201);
    expect(noted.body.activities[0].note).toBe(path);
    expect(await fetchFile(path, b.host)).toBe(404);
    // Signed out: no signature either.
    const anonymous = await a.anonymous.get('/api/user/get-app-data');
    expect(JSON.stringify(anonymous.body)).not.toMatch(/sig=/);
  });

  it('takes the signature off a URL sent back, so the record keeps the stored URL', async () => {
    const org = await createOrg(t);
    const r = await commercialRows(t, org.orgId);
    const up = await upload(org.admin, '/api/quotations/upload-attachments', [{ field: 'attachments', name: 'site.pdf', bytes: PDF, type: 'application/pdf' }]);
    const signed: string = up.attachments[0].url;
    expect(signed).toMatch(SIGNED);
    const added = await org.admin.post('/api/quotations/add-quotation', quotation(r, [{ url: signed, name: 'site.pdf' }]));
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const { quotations } = await import('../db/schema');
    const [row] = await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .select({ attachments: quotations.attachments })
        .from(quotations)
        .where(and(eq(quotations.orgId, org.orgId), eq(quotations.id, added.body.quotation.id))),
    );
    expect(row.attachments).toEqual([{ url: stored(signed), name: 'site.pdf' }]);
  });
});

function quotation(r: CommercialRows, attachments: unknown[]) {
  return {
    overview: {
      customer: r.customer.id,
      salesPerson: 1,
      quotationDate: new Date().toISOString(),
      expirationDate: new Date(Date.now() + 30 * 86400_000).toISOString(),
      attachments,
    },
    serviceDetails: [{ serviceId: r.service.id, quantity: 1, price: 10, discount: 0, taxId: r.vat10.id }],
    partDetails: [],
  };
}

describe("a record's uploaded files leave storage when it is deleted (decision 024)", () => {
  it("a user's picture", async () => {
    const org = await createOrg(t);
    const worker = await org.as('worker');
    const res = await upload(worker, '/api/user/addProfilePicture', [{ field: 'image', name: 'me.png', bytes: await png(), type: 'image/png' }]);
    const files = [res.user.profilePicture, res.user.profilePictureLow];
    expect(await onDisk(files[0])).toBe(true);
    expect((await org.admin.del(`/api/user/deleteUser/${worker.userId}`)).status).toBe(200);
    for (const f of files) {
      expect(await onDisk(f)).toBe(false);
      expect(await fetchFile(f)).toBe(404);
    }
  });

  it("a part's image", async () => {
    const org = await createOrg(t);
    const r = await commercialRows(t, org.orgId);
    // A part no document uses.
    const [part] = await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .insert(parts)
        .values({
          orgId: org.orgId,
          name: 'Spare gasket',
          type: 'consumable',
          skuCode: 'GSK-1',
          salesPrice: 4,
          categoryId: r.part.categoryId,
          unitOfMeasureId: r.part.unitOfMeasureId,
          purchaseUnitOfMeasureId: r.part.purchaseUnitOfMeasureId,
        })
        .returning(),
    );
    const res = await upload(org.admin, `/api/parts/add-image/${part.id}`, [{ field: 'image', name: 'p.png', bytes: await png(), type: 'image/png' }]);
    expect(await onDisk(res.part.image)).toBe(true);
    expect((await org.admin.del(`/api/parts/delete-part/${part.id}`)).status).toBe(200);
    expect(await onDisk(res.part.image)).toBe(false);
    expect(await onDisk(res.part.imageLow)).toBe(false);
  });

  it("a customer's picture and documents; a refused delete keeps them", async () => {
    const org = await createOrg(t);
    const r = await commercialRows(t, org.orgId);
    const pic = await upload(org.admin, `/api/customer-vendors/add-profile-picture/${r.customer.id}`, [
      { field: 'image', name: 'c.png', bytes: await png(), type: 'image/png' },
    ]);
    const picture: string = pic.customerVendor.profilePictureFull;
    const docs = await upload(org.admin, '/api/customer-vendors/upload-documents', [
      { field: 'documents', name: 'contract.pdf', bytes: PDF, type: 'application/pdf' },
    ]);
    const doc: string = docs.documents[0].url;
    await withTenant(t.database.db, org.orgId, (tx) =>
      tx
        .update(customerVendors)
        .set({ customerDocuments: [{ url: stored(doc), name: 'contract.pdf' }] })
        .where(and(eq(customerVendors.orgId, org.orgId), eq(customerVendors.id, r.customer.id))),
    );
    // Used by a quotation: the delete is refused and the files stay.
    expect((await org.admin.post('/api/quotations/add-quotation', quotation(r, []))).status).toBe(201);
    expect((await org.admin.del(`/api/customer-vendors/delete-customer-vendor/${r.customer.id}`)).status).toBe(409);
    expect(await onDisk(picture)).toBe(true);
    expect(await onDisk(doc)).toBe(true);
    expect((await org.admin.del('/api/quotations/delete-quotation/1')).status).toBe(200);
    expect((await org.admin.del(`/api/customer-vendors/delete-customer-vendor/${r.customer.id}`)).status).toBe(200);
    expect(await onDisk(picture)).toBe(false);
    expect(await onDisk(doc)).toBe(false);
  });

  it("a quotation's attachments", async () => {
    const org = await createOrg(t);
    const r = await commercialRows(t, org.orgId);
    const up = await upload(org.admin, '/api/quotations/upload-attachments', [{ field: 'attachments', name: 'site.pdf', bytes: PDF, type: 'application/pdf' }]);
    const added = await org.admin.post('/api/quotations/add-quotation', quotation(r, up.attachments));
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const worker = await org.as('worker');
    expect((await worker.del(`/api/quotations/delete-quotation/${added.body.quotation.id}`)).status).toBe(403);
    expect(await onDisk(up.attachments[0].url)).toBe(true);
    expect((await org.admin.del(`/api/quotations/delete-quotation/${added.body.quotation.id}`)).status).toBe(200);
    expect(await onDisk(up.attachments[0].url)).toBe(false);
  });

  it("a maintenance request's attachments: one removed, then the rest with the request", async () => {
    const org = await createOrg(t);
    const refs = await catalogue(t, org.orgId);
    const added = await org.admin.post('/api/maintenance-requests/add-maintenance-request', correctiveRequest(refs));
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const id = added.body.maintenanceRequest.id;
    const res = await upload(org.admin, `/api/maintenance-requests/add-attachments/${id}`, [
      { field: 'files', name: 'a.pdf', bytes: PDF, type: 'application/pdf' },
      { field: 'files', name: 'b.png', bytes: await png(), type: 'image/png' },
    ]);
    const [first, second] = [...res.request.documents, ...res.request.images].map((d: { url: string }) => d.url);
    // The SPA sends back the URL it was shown, signed.
    expect((await org.admin.del(`/api/maintenance-requests/delete-attachment/${id}?url=${encodeURIComponent(first)}`)).status).toBe(200);
    expect(await onDisk(first)).toBe(false);
    expect(await onDisk(second)).toBe(true);
    expect((await org.admin.del(`/api/maintenance-requests/delete-maintenance-request/${id}`)).status).toBe(200);
    expect(await onDisk(second)).toBe(false);
  });
});
