import { formatDateTime, formatNumber } from '../../shared/format';
import type { WorkOrderDto } from '../work-orders/work-orders.schema';
import { workOrderDisplayId } from '../work-orders/work-orders.schema';
import { isSignOffValue, type IssuedStepDto, type WorkOrderProcedureDto } from './procedures.schema';
import { drawText, collectPdf } from '../../server/pdf-bidi';
import { pdfLabel, stepsDone, type PdfLanguage } from '../../server/pdf-labels';
import { pdfImage } from '../../server/pdf-image';

/** Everything the printed work order shows. */
export interface PrintableWorkOrder {
  organization: string;
  /** The organisation's time zone: the times print on its clock (decision 064); UTC when absent. */
  timeZone?: string;
  workOrder: WorkOrderDto;
  procedure: WorkOrderProcedureDto | null;
  /** The stored bytes of the procedure's photos and signatures, by their URL (any of JPEG, PNG, WebP). */
  images: Map<string, Buffer>;
  /** The document's language (the requesting user's): labels, status, priority and answers (decision 065). English when absent. */
  language?: PdfLanguage;
}

// Labels print in the document's language (pdf-labels.ts), as on quotations and purchase orders; the order's own words (title, names, instructions,
// steps, answers) as written, Arabic shaped, wrapped and ordered by src/server/pdf-bidi.ts.
const whenIn = (zone: string) => (d: string | null) => formatDateTime(d, 'en', zone) || '-';
const STATUS: Record<string, string> = { assigned: 'Open', 'in-progress': 'In Progress', completed: 'Closed', cancelled: 'Cancelled' };
const PASS_FAIL: Record<string, string> = { pass: 'Pass', fail: 'Fail', flag: 'Flag' };
const SIGN_MEANING: Record<string, string> = { performed: 'Performed', verified: 'Verified', approved: 'Approved' };

/** Instructions are stored as sanitised HTML: printed as plain text, one paragraph a line. */
export function htmlToText(html: string | null): string {
  if (!html) return '';
  return html
    .replace(/<\/(p|div|li|h[1-6])>|<br\s*\/?>/gi, '\n')
    .replace(/<li[^>]*>/gi, '• ')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)))
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A step's answer in words ('-' when empty). */
export function answerWords(step: IssuedStepDto, lang: PdfLanguage = 'en', zone = 'UTC'): string {
  const v = step.value;
  const L = (english: string) => pdfLabel(lang, english);
  if (v === null || v === undefined) return '-';
  switch (step.kind) {
    case 'checkbox':
      return v === true ? L('Done') : '-';
    case 'pass-fail':
      return L(PASS_FAIL[String(v)] ?? String(v));
    case 'number': {
      const range = step.min !== null || step.max !== null ? ` (allowed ${step.min ?? '…'} to ${step.max ?? '…'})` : '';
      return `${formatNumber(Number(v), 'en')}${step.unit ? ` ${step.unit}` : ''}${range}`;
    }
    case 'photo':
      return L('Photo');
    case 'signature':
      return L('Signed');
    case 'sign-off':
      // The signature's meaning, name and time (decision 078), on the organisation's clock.
      return isSignOffValue(v) ? `${L('Signed')}: ${L(SIGN_MEANING[v.meaning])} · ${v.name} · ${whenIn(zone)(v.signedAt)}` : '-';
    default:
      return String(v);
  }
}

/**
 * Renders the work order and its filled procedure with pdfkit (A4, Helvetica and Noto Sans Arabic; streams
 * uncompressed so tests can read the text, as the commercial documents).
 */
