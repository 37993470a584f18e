import { formatDay, formatMoney, formatNumber } from '../../shared/format';
import type { DocumentLineDto, DocumentTotalsDto } from './document-lines.schema';
import { drawText, collectPdf, textHeight } from '../../server/pdf-bidi';
import { pdfLabel, type PdfLanguage } from '../../server/pdf-labels';
import { pdfImage } from '../../server/pdf-image';

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
  /** The document's language (the requesting user's): its labels and fixed values (decision 065). English when absent. */
  language?: PdfLanguage;
}

// Labels print in the document's language (pdf-labels.ts); names, addresses and notes print as written, Arabic in Noto Sans Arabic (shaped by
// fontkit, ordered by the bidi algorithm: src/server/pdf-bidi.ts). The one formatter, as on screen.
export const money = (amount: number, currency: string) => formatMoney(amount, currency, 'en');
const fmtDate = (d: Date | null) => formatDay(d, 'en') || '-';
const fmtQty = (q: number) => formatNumber(q, 'en');

/**
 * Renders the document with pdfkit (A4, standard fonts). Streams are left uncompressed so the text of
 * a generated document can be checked by tests; the files stay small (a few kilobytes).
 */
export async function renderDocumentPdf(doc: PrintableDocument): Promise<Buffer> {
  // pdfkit loads on the first PDF, not at start (cold start: decision 013).
  const { default: PDFDocument } = await import('pdfkit');
  const logoPng = doc.logo ? await pdfImage(doc.logo, 240, 120) : null;

  const pdf = new PDFDocument({ size: 'A4', margin: 48, compress: false, info: { Title: `${doc.title} ${doc.number}`, Author: doc.company.organization } });
  const done = collectPdf(pdf);

  const page = pageOf(pdf, doc.language ?? 'en');
  page.y = drawHeader(page, doc, logoPng);
  page.y = drawParties(page, doc);
  drawLineSections(page, doc);
  drawSummary(page, doc);
  pdf.end();
  return done;
}

type Pdf = PDFKit.PDFDocument;
type Align = 'left' | 'right' | 'start';

/** What every part of the document draws with: the page's geometry, the fonts, the document's language. */
function pageOf(pdf: Pdf, lang: 'en' | 'ar') {
  let bold = false;
  const left = pdf.page.margins.left;
  const width = pdf.page.width - pdf.page.margins.left - pdf.page.margins.right;
  return {
    pdf,
    left,
    width,
    right: left + width,
    /** The next line's top. */
    y: pdf.page.margins.top,
    L: (english: string) => pdfLabel(lang, english),
    /** A label's block alignment: the document's direction (an Arabic document reads from the right). */
    start: lang === 'ar' ? ('right' as const) : ('left' as const),
    /** Sets the Latin font (and remembers the weight for Arabic runs). */
    font(b: boolean) {
      bold = b;
      return pdf.font(b ? 'Helvetica-Bold' : 'Helvetica');
    },
    /** The document's own words (names, addresses, lines, the note): wrapped, Arabic shaped and ordered (pdf-bidi.ts). */
    write: (text: string, x: number | undefined, top: number | undefined, opts: { width: number; align?: Align }) =>
      drawText(pdf, text, x, top, { ...opts, bold }),
    heightOf: (text: string, w: number, align?: Align) => textHeight(pdf, text, { width: w, align, bold }),
  };
}
type Page = ReturnType<typeof pageOf>;

/** Logo and company on the left, the document's title, number, status and dates on the right; returns the bottom. */
function drawHeader({ pdf, left, width, L, font, write }: Page, doc: PrintableDocument, logoPng: Buffer | null): number {
  let y = pdf.page.margins.top;
  if (logoPng) {
    pdf.image(logoPng, left, y, { fit: [120, 60] });
    y += 66;
  }
  const c = doc.company;
  font(true).fontSize(13).fillColor('#111');
  write(c.organization, left, y, { width: width / 2 });
  font(false).fontSize(9).fillColor('#444');
  const companyLines = [c.addressStreet1, c.addressStreet2, [c.zipCode, c.city].filter(Boolean).join(' '), c.country, c.phoneNumber, c.website].filter(
    (l): l is string => !!l && l.trim() !== '',
  );
  for (const line of companyLines) write(line, undefined, undefined, { width: width / 2 });
  const companyBottom = pdf.y;

  font(true).fontSize(20).fillColor('#111');
  write(L(doc.title), left + width / 2, pdf.page.margins.top, { width: width / 2, align: 'right' });
  font(false)
    .fontSize(12)
    .text(doc.number, left + width / 2, pdf.y, { width: width / 2, align: 'right' });
  pdf.fontSize(9).fillColor('#444');
  write(`${L('Status')}: ${L(doc.statusLabel)}`, left + width / 2, pdf.y, { width: width / 2, align: 'right' });
  for (const d of doc.dates) write(`${L(d.label)}: ${fmtDate(d.value)}`, left + width / 2, pdf.y, { width: width / 2, align: 'right' });
  return Math.max(companyBottom, pdf.y);
}

