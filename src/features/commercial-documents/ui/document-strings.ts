import { registerTranslations } from '../../../web/i18n';
import type { DocumentApiKind } from '../commercial-documents.schema';

/**
 * What the shared list and drawer need to know of one kind of document (quotation, purchase order): its API,
 * translation namespace, statuses, form fields, test ids. Field names double as translation keys.
 */
export interface DocumentUiKind {
  api: DocumentApiKind;
  /** The i18n namespace ('quotations', 'purchaseOrders'), registered with `registerDocumentTranslations`. */
  ns: string;
  /** Prefix of the test ids ('q' -> q-drawer, q-save, …). */
  testId: string;
  statuses: readonly string[];
  /** Status badge colours of the list. */
  statusColors: Record<string, string>;
  /** The add/update body schema (the form validates with it). */
  inputSchema: unknown;
  /** The customer or vendor: form field, picker type (also its label key and list column), test id suffix. */
  party: { field: string; type: 'customer' | 'vendor'; testId: string };
  /** The user: form field, label key, test id suffix, and the DTO key shown in the list (also its column). */
  person: { field: string; label: string; testId: string; dto: string };
  /** The document date's form field (also its label key). */
  dateField: string;
  /** Whether the expiration date is required (quotations) or optional (purchase orders). */
  expirationRequired: boolean;
  /** The list's date column: a DTO key (also the column key). */
  listDate: string;
  /** The list's text filter (query parameter). */
  listFilter: 'title' | 'name';
  /** The drawer's title for a new document (a translation key). */
  newLabel: string;
}

export { formatDay } from '../../../web/lib/format';

/** 'YYYY-MM-DD' of an ISO date, for a date input. */
export const dayValue = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : '');

type Catalog = Record<string, string | Record<string, string>>;

/** The words every kind shares; each kind adds its own (title, columns, statuses, fields, messages). */
const SHARED: { en: Catalog; ar: Catalog } = {
  en: {
    statusFilter: 'Status',
    col: { status: 'Status', total: 'Total' },
    status: { draft: 'Draft', sendForApproval: 'Send For Approval' },
    expirationDate: 'Expiration Date',
    note: 'Note',
    services: 'Services',
    parts: 'Parts',
    service: 'Service',
    part: 'Part',
    attachments: 'Attachments',
    noAttachments: 'No attachments yet',
    chooseFiles: 'Add attachments (PDF, JPEG, PNG, WebP)',
    uploadFailed: 'Failed to upload attachments',
    print: 'Print PDF',
    printFailed: 'Failed to open the PDF',
    save: 'Save Changes',
    delete: 'Delete',
  },
  ar: {
    statusFilter: 'الحالة',
    col: { status: 'الحالة', total: 'الإجمالي' },
    status: { draft: 'مسودة', sendForApproval: 'إرسال للموافقة' },
    expirationDate: 'تاريخ الانتهاء',
    note: 'ملاحظة',
    services: 'الخدمات',
    parts: 'القطع',
    service: 'الخدمة',
    part: 'القطعة',
    attachments: 'المرفقات',
    noAttachments: 'لا توجد مرفقات بعد',
    chooseFiles: 'إضافة مرفقات (PDF، JPEG، PNG، WebP)',
    uploadFailed: 'فشل رفع المرفقات',
    print: 'طباعة PDF',
    printFailed: 'فشل فتح ملف PDF',
    save: 'حفظ التغييرات',
    delete: 'حذف',
  },
};

/** Registers a kind's namespace: the shared words, then its own (i18next merges nested `col` and `status` deeply). */
export function registerDocumentTranslations(ns: string, own: { en: Catalog; ar: Catalog }) {
  registerTranslations(ns, SHARED);
  registerTranslations(ns, own);
}
