import { formatDay, formatMoney, formatNumber } from '../../shared/format';
import type { DocumentLineDto, DocumentTotalsDto } from './document-lines.schema';

/** Everything a printed quotation or purchase order shows. Money in major units, as the API returns it. */
export interface PrintableDocument {
  title: string;
  number: string;
  statusLabel: string;
  currency: string;
  company: {
    organization: string;
    addressStreet1: string | null;
    addressStreet2: string | null;
    city: string | null;
    zipCode: string | null;
    country: string | null;
    phoneNumber: string | null;
    website: string | null;
  };
  /** The company logo as stored (any of JPEG, PNG, WebP); converted to PNG for the PDF. */
  logo: Buffer | null;
  party: { label: string; name: string; email: string | null; address: string[] };
  person: { label: string; name: string };
  dates: { label: string; value: Date | null }[];
  serviceLines: DocumentLineDto[];
  partLines: DocumentLineDto[];
  totals: DocumentTotalsDto;
  note: string | null;
}

// Printed in English: pdfkit's standard fonts have no Arabic glyphs. The one formatter, as on screen.
export const money = (amount: number, currency: string) => formatMoney(amount, currency, 'en');
const fmtDate = (d: Date | null) => formatDay(d, 'en') || '-';
const fmtQty = (q: number) => formatNumber(q, 'en');

/**
 * Renders the document with pdfkit (A4, standard fonts). Streams are left uncompressed so the text of
 * a generated document can be checked by tests; the files stay small (a few kilobytes).
 */
