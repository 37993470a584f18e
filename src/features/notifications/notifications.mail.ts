import { bdi, isolate, mailHtml, type MailLanguage, type MailParts } from '../../server/mail-language';
import { escapeHtml } from '../../server/mailer';
import type { NotificationData, NotificationKind } from './notifications.schema';

/** One event as a mail shows it. */
export interface MailEvent {
  kind: NotificationKind;
  data: NotificationData;
  /** The record's link in the app. */
  link: string;
}

const STATUS: Record<MailLanguage, Record<string, string>> = {
  en: { assigned: 'assigned', 'in-progress': 'in progress', completed: 'completed', cancelled: 'cancelled' },
  ar: { assigned: 'مُسند', 'in-progress': 'قيد التنفيذ', completed: 'مكتمل', cancelled: 'ملغى' },
};

/** Each kind's name, as the unsubscribe line and the settings screen say it. */
export const KIND_LABELS: Record<MailLanguage, Record<NotificationKind, string>> = {
  en: {
    assigned: 'work assigned to me',
    'due-soon': 'work due soon',
    overdue: 'overdue work',
    'status-changed': 'status changes of work I requested or follow',
    mention: 'mentions of me',
    'request-approval': 'requests waiting for my approval',
    'purchase-order-approval': 'purchase orders to approve',
    'low-stock': 'low stock',
    'repeat-failure': 'repeat failures',
  },
  ar: {
    assigned: 'العمل المُسند إليّ',
    'due-soon': 'العمل المستحق قريبًا',
    overdue: 'العمل المتأخر',
    'status-changed': 'تغيّر حالة العمل الذي طلبته أو أتابعه',
    mention: 'الإشارات إليّ',
    'request-approval': 'الطلبات التي تنتظر موافقتي',
    'purchase-order-approval': 'أوامر الشراء التي تنتظر الموافقة',
    'low-stock': 'انخفاض المخزون',
    'repeat-failure': 'الأعطال المتكررة',
  },
};

/** The record as a mail names it: "WO-0004 Pump seal" (values isolated, so mixed scripts keep their order). */
const recordOf = (d: NotificationData, wrap: (s: string) => string) =>
  [d.number, d.title]
    .filter(Boolean)
    .map((s) => wrap(s!))
    .join(' ');

/** One event's sentence; `wrap` isolates user data (bdi in HTML, Unicode isolates in text). */
export function sentence(lang: MailLanguage, e: Pick<MailEvent, 'kind' | 'data'>, wrap: (s: string) => string): string {
  const d = e.data;
  const record = recordOf(d, wrap);
  const status = (s?: string) => (s ? (STATUS[lang][s] ?? s) : '');
  if (lang === 'ar') {
    switch (e.kind) {
      case 'assigned':
        return d.team ? `أُسند ${record} إلى فريقك ${wrap(d.team)}` : `أُسند إليك ${record}`;
      case 'due-soon':
        return `${record} مستحق في ${wrap(d.dueDate ?? '')}`;
      case 'overdue':
        return `${record} متأخر عن موعده`;
      case 'status-changed':
        return `${record}: تغيّرت الحالة من ${status(d.from)} إلى ${status(d.to)}`;
      case 'mention':
        return `أشار إليك ${wrap(d.actorName ?? '')} في ${record}: «${wrap(d.excerpt ?? '')}»`;
      case 'request-approval':
        return `${d.number?.startsWith('PR-') ? 'طلب البوابة' : 'طلب الصيانة'} ${record} بانتظار موافقتك`;
      case 'purchase-order-approval':
        return `أمر الشراء ${record} بانتظار موافقتك`;
      case 'low-stock':
        return `${record} منخفض في ${wrap(d.location ?? '')}: ${d.quantity ?? 0} (نقطة إعادة الطلب ${d.reorderPoint ?? 0})`;
      case 'repeat-failure':
        return `عطل متكرر في ${record}: تعطل ${wrap(d.asset ?? '')} مجددًا بسبب «${wrap(d.problem ?? '')}» خلال ${d.withinDays ?? 0} يومًا (بعد ${wrap(d.previous ?? '')})`;
    }
  }
  switch (e.kind) {
    case 'assigned':
      return d.team ? `${record} was assigned to your team ${wrap(d.team)}` : `You were assigned ${record}`;
    case 'due-soon':
      return `${record} is due ${wrap(d.dueDate ?? '')}`;
    case 'overdue':
      return `${record} is overdue`;
    case 'status-changed':
      return `${record}: status changed from ${status(d.from)} to ${status(d.to)}`;
    case 'mention':
      return `${wrap(d.actorName ?? '')} mentioned you on ${record}: “${wrap(d.excerpt ?? '')}”`;
    case 'request-approval':
      return `${d.number?.startsWith('PR-') ? 'Portal request' : 'Maintenance request'} ${record} waits for your approval`;
    case 'purchase-order-approval':
      return `Purchase order ${record} waits for your approval`;
    case 'low-stock':
      return `${record} is low at ${wrap(d.location ?? '')}: ${d.quantity ?? 0} (reorder point ${d.reorderPoint ?? 0})`;
    case 'repeat-failure':
      return `Repeat failure on ${record}: ${wrap(d.asset ?? '')} failed again with “${wrap(d.problem ?? '')}” within ${d.withinDays ?? 0} days (after ${wrap(d.previous ?? '')})`;
  }
}

