import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { withoutTenant, withTenant } from './db/client';
import { mailOutbox, users } from './db/schema';
import { createOrg, useTestApp, type TestOrg } from './test/harness';
import { catalogue } from '../features/maintenance-requests/test-fixtures';

// Decision 065: e-mails in the recipient's language, HTML right to left in Arabic; read from the outbox.
const t = useTestApp();

const RUN = Math.random().toString(36).slice(2, 8);
const addr = (name: string) => `${name}-${RUN}@example.com`;
const mailsTo = (to: string) => withoutTenant(t.database.db, (tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(mailOutbox.id));
const ARABIC = /[\u0600-\u06FF]/;

function expectArabic(mail: { subject: string; text: string; html: string | null }, words: string, htmlWords = words) {
  expect(mail.text).toContain(words);
  expect(mail.subject).toMatch(ARABIC);
  expect(mail.html).toContain('<html lang="ar" dir="rtl">');
  expect(mail.html).toContain('<body dir="rtl"');
  expect(mail.html).toContain(htmlWords);
}
function expectEnglish(mail: { subject: string; text: string; html: string | null }, words: string) {
  expect(mail.text).toContain(words);
  expect(mail.html).toContain('<html lang="en" dir="ltr">');
}

async function setLanguage(org: TestOrg, email: string, language: 'en' | 'ar') {
  await withTenant(t.database.db, org.orgId, (tx) =>
    tx
      .update(users)
      .set({ language })
      .where(and(eq(users.orgId, org.orgId), eq(users.email, email))),
  );
}

describe('e-mails in the recipient’s language', () => {
  it('a portal requester reads the language the request was filed in, for every mail of the request', async () => {
    const org = await createOrg(t, 'Mail Portal');
    const { asset } = await catalogue(t, org.orgId, 'M');
    await org.admin.put('/api/portal/settings', {
      enabled: true,
      nameField: 'optional',
      emailField: 'optional',
      phoneField: 'hidden',
      notifyRequester: true,
      welcome: '',
      published: [{ kind: 'asset', id: asset.id }],
    });
    const arabic = addr('ar-requester');
    const sent = await org.anonymous.upload('/api/portal/submit-request', [], {
      where: `asset:${asset.id}`,
      description: 'تسرب زيت تحت المضخة',
      email: arabic,
      language: 'ar',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    // the answer stays the contract's English
    expect(sent.body.message).toBe('Request received');
    const [received] = await mailsTo(arabic);
    expectArabic(received, `استلمنا طلبك ${sent.body.number}`, 'استلمنا طلبك');

    const [{ id }] = (await org.admin.get('/api/portal/list-requests')).body.requests as { id: number }[];
    expect((await org.admin.post(`/api/portal/reply-request/${id}`, { body: 'A technician comes tomorrow' })).status).toBe(200);
    const reply = (await mailsTo(arabic)).at(-1)!;
    expectArabic(reply, 'ردّ الفريق على طلبك');
    expect(reply.text).toContain('A technician comes tomorrow');

    const english = addr('en-requester');
    const plain = await org.anonymous.upload('/api/portal/submit-request', [], { where: `asset:${asset.id}`, description: 'Oil leak', email: english });
    expect(plain.status).toBe(201);
    const [mail] = await mailsTo(english);
    expectEnglish(mail, `We received your request ${plain.body.number}`);
  });

  it('an invitation in the inviting admin’s choice, else in the admin’s own language', async () => {
    const org = await createOrg(t, 'Mail Invite');
    const chosen = addr('invited-ar');
    expect((await org.admin.post('/api/auth/addUser', { email: chosen, confirmEmail: chosen, role: 'worker', language: 'ar' })).status).toBe(201);
    const [invite] = await mailsTo(chosen);
    expectArabic(invite, 'تمت دعوتك للانضمام إلى');
    expect(invite.text).toContain('بصفة عامل');

    const english = addr('invited-en');
    expect((await org.admin.post('/api/auth/addUser', { email: english, confirmEmail: english, role: 'manager' })).status).toBe(201);
    expectEnglish((await mailsTo(english))[0], 'You have been invited to join');

    await setLanguage(org, `admin@${org.subdomain}.example.com`, 'ar');
    const own = addr('invited-own');
    expect((await org.admin.post('/api/auth/addUser', { email: own, confirmEmail: own, role: 'manager' })).status).toBe(201);
    expectArabic((await mailsTo(own))[0], 'بصفة مدير');
  });

  it('a contractor reads the share’s language: the sharing manager’s own, and every later mail of the share', async () => {
    const org = await createOrg(t, 'Mail Share');
    await setLanguage(org, `admin@${org.subdomain}.example.com`, 'ar');
    const order = await org.admin.post('/api/work-orders/add-work-order', { title: 'صيانة المبرد', instructions: '<p>x</p>' });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const contractor = addr('contractor');
    const shared = await org.admin.post('/api/shared-work-orders/create-share', {
      workOrderId: order.body.workOrder.id,
      contractorName: 'Coolair',
      email: contractor,
    });
    expect(shared.status, JSON.stringify(shared.body)).toBe(201);
    const [mail] = await mailsTo(contractor);
    expectArabic(mail, 'أمر العمل');
    expect(mail.html).toContain('<bdi>صيانة المبرد</bdi>');

    const comment = await org.admin.post(`/api/shared-work-orders/add-share-comment/${shared.body.share.id}`, { body: 'Bring the ladder' });
    expect(comment.status, JSON.stringify(comment.body)).toBe(200);
    expectArabic((await mailsTo(contractor)).at(-1)!, 'افتح أمر العمل بالرابط الذي وصلك');

    const english = addr('contractor-en');
    const chosen = await org.admin.post('/api/shared-work-orders/create-share', {
      workOrderId: order.body.workOrder.id,
      contractorName: 'Coolair',
      email: english,
      language: 'en',
    });
    expect(chosen.status).toBe(201);
    expectEnglish((await mailsTo(english))[0], 'shared the work order');
  });

  it('staff mails about a contractor’s work in each recipient’s own language (issue 46)', async () => {
    const org = await createOrg(t, 'Mail Staff');
    const worker = await org.as('worker');
    await setLanguage(org, `admin@${org.subdomain}.example.com`, 'ar');
    const order = await org.admin.post('/api/work-orders/add-work-order', { title: 'Chiller service', instructions: '<p>x</p>', assignees: [worker.userId] });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const shared = await org.admin.post('/api/shared-work-orders/create-share', {
      workOrderId: order.body.workOrder.id,
      contractorName: 'Coolair',
      email: addr('staff-contractor'),
      language: 'en',
    });
    expect(shared.status, JSON.stringify(shared.body)).toBe(201);
    const token = new URL(shared.body.link).searchParams.get('token')!;
    const comment = await org.anonymous.post(`/api/shared-work-orders/add-shared-comment?token=${encodeURIComponent(token)}`, { body: 'On site' });
    expect(comment.status, JSON.stringify(comment.body)).toBe(201);
    const admin = (await mailsTo(`admin@${org.subdomain}.example.com`)).at(-1)!;
    expectArabic(admin, '(مقاول) علّق في أمر العمل');
    expect(admin.html).toContain('<bdi>Chiller service</bdi>');
    expectEnglish((await mailsTo(`worker1@${org.subdomain}.example.com`)).at(-1)!, 'Coolair (contractor) commented on work order');
  });

  it('a disabled webhook’s mail to an admin in the admin’s language (issue 46)', async () => {
    const { mailTexts } = await import('./mail-language');
    const ar = mailTexts.webhookDisabled('ar', { url: 'https://x.example.com/hook', hours: 73, lastError: 'HTTP 503' });
    expectArabic({ ...ar }, 'تم تعطيل نقطة استقبال webhook');
    expect(ar.text).toContain('73 ساعة');
    expectEnglish(
      mailTexts.webhookDisabled('en', { url: 'https://x.example.com/hook', hours: 73, lastError: 'HTTP 503' }),
      'Every delivery failed for 73 hours (last: HTTP 503)',
    );
  });
});
