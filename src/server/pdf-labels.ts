import type { ReadTx } from './db/client';
import { users } from './db/schema';
import { readOrgRow } from './db/org-rows';

/** A printed document's language: the requesting user's (decision 065). */
export type PdfLanguage = 'en' | 'ar';

/** The requesting user's language, read in the request's own transaction. */
export async function userLanguage(tx: ReadTx, orgId: number, userId: number): Promise<PdfLanguage> {
  const row = await readOrgRow(tx, users, { language: users.language }, orgId, userId);
  return row?.language === 'ar' ? 'ar' : 'en';
}

/** The PDFs' own words (labels and the values of fixed vocabularies), in Arabic; keyed by the English label. */
const AR: Record<string, string> = {
  // the documents
  'Work Order': 'أمر عمل',
  Quotation: 'عرض سعر',
  'Purchase Order': 'أمر شراء',
  Status: 'الحالة',
  Priority: 'الأولوية',
  Asset: 'الأصل',
  Assignees: 'المكلَّفون',
  Start: 'البدء',
  End: 'الانتهاء',
  Due: 'الاستحقاق',
  'Expected duration': 'المدة المتوقعة',
  Instructions: 'التعليمات',
  Procedure: 'الإجراء',
  Printed: 'طُبع في',
  Customer: 'العميل',
  Vendor: 'المورد',
  Salesperson: 'مندوب المبيعات',
  Requester: 'مقدم الطلب',
  'Quotation date': 'تاريخ عرض السعر',
  'Order date': 'تاريخ الطلب',
  'Expiration date': 'تاريخ الانتهاء',
  Services: 'الخدمات',
  Parts: 'القطع',
  'No lines': 'لا توجد بنود',
  Description: 'الوصف',
  Qty: 'الكمية',
  'Unit price': 'سعر الوحدة',
  'Disc. %': 'الخصم %',
  Tax: 'الضريبة',
  'Tax amount': 'مبلغ الضريبة',
  Subtotal: 'المجموع الفرعي',
  'Raw subtotal': 'المجموع قبل الخصم',
  'Total discount': 'إجمالي الخصم',
  'Untaxed price': 'السعر قبل الضريبة',
  'Total tax': 'إجمالي الضريبة',
  'Total price': 'السعر الإجمالي',
  Total: 'الإجمالي',
  Note: 'ملاحظة',
  // values: work order status and priority, document status, step answers
  Open: 'مفتوح',
  'In Progress': 'قيد التنفيذ',
  Closed: 'مغلق',
  Cancelled: 'ملغى',
  lowest: 'الأدنى',
  low: 'منخفضة',
  medium: 'متوسطة',
  high: 'عالية',
  critical: 'حرجة',
  Draft: 'مسودة',
  'Send For Approval': 'مرسل للموافقة',
  'Quotation Sent': 'تم إرسال عرض السعر',
  'Sales Order': 'أمر بيع',
  'Purchase Order Sent': 'تم إرسال أمر الشراء',
  Pass: 'ناجح',
  Fail: 'راسب',
  Flag: 'تنبيه',
  Done: 'منجز',
  Photo: 'صورة',
  Signed: 'موقَّع',
  FLAGGED: 'عليه تنبيه',
  'Follow-up': 'متابعة',
  // a sign-off's meaning (decision 078)
  Performed: 'نفّذه',
  Verified: 'تحقّق منه',
  Approved: 'اعتمده',
};

/** `english` (a label or a fixed value) in the document's language; unknown words stay as they are. */
export function pdfLabel(lang: PdfLanguage, english: string): string {
  return lang === 'ar' ? (AR[english] ?? english) : english;
}

/** "3 of 5 steps done, 1 flagged, 2 required left" in the document's language. */
export function stepsDone(lang: PdfLanguage, p: { answered: number; total: number; flagged: number; requiredLeft: number }): string {
  if (lang === 'ar')
    return `أُنجزت ${p.answered} من ${p.total} خطوات${p.flagged ? `، ${p.flagged} عليها تنبيه` : ''}${p.requiredLeft ? `، ${p.requiredLeft} مطلوبة متبقية` : ''}`;
  return `${p.answered} of ${p.total} steps done${p.flagged ? `, ${p.flagged} flagged` : ''}${p.requiredLeft ? `, ${p.requiredLeft} required left` : ''}`;
}