const WORDS = {
  en: {
    open: 'Open',
    updates: (n: number, record: string) => `${n} updates on ${record}`,
    digest: (n: number) => `Your daily digest (${n})`,
    stop: (what: string) => `Stop e-mails about ${what}`,
    why: 'You get this e-mail because of your notification settings (Profile, Notification settings).',
  },
  ar: {
    open: 'فتح',
    updates: (n: number, record: string) => `${n} تحديثات على ${record}`,
    digest: (n: number) => `ملخصك اليومي (${n})`,
    stop: (what: string) => `إيقاف رسائل البريد عن ${what}`,
    why: 'تصلك هذه الرسالة بسبب إعدادات الإشعارات لديك (الملف الشخصي، إعدادات الإشعارات).',
  },
};

/**
 * A notification mail in the recipient's language: one record's events (coalesced) or a digest of several,
 * HTML and plain text, each event with its record's link, and an unsubscribe link per kind it holds.
 */
export function notificationMail(
  lang: MailLanguage,
  v: { organization: string; events: MailEvent[]; digest: boolean; unsubscribe: Partial<Record<NotificationKind, string>> },
): MailParts {
  const w = WORDS[lang];
  const first = v.events[0];
  const head = v.digest
    ? w.digest(v.events.length)
    : v.events.length === 1
      ? sentence(lang, first, (s) => s)
      : w.updates(
          v.events.length,
          recordOf(first.data, (s) => s),
        );
  const subject = `${isolate(v.organization)}: ${head}`.replace(/[\r\n]+/g, ' ').slice(0, 250);
  const stops = Object.entries(v.unsubscribe) as [NotificationKind, string][];
  const text = [
    ...v.events.map((e) => `- ${sentence(lang, e, isolate)}\n  ${w.open}: ${e.link}`),
    '',
    w.why,
    ...stops.map(([kind, link]) => `${w.stop(KIND_LABELS[lang][kind])}: ${link}`),
  ].join('\n');
  const html = mailHtml(
    lang,
    `<ul>${v.events.map((e) => `<li><p>${sentence(lang, e, bdi)}</p><p><a href="${escapeHtml(e.link)}">${w.open}</a></p></li>`).join('')}</ul>` +
      `<p style="color:#666;font-size:12px">${w.why}</p>` +
      stops.map(([kind, link]) => `<p style="font-size:12px"><a href="${escapeHtml(link)}">${w.stop(KIND_LABELS[lang][kind])}</a></p>`).join(''),
  );
  return { subject, text, html };
}

/** The unsubscribe page (GET shows it; its button POSTs, so a mail scanner's visit changes nothing). */
export function unsubscribePage(lang: MailLanguage, v: { kind: NotificationKind; done: boolean; token: string }): string {
  const what = KIND_LABELS[lang][v.kind];
  const body = v.done
    ? lang === 'ar'
      ? `<p>لن تصلك بعد الآن رسائل بريد عن ${what}.</p>`
      : `<p>You will no longer get e-mails about ${what}.</p>`
    : `<form method="post" action="?token=${encodeURIComponent(v.token)}"><p>${lang === 'ar' ? `إيقاف رسائل البريد عن ${what}؟` : `Stop e-mails about ${what}?`}</p><button type="submit">${lang === 'ar' ? 'إيقاف' : 'Unsubscribe'}</button></form>`;
  return mailHtml(lang, body);
}
