import { and, asc, eq } from 'drizzle-orm';
import type { ReadTx } from '../../server/db/client';
import { parts, stockLevels } from '../../server/db/schema';
import { drawText, registerArabicFonts } from '../../server/pdf-bidi';
import type { PdfLanguage } from '../../server/pdf-labels';
import { formatDateTime, formatNumber } from '../../shared/format';
import { getLocation } from './stock.service';

/** One row of a count sheet: a part kept at the location, its bin and what the ledger expects there. */
export interface CountSheetRow {
  part: string;
  sku: string | null;
  bin: string | null;
  expected: number;
}

export interface CountSheet {
  organization: string;
  timeZone?: string;
  location: string;
  rows: CountSheetRow[];
  language?: PdfLanguage;
}

/** The count sheet's rows (decision 081 addendum): every level at the location, by bin then part name. */
export async function countSheetRows(tx: ReadTx, orgId: number, locationId: number): Promise<{ location: string; rows: CountSheetRow[] }> {
  const location = await getLocation(tx, orgId, locationId);
  const rows = await tx
    .select({ part: parts.name, sku: parts.skuCode, bin: stockLevels.bin, expected: stockLevels.quantity })
    .from(stockLevels)
    .innerJoin(parts, and(eq(parts.orgId, stockLevels.orgId), eq(parts.id, stockLevels.partId)))
    .where(and(eq(stockLevels.orgId, orgId), eq(stockLevels.locationId, locationId)))
    .orderBy(asc(stockLevels.bin), asc(parts.name));
  return { location: location.name, rows: rows.map((r) => ({ ...r, expected: Number(r.expected) })) };
}

/** The sheet's own words in Arabic, keyed by the English. */
const AR: Record<string, string> = {
  'Count sheet': 'ورقة الجرد',
  Storeroom: 'المخزن',
  Printed: 'طُبع في',
  Part: 'القطعة',
  SKU: 'الرمز',
  Bin: 'الرف',
  Expected: 'المتوقع',
  Counted: 'المعدود',
  'No parts are kept here yet': 'لا توجد قطع محفوظة هنا بعد',
  'Counted by': 'عدّها',
  Date: 'التاريخ',
};
export const countSheetLabel = (lang: PdfLanguage, english: string) => (lang === 'ar' ? (AR[english] ?? english) : english);

/** Renders a printable count sheet (A4, pdfkit, uncompressed so tests read its text): the Counted column is left blank. */
export async function renderCountSheetPdf(sheet: CountSheet): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const lang = sheet.language ?? 'en';
  const L = (english: string) => countSheetLabel(lang, english);
  const pdf = new PDFDocument({
    size: 'A4',
    margin: 48,
    compress: false,
    info: { Title: `${L('Count sheet')} ${sheet.location}`, Author: sheet.organization },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  registerArabicFonts(pdf);
  const start = lang === 'ar' ? ('right' as const) : ('left' as const);
  let bold = false;
  const write = (text: string, x: number, y: number, opts: { width: number; align?: 'left' | 'right' | 'start' }) =>
    drawText(pdf, text, x, y, { ...opts, bold });
  const font = (b: boolean) => {
    bold = b;
    return pdf.font(b ? 'Helvetica-Bold' : 'Helvetica');
  };
  const left = pdf.page.margins.left;
  const width = pdf.page.width - left - pdf.page.margins.right;
  let y = pdf.page.margins.top;
  font(true).fontSize(18).fillColor('#111');
  write(`${L('Count sheet')}`, left, y, { width, align: start });
  font(false).fontSize(11);
  write(`${L('Storeroom')}: ${sheet.location}`, left, pdf.y + 4, { width, align: start });
  pdf.fontSize(9).fillColor('#444');
  write(`${sheet.organization} · ${L('Printed')}: ${formatDateTime(new Date().toISOString(), 'en', sheet.timeZone ?? 'UTC')}`, left, pdf.y + 2, {
    width,
    align: start,
  });
  y = pdf.y + 14;

  const cols = [
    { label: 'Part', w: 0.38, align: 'start' as const },
    { label: 'SKU', w: 0.16, align: 'start' as const },
    { label: 'Bin', w: 0.14, align: 'start' as const },
    { label: 'Expected', w: 0.14, align: 'right' as const },
    { label: 'Counted', w: 0.18, align: 'right' as const },
  ];
  const ordered = lang === 'ar' ? [...cols].reverse() : cols;
  const row = (cells: Record<string, string>, header: boolean) => {
    if (y > pdf.page.height - pdf.page.margins.bottom - 40) {
      pdf.addPage();
      y = pdf.page.margins.top;
    }
    let x = left;
    font(header).fontSize(10).fillColor('#111');
    for (const col of ordered) {
      const w = col.w * width;
      const text = cells[col.label] ?? '';
      if (text) write(text, x + 2, y, { width: w - 4, align: col.align });
      x += w;
    }
    y += 22;
    // the line to write the counted quantity on
    pdf
      .moveTo(left, y - 6)
      .lineTo(left + width, y - 6)
      .strokeColor(header ? '#888' : '#ccc')
      .stroke();
  };
  row(Object.fromEntries(cols.map((c) => [c.label, L(c.label)])), true);
  if (!sheet.rows.length) {
    font(false).fontSize(10).fillColor('#444');
    write(L('No parts are kept here yet'), left, y, { width, align: start });
  }
  for (const r of sheet.rows) row({ Part: r.part, SKU: r.sku ?? '', Bin: r.bin ?? '', Expected: formatNumber(r.expected, 'en'), Counted: '' }, false);
  y += 24;
  font(false).fontSize(10).fillColor('#111');
  write(`${L('Counted by')}: ____________________    ${L('Date')}: ______________`, left, y, { width, align: start });
  pdf.end();
  return done;
}