export async function renderDocumentPdf(doc: PrintableDocument): Promise<Buffer> {
  // pdfkit and sharp load on the first PDF, not at start (cold start: decision 013).
  const [{ default: PDFDocument }, { default: sharp }] = await Promise.all([import('pdfkit'), import('sharp')]);
  let logoPng: Buffer | null = null;
  if (doc.logo) logoPng = await sharp(doc.logo).resize({ width: 240, height: 120, fit: 'inside' }).png().toBuffer().catch(() => null);

  const pdf = new PDFDocument({ size: 'A4', margin: 48, compress: false, info: { Title: `${doc.title} ${doc.number}`, Author: doc.company.organization } });
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  const left = pdf.page.margins.left;
  const width = pdf.page.width - pdf.page.margins.left - pdf.page.margins.right;
  const right = left + width;

  // Header: logo and company on the left, the document's title and number on the right.
  let y = pdf.page.margins.top;
  if (logoPng) {
    pdf.image(logoPng, left, y, { fit: [120, 60] });
    y += 66;
  }
  const c = doc.company;
  pdf.font('Helvetica-Bold').fontSize(13).fillColor('#111').text(c.organization, left, y, { width: width / 2 });
  pdf.font('Helvetica').fontSize(9).fillColor('#444');
  const companyLines = [c.addressStreet1, c.addressStreet2, [c.zipCode, c.city].filter(Boolean).join(' '), c.country, c.phoneNumber, c.website].filter(
    (l): l is string => !!l && l.trim() !== '',
  );
  for (const line of companyLines) pdf.text(line, { width: width / 2 });
  const companyBottom = pdf.y;

  pdf.font('Helvetica-Bold').fontSize(20).fillColor('#111').text(doc.title, left + width / 2, pdf.page.margins.top, { width: width / 2, align: 'right' });
  pdf.font('Helvetica').fontSize(12).text(doc.number, { width: width / 2, align: 'right' });
  pdf.fontSize(9).fillColor('#444').text(`Status: ${doc.statusLabel}`, { width: width / 2, align: 'right' });
  for (const d of doc.dates) pdf.text(`${d.label}: ${fmtDate(d.value)}`, { width: width / 2, align: 'right' });

  // The party and the person in charge.
  y = Math.max(companyBottom, pdf.y) + 18;
  pdf.moveTo(left, y).lineTo(right, y).strokeColor('#ccc').stroke();
  y += 10;
  pdf.font('Helvetica-Bold').fontSize(10).fillColor('#111').text(doc.party.label, left, y, { width: width / 2 });
  pdf.font('Helvetica').fontSize(10).text(doc.party.name, { width: width / 2 });
  pdf.fontSize(9).fillColor('#444');
  if (doc.party.email) pdf.text(doc.party.email, { width: width / 2 });
  for (const line of doc.party.address) pdf.text(line, { width: width / 2 });
  const partyBottom = pdf.y;
  pdf.font('Helvetica-Bold').fontSize(10).fillColor('#111').text(doc.person.label, left + width / 2, y, { width: width / 2, align: 'right' });
  pdf.font('Helvetica').text(doc.person.name || '-', { width: width / 2, align: 'right' });
  y = Math.max(partyBottom, pdf.y) + 16;

  // Lines.
  const cols = [
    { key: 'name', label: 'Description', w: 0.3, align: 'left' as const },
    { key: 'qty', label: 'Qty', w: 0.08, align: 'right' as const },
    { key: 'price', label: 'Unit price', w: 0.13, align: 'right' as const },
    { key: 'disc', label: 'Disc. %', w: 0.09, align: 'right' as const },
    { key: 'tax', label: 'Tax', w: 0.14, align: 'left' as const },
    { key: 'taxAmount', label: 'Tax amount', w: 0.12, align: 'right' as const },
    { key: 'subtotal', label: 'Subtotal', w: 0.14, align: 'right' as const },
  ];
  const row = (cells: Record<string, string>, bold = false) => {
    if (y > pdf.page.height - pdf.page.margins.bottom - 120) {
      pdf.addPage();
      y = pdf.page.margins.top;
    }
    let x = left;
    let h = 0;
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9).fillColor('#111');
    for (const col of cols) {
      const w = col.w * width;
      pdf.text(cells[col.key] ?? '', x + 2, y, { width: w - 4, align: col.align });
      h = Math.max(h, pdf.heightOfString(cells[col.key] ?? ' ', { width: w - 4 }));
      x += w;
    }
    y += h + 6;
  };
  const section = (title: string, lines: DocumentLineDto[]) => {
    if (!lines.length) return;
    pdf.font('Helvetica-Bold').fontSize(11).fillColor('#111').text(title, left, y);
    y = pdf.y + 4;
    row(Object.fromEntries(cols.map((col) => [col.key, col.label])), true);
    pdf.moveTo(left, y - 3).lineTo(right, y - 3).strokeColor('#ddd').stroke();
    for (const l of lines) {
      row({
        name: l.name,
        qty: fmtQty(l.quantity),
        price: money(l.unitPrice, doc.currency),
        disc: l.discount ? String(l.discount) : '0',
        tax: l.Tax?.name ?? '-',
        taxAmount: money(l.taxAmount, doc.currency),
        subtotal: money(l.subtotal, doc.currency),
      });
    }
    y += 8;
  };
  section('Services', doc.serviceLines);
  section('Parts', doc.partLines);
  if (!doc.serviceLines.length && !doc.partLines.length) {
    pdf.font('Helvetica-Oblique').fontSize(9).fillColor('#666').text('No lines', left, y);
    y = pdf.y + 8;
  }

  // Summary, from the same engine as the screen.
  const t = doc.totals;
  const summary: [string, number, boolean][] = [
    ['Raw subtotal', t.rawSubtotal, false],
    ['Total discount', t.totalDiscount, false],
    ['Untaxed price', t.untaxed, false],
    ['Total tax', t.totalTax, false],
    ['Total price', t.total, true],
  ];
  y += 4;
  const labelX = left + width * 0.55;
  for (const [label, value, bold] of summary) {
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(bold ? 11 : 10).fillColor('#111');
    pdf.text(label, labelX, y, { width: width * 0.25 });
    pdf.text(money(value, doc.currency), labelX + width * 0.25, y, { width: width * 0.2, align: 'right' });
    y += bold ? 18 : 15;
  }

  if (doc.note) {
    y += 12;
    pdf.font('Helvetica-Bold').fontSize(10).text('Note', left, y);
    pdf.font('Helvetica').fontSize(9).fillColor('#333').text(doc.note, { width });
  }

  pdf.end();
  return done;
}

/** The text a generated PDF shows (for tests): the hex strings of its text operators, decoded. */
export function pdfText(pdf: Buffer): string {
  const body = pdf.toString('latin1');
  const out: string[] = [];
  for (const m of body.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
    const parts = [...m[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1], 'hex').toString('latin1'));
    out.push(parts.join(''));
  }
  return out.join('\n');
}