export async function renderWorkOrderPdf(doc: PrintableWorkOrder): Promise<Buffer> {
  // pdfkit loads on the first PDF, not at start (decision 013).
  const { default: PDFDocument } = await import('pdfkit');
  const wo = doc.workOrder;
  const when = whenIn(doc.timeZone ?? 'UTC');
  const lang = doc.language ?? 'en';
  const L = (english: string) => pdfLabel(lang, english);
  const pdf = new PDFDocument({ size: 'A4', margin: 48, compress: false, info: { Title: `Work Order ${wo.workOrderId}`, Author: doc.organization } });
  const done = collectPdf(pdf);
  const left = pdf.page.margins.left;
  const width = pdf.page.width - left - pdf.page.margins.right;
  /** The order's own words at the current size and colour; `x`/`y` default to the flow's. */
  const say = (text: string, opts: { x?: number; y?: number; width?: number; bold?: boolean } = {}) =>
    drawText(pdf.font(opts.bold ? 'Helvetica-Bold' : 'Helvetica'), text, opts.x ?? pdf.x, opts.y ?? pdf.y, { width: opts.width ?? width, bold: opts.bold });
  const bottom = pdf.page.height - pdf.page.margins.bottom;
  const rule = () => {
    const y = pdf.y + 6;
    pdf
      .moveTo(left, y)
      .lineTo(left + width, y)
      .strokeColor('#ccc')
      .stroke();
    pdf.y = y + 8;
  };
  const room = (h: number) => {
    if (pdf.y + h > bottom) pdf.addPage();
  };

  pdf.fontSize(13).fillColor('#111');
  say(doc.organization, { x: left, y: pdf.page.margins.top, width: width / 2, bold: true });
  pdf.fontSize(20).fillColor('#111');
  drawText(pdf.font('Helvetica-Bold'), L('Work Order'), left + width / 2, pdf.page.margins.top, { width: width / 2, align: 'right', bold: true });
  pdf
    .font('Helvetica')
    .fontSize(12)
    .text(wo.workOrderId, left + width / 2, pdf.y, { width: width / 2, align: 'right' });
  pdf.x = left;
  pdf.moveDown();
  rule();

  pdf.fontSize(14).fillColor('#111');
  say(wo.title, { x: left, bold: true });
  pdf.moveDown(0.3);
  const facts: [string, string][] = [
    ['Status', L(STATUS[wo.status] ?? wo.status)],
    ['Priority', L(wo.priority)],
    ['Asset', wo.asset?.name ?? '-'],
    ['Assignees', wo.assignees.map((a) => `${a.firstName} ${a.lastName}`.trim()).join(', ') || '-'],
    ['Start', when(wo.startDate)],
    ['End', when(wo.endDate)],
    ['Due', when(wo.dueDate)],
    ['Expected duration', wo.duration ?? '-'],
  ];
  pdf.font('Helvetica').fontSize(10).fillColor('#333');
  for (const [label, value] of facts) say(`${L(label)}: ${value}`);
  const instructions = htmlToText(wo.instructions);
  if (instructions) {
    pdf.moveDown(0.5);
    pdf.fontSize(11).fillColor('#111');
    say(L('Instructions'), { bold: true });
    pdf.fontSize(10).fillColor('#333');
    say(instructions);
  }

  const procedure = doc.procedure;
  if (procedure) {
    pdf.moveDown();
    rule();
    const p = procedure.progress;
    pdf.fontSize(13).fillColor('#111');
    say(`${L('Procedure')}: ${procedure.name}`, { bold: true });
    pdf.fontSize(10).fillColor('#444');
    say(stepsDone(lang, p));
    if (procedure.description) say(procedure.description);
    pdf.moveDown(0.5);
    let n = 0;
    for (const step of procedure.steps) {
      room(40);
      if (step.kind === 'heading') {
        pdf.moveDown(0.4);
        pdf.fontSize(11).fillColor('#111');
        say(step.label, { x: left, bold: true });
        continue;
      }
      n += 1;
      pdf.fontSize(10).fillColor('#111');
      say(`${n}. ${step.label}${step.required ? ' *' : ''}`, { x: left, bold: true });
      pdf.fillColor(step.flagged ? '#c92a2a' : '#333');
      say(`${answerWords(step, lang, doc.timeZone ?? 'UTC')}${step.flagged ? `  ${L('FLAGGED')}` : ''}`, { x: left + 14, width: width - 14 });
      const image = typeof step.value === 'string' ? doc.images.get(step.value) : undefined;
      if (image) {
        const png = await pdfImage(image, 360, 180);
        if (png) {
          room(100);
          pdf.image(png, left + 14, pdf.y + 2, { fit: [180, 90] });
          pdf.y += 96;
        }
      }
      const meta = [
        step.answeredBy && step.value !== null ? `${step.answeredBy.firstName} ${step.answeredBy.lastName}`.trim() : null,
        step.answeredAt && step.value !== null ? when(step.answeredAt) : null,
        step.followUpWorkOrderId ? `${L('Follow-up')} ${workOrderDisplayId(step.followUpWorkOrderId)}` : null,
      ].filter(Boolean);
      if (meta.length) {
        pdf.fontSize(8).fillColor('#777');
        say(meta.join(' · '), { x: left + 14, width: width - 14 });
      }
      pdf.moveDown(0.3);
    }
  }
  pdf.x = left;
  pdf.moveDown();
  pdf.fontSize(8).fillColor('#777');
  say(`${L('Printed')} ${when(new Date().toISOString())}`, { x: left, width });
  pdf.end();
  return done;
}
