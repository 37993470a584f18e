import { escapeHtml } from './mailer';

/**
 * The language of an e-mail (decision 065): the recipient's. Staff have `users.language`; a portal requester the
 * language the request was filed in (`portal_requests.language`); a contractor the language the share was made
 * in (`work_order_shares.language`, the sharing manager's unless chosen); an invitation the inviting admin's
 * choice, else the admin's own language.
 */
export type MailLanguage = 'en' | 'ar';

export const mailLanguage = (value: unknown): MailLanguage => (value === 'ar' ? 'ar' : 'en');

/**
 * A mail's HTML as a whole document in its language: `<html lang dir>` and the body's own `dir` (mail clients
 * drop the html element), right-aligned in Arabic. `body` is HTML already escaped by the caller.
 */
export function mailHtml(lang: MailLanguage, body: string): string {
  const dir = lang === 'ar' ? 'rtl' : 'ltr';
  const align = lang === 'ar' ? 'right' : 'left';
  return `<!doctype html><html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"></head><body dir="${dir}" style="direction:${dir};text-align:${align}"><div lang="${lang}" dir="${dir}">${body}</div></body></html>`;
}

/** User data inside a mail's sentence (a name, a title): isolated, so an Arabic name in English text, or the reverse, keeps its order. */
export const bdi = (text: string) => `<bdi>${escapeHtml(text)}</bdi>`;
/** The same in plain text: Unicode's first-strong isolate around the value. */
export const isolate = (text: string) => `\u2068${text}\u2069`;

const ROLE_WORDS: Record<MailLanguage, Record<string, string>> = {
  en: { admin: 'admin', manager: 'manager', worker: 'worker' },
  ar: { admin: 'مسؤول', manager: 'مدير', worker: 'عامل' },
};

export const PORTAL_STATUS_WORDS: Record<MailLanguage, Record<string, string>> = {
  en: { received: 'received', accepted: 'accepted', scheduled: 'scheduled', 'in-progress': 'in progress', done: 'done', declined: 'declined' },
  ar: { received: 'مستلم', accepted: 'مقبول', scheduled: 'مجدول', 'in-progress': 'قيد التنفيذ', done: 'منجز', declined: 'مرفوض' },
};

/** The reasons the portal flow gives a requester (request-portal.flow.ts), in Arabic. */
const PORTAL_REASONS_AR: Record<string, string> = {
  'The work was cancelled': 'تم إلغاء العمل',
  'The request was not accepted for maintenance': 'لم يُقبل الطلب للصيانة',
};

/** What a contractor did (work-order-shares.service.ts), in Arabic, for the team's mail. */
const CONTRACTOR_WHAT_AR: Record<string, string> = {
  commented: 'علّق',
  'added files': 'أضاف ملفات',
  'logged time': 'سجّل وقتًا',
  'reported a part': 'أبلغ عن قطعة',
  'marked the work as done for review': 'أشار إلى أن العمل منجز للمراجعة',
  'updated the work': 'حدّث العمل',
};

export interface MailParts {
  subject: string;
  text: string;
  html: string;
}

