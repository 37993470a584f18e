import { registerTranslations } from '../../i18n';

/** The bell's words (decision 074): with the bell's module (the signed-in shell), not in the sign-in page's catalogue. */
registerTranslations('bell', {
  en: {
    markAllRead: 'Mark all as read',
    notify: {
      assigned: 'You were assigned {{record}}',
      'due-soon': '{{record}} is due {{due}}',
      overdue: '{{record}} is overdue',
      'status-changed': '{{record}}: {{from}} → {{to}}',
      mention: '{{actor}} mentioned you on {{record}}',
      'request-approval': 'Maintenance request {{record}} waits for your approval',
      'purchase-order-approval': 'Purchase order {{record}} waits for your approval',
      'low-stock': '{{record}} is low at {{location}}: {{quantity}} (reorder point {{reorderPoint}})',
      'repeat-failure': 'Repeat failure on {{record}}: {{asset}} failed again with “{{problem}}” within {{withinDays}} days (after {{previous}})',
      assignedTeam: '{{record}} was assigned to your team {{team}}',
      portalRequest: 'Portal request {{record}} waits for your approval',
    },
    notifyStatus: { assigned: 'Assigned', 'in-progress': 'In progress', completed: 'Completed', cancelled: 'Cancelled' },
  },
  ar: {
    markAllRead: 'تعليم الكل كمقروء',
    notify: {
      assigned: 'أُسند إليك {{record}}',
      'due-soon': '{{record}} مستحق في {{due}}',
      overdue: '{{record}} متأخر عن موعده',
      'status-changed': '{{record}}: {{from}} ← {{to}}',
      mention: 'أشار إليك {{actor}} في {{record}}',
      'request-approval': 'طلب الصيانة {{record}} بانتظار موافقتك',
      'purchase-order-approval': 'أمر الشراء {{record}} بانتظار موافقتك',
      'low-stock': '{{record}} منخفض في {{location}}: {{quantity}} (نقطة إعادة الطلب {{reorderPoint}})',
      'repeat-failure': 'عطل متكرر في {{record}}: تعطل {{asset}} مجددًا بسبب «{{problem}}» خلال {{withinDays}} يومًا (بعد {{previous}})',
      assignedTeam: 'أُسند {{record}} إلى فريقك {{team}}',
      portalRequest: 'طلب البوابة {{record}} بانتظار موافقتك',
    },
    notifyStatus: { assigned: 'مُسند', 'in-progress': 'قيد التنفيذ', completed: 'مكتمل', cancelled: 'ملغى' },
  },
});