/** The party (customer or vendor) and the person in charge, under a rule; returns the bottom. */
function drawParties({ pdf, left, width, right, y: top, L, start, font, write }: Page, doc: PrintableDocument): number {
  let y = top + 18;
  pdf.moveTo(left, y).lineTo(right, y).strokeColor('#ccc').stroke();
  y += 10;
  // The party's block: its label, name, e-mail and address aligned together (an Arabic name under an English
  // label stays on the label's side, and the reverse).
  font(true).fontSize(10).fillColor('#111');
  write(L(doc.party.label), left, y, { width: width / 2, align: start });
  font(false).fontSize(10);
  write(doc.party.name, left, pdf.y, { width: width / 2, align: start });
  pdf.fontSize(9).fillColor('#444');
  if (doc.party.email) pdf.text(doc.party.email, left, pdf.y, { width: width / 2, align: start });
  for (const line of doc.party.address) write(line, left, pdf.y, { width: width / 2, align: start });
  const partyBottom = pdf.y;
  font(true).fontSize(10).fillColor('#111');
  write(L(doc.person.label), left + width / 2, y, { width: width / 2, align: 'right' });
  font(false);
  write(doc.person.name || '-', undefined, undefined, { width: width / 2, align: 'right' });
  return Math.max(partyBottom, pdf.y) + 16;
}

const LINE_COLUMNS = [
  { key: 'name', label: 'Description', w: 0.3, align: 'start' as const },
  { key: 'qty', label: 'Qty', w: 0.08, align: 'right' as const },
  { key: 'price', label: 'Unit price', w: 0.13, align: 'right' as const },
  { key: 'disc', label: 'Disc. %', w: 0.09, align: 'right' as const },
  { key: 'tax', label: 'Tax', w: 0.14, align: 'start' as const },
  { key: 'taxAmount', label: 'Tax amount', w: 0.12, align: 'right' as const },
  { key: 'subtotal', label: 'Subtotal', w: 0.14, align: 'right' as const },
];

/** The services and the parts, each a titled table (a new page when the bottom is near); moves `page.y`. */
function drawLineSections(page: Page, doc: PrintableDocument) {
  const { pdf, left, width, right, L, start, font, write, heightOf } = page;
  const row = (cells: Record<string, string>, header = false) => {
    if (page.y > pdf.page.height - pdf.page.margins.bottom - 120) {
      pdf.addPage();
      page.y = pdf.page.margins.top;
    }
    let x = left;
    let h = 0;
    font(header).fontSize(9).fillColor('#111');
    for (const col of LINE_COLUMNS) {
      const w = col.w * width;
      write(cells[col.key] ?? '', x + 2, page.y, { width: w - 4, align: col.align });
      h = Math.max(h, heightOf(cells[col.key] || ' ', w - 4, col.align));
      x += w;
    }
    page.y += h + 6;
  };
  const section = (title: string, lines: DocumentLineDto[]) => {
    if (!lines.length) return;
    font(true).fontSize(11).fillColor('#111');
    write(L(title), left, page.y, { width, align: start });
    page.y = pdf.y + 4;
    row(Object.fromEntries(LINE_COLUMNS.map((col) => [col.key, L(col.label)])), true);
    pdf
      .moveTo(left, page.y - 3)
      .lineTo(right, page.y - 3)
      .strokeColor('#ddd')
      .stroke();
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
    page.y += 8;
  };
  section('Services', doc.serviceLines);
  section('Parts', doc.partLines);
  if (!doc.serviceLines.length && !doc.partLines.length) {
    font(false).fontSize(9).fillColor('#666');
    write(L('No lines'), left, page.y, { width, align: start });
    page.y = pdf.y + 8;
  }
}

