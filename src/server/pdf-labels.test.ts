import { describe, expect, it } from 'vitest';
import { pdfTextBlocks, renderDocumentPdf } from '../features/commercial-documents/document-pdf.service';
import { printableQuotation, printableWorkOrder, workOrderPdf } from './test/printables';

// Decision 065: a PDF's labels and fixed values in the document's language (the requesting user's).
const reversed = (s: string) => [...s].reverse().join('');
/**
 * Letters by their shape without dots: the extraction reads a shaped glyph back through the font's ToUnicode map,
 * where one glyph may stand for letters of the same skeleton (ت read as ي in a medial form).
 */
const skeleton = (s: string) =>
  s
    .replace(/[\u064B-\u0652]/g, '')
    .replace(/[بتثنيى]/g, 'ٮ')
    .replace(/[جحخ]/g, 'ح')
    .replace(/[دذ]/g, 'د')
    .replace(/[رز]/g, 'ر')
    .replace(/[سش]/g, 'س')
    .replace(/[صض]/g, 'ص')
    .replace(/[طظ]/g, 'ط')
    .replace(/[عغ]/g, 'ع')
    .replace(/[فق]/g, 'ف');
const printed = (all: string, label: string) => skeleton(all).includes(skeleton(reversed(label)));
const quotation = (partyName: string, language?: 'en' | 'ar') =>
  printableQuotation(partyName, 'Pump overhaul', {
    statusLabel: 'Quotation Sent',
    party: { label: 'Customer', name: partyName, email: null, address: ['شارع الملك فهد'] },
    person: { label: 'Salesperson', name: 'Alex' },
    dates: [{ label: 'Quotation date', value: new Date('2026-03-01T00:00:00Z') }],
    language,
  });
const workOrder = printableWorkOrder();

describe('PDF labels in the document’s language', () => {
  it('a quotation in Arabic: title, status, customer, services, columns and totals', async () => {
    const all = pdfTextBlocks(await renderDocumentPdf(quotation('Acme Trading', 'ar')))
      .map((b) => b.text)
      .join('\n');
    for (const label of [
      'عرض سعر',
      'الحالة',
      'تم إرسال عرض السعر',
      'العميل',
      'مندوب المبيعات',
      'تاريخ عرض السعر',
      'الخدمات',
      'سعر الوحدة',
      'المجموع الفرعي',
      'السعر الإجمالي',
    ])
      expect(printed(all, label), label).toBe(true);
    for (const english of ['Quotation', 'Status', 'Customer', 'Services', 'Total price', 'Unit price']) expect(all, english).not.toContain(english);
    // the values the document holds stay as written
    expect(all).toContain('Acme Trading');
    expect(all).toContain('Pump overhaul');
  });

  it('the same quotation in English keeps the English labels', async () => {
    const all = pdfTextBlocks(await renderDocumentPdf(quotation('Acme Trading')))
      .map((b) => b.text)
      .join('\n');
    for (const english of ['Quotation', 'Status: Quotation Sent', 'Customer', 'Services', 'Total price']) expect(all).toContain(english);
  });

  it('an Arabic customer name under an English label keeps to the label’s side of its block', async () => {
    const blocks = pdfTextBlocks(await renderDocumentPdf(quotation('شركة النور')));
    const label = blocks.find((b) => b.text === 'Customer')!;
    const name = blocks.find((b) => b.text === reversed('شركة النور'))!;
    expect(Math.abs(name.x - label.x)).toBeLessThan(1);
    // and in an Arabic document, an English name sits right with its Arabic label
    const ar = pdfTextBlocks(await renderDocumentPdf(quotation('Acme Trading', 'ar')));
    const arLabel = ar.find((b) => b.text === reversed('العميل'))!;
    const arName = ar.find((b) => b.text === 'Acme Trading')!;
    expect(arName.x).toBeGreaterThan(arLabel.x - 80);
    expect(arName.x).toBeGreaterThan(100);
  });

  it('a work order in Arabic: labels, status and priority', async () => {
    const pdf = await workOrderPdf(workOrder, { language: 'ar' });
    const all = pdfTextBlocks(pdf)
      .map((b) => b.text)
      .join('\n');
    for (const label of ['أمر عمل', 'الحالة', 'قيد التنفيذ', 'الأولوية', 'عالية', 'الأصل', 'التعليمات']) expect(printed(all, label), label).toBe(true);
    for (const english of ['Work Order', 'Status', 'Priority', 'In Progress', 'Instructions']) expect(all, english).not.toContain(english);
    const en = pdfTextBlocks(await workOrderPdf(workOrder))
      .map((b) => b.text)
      .join('\n');
    for (const english of ['Work Order', 'Status: In Progress', 'Priority: high', 'Instructions']) expect(en).toContain(english);
  });
});
