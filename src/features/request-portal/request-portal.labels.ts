import { collectPdf, textHeight, visualPieces } from '../../server/pdf-bidi';
import type { LabelLayout } from './request-portal.schema';
import { pdfImage } from '../../server/pdf-image';

const MM = 72 / 25.4;

/** Sheet layouts (A4, mm): a common 3 × 8 sheet (70 × 37), a 2 × 5 sheet (99 × 57), and one large label per page (100 × 150). */
const LAYOUTS: Record<
  LabelLayout,
  { page: [number, number]; cols: number; rows: number; w: number; h: number; left: number; top: number; gapX: number; gapY: number }
> = {
  'sheet-24': { page: [210, 297], cols: 3, rows: 8, w: 70, h: 37, left: 0, top: 0.5, gapX: 0, gapY: 0 },
  'sheet-10': { page: [210, 297], cols: 2, rows: 5, w: 99.1, h: 57, left: 4.65, top: 6, gapX: 2.5, gapY: 0 },
  'single-large': { page: [100, 150], cols: 1, rows: 1, w: 100, h: 150, left: 0, top: 0, gapX: 0, gapY: 0 },
};

export interface LabelInput {
  organization: string;
  logo: Buffer | null;
  origin: string;
  layout: LabelLayout;
  labels: { name: string; number: string; token: string }[];
}

/** The URL a label's code holds: the organisation's own address, /r/<token>. */
export const codeUrl = (origin: string, token: string) => `${origin}/r/${token}`;

/** A PDF of asset labels: each a QR code of the asset's URL, its name, its number and the organisation's logo. */
export async function assetLabelsPdf(input: LabelInput): Promise<Buffer> {
  const [{ default: PDFDocument }, { default: QRCode }] = await Promise.all([import('pdfkit'), import('qrcode')]);
  // qrcode is CommonJS: its functions are on `default` (module.exports) in the esbuild bundle and under Node alike; the bundle has no named ones.
  const layout = LAYOUTS[input.layout];
  const logo = input.logo ? await pdfImage(input.logo, 200, 80) : null;
  const pdf = new PDFDocument({
    size: [layout.page[0] * MM, layout.page[1] * MM],
    margin: 0,
    autoFirstPage: false,
    compress: false,
    info: { Title: 'Asset labels', Author: input.organization },
  });
  const done = collectPdf(pdf);

  /** One line of text, Arabic runs in the Arabic font, shrunk to fit `width`; returns the height it takes (the taller font's line). */
  const line = (text: string, x: number, y: number, width: number, size: number, bold = false) => {
    // Pieces in visual order (src/server/pdf-bidi.ts), each laid out as one run (features given) and shaped by fontkit.
    const runs = visualPieces(text).map((p) => ({ text: p.text, font: p.arabic ? 'Arabic' : bold ? 'Helvetica-Bold' : 'Helvetica' }));
    const measure = (s: number) => runs.reduce((w, r) => w + pdf.font(r.font).fontSize(s).widthOfString(r.text, { features: [] }), 0);
    let s = size;
    while (s > 5 && measure(s) > width) s -= 0.5;
    let cx = x;
    for (const r of runs) {
      pdf.font(r.font).fontSize(s).text(r.text, cx, y, { lineBreak: false, features: [] });
      cx += pdf.widthOfString(r.text, { features: [] });
    }
    // From the drawn text: Noto Sans Arabic's line is a third taller than Helvetica's at one size.
    pdf.fontSize(s);
    return textHeight(pdf, text, { width: Number.MAX_SAFE_INTEGER, bold });
  };

  const perPage = layout.cols * layout.rows;
  for (let i = 0; i < input.labels.length; i++) {
    if (i % perPage === 0) pdf.addPage();
    const label = input.labels[i];
    const col = (i % perPage) % layout.cols;
    const row = Math.floor((i % perPage) / layout.cols);
    const x = (layout.left + col * (layout.w + layout.gapX)) * MM;
    const y = (layout.top + row * (layout.h + layout.gapY)) * MM;
    const w = layout.w * MM;
    const h = layout.h * MM;
    const pad = 3 * MM;
    const url = codeUrl(input.origin, label.token);
    const png = await QRCode.toBuffer(url, { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 8 });
    if (input.layout === 'single-large') {
      // Large: the code across the label, the text under it.
      const size = w - 2 * pad * 2;
      if (logo) pdf.image(logo, x + pad * 2, y + pad * 2, { fit: [w - pad * 4, 12 * MM] });
      pdf.image(png, x + pad * 2, y + 18 * MM, { width: size, height: size });
      const nameHeight = line(label.name, x + pad * 2, y + 20 * MM + size, w - pad * 4, 18, true);
      line(label.number, x + pad * 2, y + 20 * MM + size + Math.max(nameHeight, 10 * MM), w - pad * 4, 14);
    } else {
      const size = h - 2 * pad;
      pdf.image(png, x + pad, y + pad, { width: size, height: size });
      const tx = x + pad + size + 2 * MM;
      const tw = w - (tx - x) - pad;
      let ty = y + pad;
      if (logo) {
        pdf.image(logo, tx, ty, { fit: [tw, h * 0.22] });
        ty += h * 0.22 + 1.5 * MM;
      }
      const nameHeight = line(label.name, tx, ty, tw, input.layout === 'sheet-10' ? 13 : 10, true);
      // The number under the name as drawn (an Arabic name's line is taller), never less than the usual gap.
      line(label.number, tx, ty + Math.max(nameHeight, (input.layout === 'sheet-10' ? 6 : 4.5) * MM), tw, input.layout === 'sheet-10' ? 10 : 8);
      line(input.organization, tx, y + h - pad - 3 * MM, tw, 6);
    }
  }
  pdf.end();
  return done;
}