/** The totals, from the same engine as the screen, and the note. */
function drawSummary({ pdf, left, width, y: top, L, start, font, write }: Page, doc: PrintableDocument) {
  const t = doc.totals;
  const summary: [string, number, boolean][] = [
    ['Raw subtotal', t.rawSubtotal, false],
    ['Total discount', t.totalDiscount, false],
    ['Untaxed price', t.untaxed, false],
    ['Total tax', t.totalTax, false],
    ['Total price', t.total, true],
  ];
  let y = top + 4;
  const labelX = left + width * 0.55;
  for (const [label, value, strong] of summary) {
    font(strong)
      .fontSize(strong ? 11 : 10)
      .fillColor('#111');
    write(L(label), labelX, y, { width: width * 0.25, align: start });
    pdf.text(money(value, doc.currency), labelX + width * 0.25, y, { width: width * 0.2, align: 'right' });
    y += strong ? 18 : 15;
  }
  if (doc.note) {
    y += 12;
    font(true).fontSize(10);
    write(L('Note'), left, y, { width, align: start });
    font(false).fontSize(9).fillColor('#333');
    write(doc.note, left, pdf.y, { width });
  }
}

/**
 * The text a generated PDF shows (for tests), one entry per text block (BT … ET) in drawing order: standard-font
 * strings decoded as Latin-1, embedded-font glyph codes (the Arabic font) through the font's ToUnicode map. An
 * Arabic piece comes out as drawn, in visual order (right to left reversed).
 */
export function pdfText(pdf: Buffer): string {
  return pdfTextBlocks(pdf)
    .map((b) => b.text)
    .join('\n');
}

/** `pdfText` with where each block starts: x from the left, y from the page's bottom (PDF units), and its page. */
export function pdfTextBlocks(pdf: Buffer): { text: string; x: number; y: number; page: number }[] {
  const body = pdf.toString('latin1');
  const objects = new Map<string, string>();
  for (const m of body.matchAll(/(\d+) 0 obj([\s\S]*?)endobj/g)) objects.set(m[1], m[2]);
  /** Resource name (F1, F2 …) -> glyph code -> text, for the fonts that carry a ToUnicode map. */
  const maps = new Map<string, Map<number, string>>();
  for (const m of body.matchAll(/\/(F\d+) (\d+) 0 R/g)) {
    const toUnicode = /\/ToUnicode (\d+) 0 R/.exec(objects.get(m[2]) ?? '')?.[1];
    if (!toUnicode || maps.has(m[1])) continue;
    const cmap = new Map<number, string>();
    const text = objects.get(toUnicode) ?? '';
    const utf16 = (hex: string) => String.fromCharCode(...(hex.replace(/\s+/g, '').match(/.{4}/g) ?? []).map((h) => parseInt(h, 16)));
    for (const r of text.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*\[([^\]]*)\]/g)) {
      [...r[3].matchAll(/<([0-9a-fA-F ]*)>/g)].forEach((u, i) => cmap.set(parseInt(r[1], 16) + i, utf16(u[1])));
    }
    maps.set(m[1], cmap);
  }
  // a shaped piece is several TJ operators in one block (marks are positioned apart); pages are content streams
  const out: { text: string; x: number; y: number; page: number }[] = [];
  let page = 0;
  for (const stream of body.matchAll(/stream\r?\n([\s\S]*?)endstream/g)) {
    if (!/\bBT\b[\s\S]*? Tf\b/.test(stream[1])) continue;
    page += 1;
    for (const block of stream[1].matchAll(/\bBT\b([\s\S]*?)\bET\b/g)) {
      let current: Map<number, string> | undefined;
      let text = '';
      const at = /1 0 0 1 ([\d.-]+) ([\d.-]+) Tm/.exec(block[1]);
      for (const m of block[1].matchAll(/\/(F\d+) [\d.]+ Tf|\[([^\]]*)\]\s*TJ/g)) {
        if (m[1]) current = maps.get(m[1]);
        else
          for (const h of m[2].matchAll(/<([0-9a-fA-F]*)>/g)) {
            const map = current;
            text += map ? (h[1].match(/.{4}/g) ?? []).map((code) => map.get(parseInt(code, 16)) ?? '').join('') : Buffer.from(h[1], 'hex').toString('latin1');
          }
      }
      out.push({ text, x: Number(at?.[1] ?? 0), y: Number(at?.[2] ?? 0), page });
    }
  }
  return out;
}