export const mailTexts = {
  invitation(lang: MailLanguage, v: { organization: string; role: string; link: string; hours: number }): MailParts {
    const role = ROLE_WORDS[lang][v.role] ?? v.role;
    if (lang === 'ar')
      return {
        subject: `دعوة للانضمام إلى ${isolate(v.organization)}`,
        text: `تمت دعوتك للانضمام إلى ${isolate(v.organization)} بصفة ${role}.\n\nأكمل تسجيلك: ${v.link}\n\nتنتهي صلاحية الرابط خلال ${v.hours} ساعة.`,
        html: mailHtml(
          'ar',
          `<p>تمت دعوتك للانضمام إلى <b>${bdi(v.organization)}</b> بصفة ${role}.</p><p><a href="${v.link}">أكمل تسجيلك</a></p><p>تنتهي صلاحية الرابط خلال ${v.hours} ساعة.</p>`,
        ),
      };
    return {
      subject: `You are invited to ${v.organization}`,
      text: `You have been invited to join ${v.organization} as ${v.role}.\n\nComplete your registration: ${v.link}\n\nThe link expires in ${v.hours} hours.`,
      html: mailHtml(
        'en',
        `<p>You have been invited to join <b>${bdi(v.organization)}</b> as ${v.role}.</p><p><a href="${v.link}">Complete your registration</a></p><p>The link expires in ${v.hours} hours.</p>`,
      ),
    };
  },

  portalReceived(lang: MailLanguage, v: { organization: string; number: string; statusUrl: string }): MailParts {
    if (lang === 'ar')
      return {
        subject: `${isolate(v.organization)}: استلمنا طلبك ${v.number}`,
        text: `شكرًا لك. استلمنا طلبك ${v.number}.\n\nتابعه من هنا (احتفظ بهذا الرابط لنفسك): ${v.statusUrl}`,
        html: mailHtml(
          'ar',
          `<p>شكرًا لك. استلمنا طلبك <b dir="ltr">${v.number}</b>.</p><p><a href="${v.statusUrl}">تابعه من هنا</a> (احتفظ بهذا الرابط لنفسك).</p>`,
        ),
      };
    return {
      subject: `${v.organization}: we received your request ${v.number}`,
      text: `Thank you. We received your request ${v.number}.\n\nFollow it here (keep this link private): ${v.statusUrl}`,
      html: mailHtml(
        'en',
        `<p>Thank you. We received your request <b>${v.number}</b>.</p><p><a href="${v.statusUrl}">Follow it here</a> (keep this link private).</p>`,
      ),
    };
  },

  /**
   * A change of a portal request: `what` is the sentence (describePortalStatus, or a reply); `link` the request's
   * status page (issue 45), or none for a request whose link cannot be rebuilt (made before links were derivable).
   */
  portalUpdate(lang: MailLanguage, v: { organization: string; subject: string; what: string; link?: string | null }): MailParts {
    const ar = lang === 'ar';
    const footerText = v.link
      ? `${ar ? 'اطّلع على التفاصيل (احتفظ بهذا الرابط لنفسك):' : 'See the details (keep this link private):'} ${v.link}`
      : ar
        ? 'افتح رابط الحالة من رسالتنا الأولى لرؤية التفاصيل.'
        : 'Open the status link from our first e-mail to see the details.';
    const footerHtml = v.link
      ? ar
        ? `<a href="${v.link}">اطّلع على التفاصيل</a> (احتفظ بهذا الرابط لنفسك).`
        : `<a href="${v.link}">See the details</a> (keep this link private).`
      : footerText;
    return {
      subject: `${ar ? isolate(v.organization) : v.organization}: ${v.subject}`,
      text: `${v.what}\n\n${footerText}`,
      html: mailHtml(
        lang,
        `${v.what
          .split('\n')
          .filter(Boolean)
          .map((line) => `<p>${escapeHtmlText(line)}</p>`)
          .join('')}<p>${footerHtml}</p>`,
      ),
    };
  },

  portalStatusSubject(lang: MailLanguage, number: string, status: string) {
    return lang === 'ar'
      ? `طلبك ${number} ${PORTAL_STATUS_WORDS.ar[status] ?? status}`
      : `your request ${number} is ${PORTAL_STATUS_WORDS.en[status] ?? status}`;
  },

  portalStatus(lang: MailLanguage, row: { status: string; declineReason: string | null }) {
    if (lang === 'ar')
      return row.status === 'declined'
        ? `تم رفض طلبك. السبب: ${PORTAL_REASONS_AR[row.declineReason ?? ''] ?? row.declineReason ?? ''}`
        : `أصبحت حالة طلبك: ${PORTAL_STATUS_WORDS.ar[row.status] ?? row.status}.`;
    return row.status === 'declined'
      ? `Your request was declined. Reason: ${row.declineReason ?? ''}`
      : `Your request is now ${PORTAL_STATUS_WORDS.en[row.status] ?? row.status}.`;
  },

  portalReply(lang: MailLanguage, body: string) {
    return lang === 'ar' ? `ردّ الفريق على طلبك:\n\n${body}` : `The team replied to your request:\n\n${body}`;
  },

  portalReplySubject(lang: MailLanguage, number: string) {
    return lang === 'ar' ? `رد على طلبك ${number}` : `a reply to your request ${number}`;
  },

  share(lang: MailLanguage, v: { link: string; organization: string; workOrder: string; days: number; due?: string }): MailParts {
    // The order's due moment, already written on the organisation's clock (decision 064), when it has one.
    const dueAr = v.due ? `\n\nموعد الاستحقاق: ${isolate(v.due)}` : '';
    const dueEn = v.due ? `\n\nDue: ${v.due}` : '';
    const dueHtml = v.due ? `<p>${lang === 'ar' ? 'موعد الاستحقاق' : 'Due'}: ${bdi(v.due)}</p>` : '';
    if (lang === 'ar')
      return {
        subject: `شاركت ${isolate(v.organization)} أمر عمل معك: ${isolate(v.workOrder)}`,
        text: `شاركت ${isolate(v.organization)} أمر العمل "${isolate(v.workOrder)}" معك.${dueAr}\n\nافتحه من هنا: ${v.link}\n\nيعمل الرابط لمدة ${v.days} يومًا. لا تعِد توجيهه: أي شخص يملكه يمكنه التصرف في أمر العمل.`,
        html: mailHtml(
          'ar',
          `<p>شاركت <b>${bdi(v.organization)}</b> أمر العمل <b>${bdi(v.workOrder)}</b> معك.</p>${dueHtml}<p><a href="${v.link}">افتح أمر العمل</a></p><p>يعمل الرابط لمدة ${v.days} يومًا. لا تعِد توجيهه: أي شخص يملكه يمكنه التصرف في أمر العمل.</p>`,
        ),
      };
    return {
      subject: `${v.organization} shared a work order with you: ${v.workOrder}`,
      text: `${v.organization} shared the work order "${v.workOrder}" with you.${dueEn}\n\nOpen it here: ${v.link}\n\nThe link works for ${v.days} days. Do not forward it: anyone holding it can act on the work order.`,
      html: mailHtml(
        'en',
        `<p><b>${bdi(v.organization)}</b> shared the work order <b>${bdi(v.workOrder)}</b> with you.</p>${dueHtml}<p><a href="${v.link}">Open the work order</a></p><p>The link works for ${v.days} days. Do not forward it: anyone holding it can act on the work order.</p>`,
      ),
    };
  },

  shareSentBack(lang: MailLanguage, comment: string): MailParts {
    if (lang === 'ar')
      return {
        subject: 'أُعيد عملك لاستكماله',
        text: `أُعيد أمر العمل الذي تعمل عليه:\n\n${comment}\n\nافتحه بالرابط الذي وصلك.`,
        html: mailHtml('ar', `<p>أُعيد أمر العمل الذي تعمل عليه:</p><p dir="auto">${escapeHtmlText(comment)}</p><p>افتحه بالرابط الذي وصلك.</p>`),
      };
    return {
      subject: 'Your work was sent back for more',
      text: `The work order you are working on was sent back:\n\n${comment}\n\nOpen it with the link you received.`,
      html: mailHtml(
        'en',
        `<p>The work order you are working on was sent back:</p><p dir="auto">${escapeHtmlText(comment)}</p><p>Open it with the link you received.</p>`,
      ),
    };
  },

  shareComment(lang: MailLanguage, body: string): MailParts {
    if (lang === 'ar')
      return {
        subject: 'تعليق جديد على أمر العمل المشترك معك',
        text: `${body}\n\nافتح أمر العمل بالرابط الذي وصلك.`,
        html: mailHtml('ar', `<p dir="auto">${escapeHtmlText(body)}</p><p>افتح أمر العمل بالرابط الذي وصلك.</p>`),
      };
    return {
      subject: 'A new comment on your shared work order',
      text: `${body}\n\nOpen the work order with the link you received.`,
      html: mailHtml('en', `<p dir="auto">${escapeHtmlText(body)}</p><p>Open the work order with the link you received.</p>`),
    };
  },

  /** To the team (the sharing manager, the assignees), in each one's own language: what the contractor did. */
  contractorUpdate(lang: MailLanguage, v: { contractor: string; what: string; workOrder: string; title: string | null }): MailParts {
    if (lang === 'ar') {
      const what = CONTRACTOR_WHAT_AR[v.what] ?? v.what;
      const title = v.title ? ` "${isolate(v.title)}"` : '';
      return {
        subject: `${isolate(v.contractor)} (مقاول) ${what}: ${isolate(v.title ?? v.workOrder)}`,
        text: `${isolate(v.contractor)} (مقاول) ${what} في أمر العمل ${isolate(v.workOrder)}${title}.`,
        html: mailHtml('ar', `<p>${bdi(v.contractor)} (مقاول) ${what} في أمر العمل <b>${bdi(v.workOrder)}</b>${v.title ? ` <b>${bdi(v.title)}</b>` : ''}.</p>`),
      };
    }
    return {
      subject: `${v.contractor} (contractor) ${v.what}: ${v.title ?? v.workOrder}`,
      text: `${v.contractor} (contractor) ${v.what} on work order ${v.workOrder} "${v.title ?? ''}".`,
      html: mailHtml(
        'en',
        `<p>${bdi(v.contractor)} (contractor) ${escapeHtml(v.what)} on work order <b>${bdi(v.workOrder)}</b>${v.title ? ` <b>${bdi(v.title)}</b>` : ''}.</p>`,
      ),
    };
  },

  /** To each admin, in their own language: a webhook endpoint was disabled after failing for `hours`. */
  webhookDisabled(lang: MailLanguage, v: { url: string; hours: number; lastError: string }): MailParts {
    if (lang === 'ar')
      return {
        subject: 'تم تعطيل نقطة استقبال webhook',
        text: `تم تعطيل نقطة استقبال webhook ${isolate(v.url)}. فشل كل إرسال لمدة ${v.hours} ساعة (آخرها: ${isolate(v.lastError)}).\n\nأصلح جهة الاستقبال، ثم فعّل النقطة مجددًا من الإعدادات > واجهة البرمجة وwebhooks وأعد إرسال ما فاتها.`,
        html: mailHtml(
          'ar',
          `<p>تم تعطيل نقطة استقبال webhook <span dir="ltr">${escapeHtml(v.url)}</span>. فشل كل إرسال لمدة ${v.hours} ساعة (آخرها: ${bdi(v.lastError)}).</p><p>أصلح جهة الاستقبال، ثم فعّل النقطة مجددًا من الإعدادات &gt; واجهة البرمجة وwebhooks وأعد إرسال ما فاتها.</p>`,
        ),
      };
    return {
      subject: 'A webhook endpoint was disabled',
      text: `The webhook endpoint ${v.url} was disabled. Every delivery failed for ${v.hours} hours (last: ${v.lastError}).\n\nFix the receiver, then enable the endpoint again in Settings > API & Webhooks and redeliver what it missed.`,
      html: mailHtml(
        'en',
        `<p>The webhook endpoint <span dir="ltr">${escapeHtml(v.url)}</span> was disabled. Every delivery failed for ${v.hours} hours (last: ${bdi(v.lastError)}).</p><p>Fix the receiver, then enable the endpoint again in Settings &gt; API &amp; Webhooks and redeliver what it missed.</p>`,
      ),
    };
  },

  shareCode(lang: MailLanguage, code: string, minutes: number): MailParts {
    if (lang === 'ar')
      return {
        subject: `رمزك: ${code}`,
        text: `رمزك لفتح أمر العمل المشترك هو ${code}. يعمل لمدة ${minutes} دقيقة.`,
        html: mailHtml('ar', `<p>رمزك لفتح أمر العمل المشترك هو <b dir="ltr">${code}</b>. يعمل لمدة ${minutes} دقيقة.</p>`),
      };
    return {
      subject: `Your code: ${code}`,
      text: `Your code to open the shared work order is ${code}. It works for ${minutes} minutes.`,
      html: mailHtml('en', `<p>Your code to open the shared work order is <b>${code}</b>. It works for ${minutes} minutes.</p>`),
    };
  },
};

/** Text into HTML, line breaks kept. */
function escapeHtmlText(text: string) {
  return escapeHtml(text).replace(/\n/g, '<br>');
}
