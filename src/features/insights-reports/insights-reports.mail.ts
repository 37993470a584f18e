import { escapeHtml, type MailAttachment } from '../../server/mailer';
import { drawText, collectPdf } from '../../server/pdf-bidi';
import { isolate, mailHtml, type MailLanguage } from '../../server/mail-language';
import { currencyDigits, toMajor } from '../../shared/money';
import type { ReportFigures, ReportFormat, ReportFrequency } from './insights-reports.schema';

/** The report's words, in the recipient's language (decision 065). */
const WORDS = {
  en: {
    weekly: 'Weekly insights summary',
    monthly: 'Monthly insights summary',
    period: (from: string, to: string) => `Period: ${from} to ${to}`,
    attached: 'The summary is attached as a PDF.',
    none: 'none',
    rows: {
      openNow: 'Open work orders (now)',
      overdueNow: 'Overdue work orders (now)',
      created: 'Work orders created',
      completed: 'Work orders completed',
      mttrHours: 'Mean time to repair (hours)',
      plannedShare: 'Planned share of work orders',
      pmCompliance: 'PM compliance',
      cost: 'Maintenance cost',
    },
  },
  ar: {
    weekly: 'ملخص المؤشرات الأسبوعي',
    monthly: 'ملخص المؤشرات الشهري',
    period: (from: string, to: string) => `الفترة: من ${from} إلى ${to}`,
    attached: 'الملخص مرفق بصيغة PDF.',
    none: 'لا يوجد',
    rows: {
      openNow: 'أوامر العمل المفتوحة (الآن)',
      overdueNow: 'أوامر العمل المتأخرة (الآن)',
      created: 'أوامر العمل المنشأة',
      completed: 'أوامر العمل المنجزة',
      mttrHours: 'متوسط زمن الإصلاح (ساعات)',
      plannedShare: 'نسبة العمل المخطط',
      pmCompliance: 'الالتزام بالصيانة الوقائية',
      cost: 'تكلفة الصيانة',
    },
  },
} as const;

const percent = (v: number | null) => (v === null ? null : `${Math.round(v * 1000) / 10}%`);

/** The summary's lines as label and value (numbers in Latin digits, as the insights screen shows them). */
export function reportLines(lang: MailLanguage, f: ReportFigures): [string, string][] {
  const w = WORDS[lang];
  const or = (v: string | null) => v ?? w.none;
  const digits = currencyDigits(f.currency);
  return [
    [w.rows.openNow, String(f.openNow)],
    [w.rows.overdueNow, String(f.overdueNow)],
    [w.rows.created, String(f.created)],
    [w.rows.completed, String(f.completed)],
    [w.rows.mttrHours, or(f.mttrHours === null ? null : (Math.round(f.mttrHours * 10) / 10).toFixed(1))],
    [w.rows.plannedShare, or(percent(f.plannedShare))],
    [w.rows.pmCompliance, or(percent(f.pmCompliance))],
    [w.rows.cost, `${toMajor(f.costMinor, digits).toFixed(digits)} ${f.currency}`],
  ];
}

async function reportPdf(lang: MailLanguage, title: string, organization: string, period: string, lines: [string, string][]): Promise<Buffer> {
  // pdfkit loads on the first report, not at start (decision 013).
  const { default: PDFDocument } = await import('pdfkit');
  const pdf = new PDFDocument({ size: 'A4', margin: 48, compress: false, info: { Title: title, Author: organization } });
  const done = collectPdf(pdf);
  const left = pdf.page.margins.left;
  const width = pdf.page.width - left - pdf.page.margins.right;
  const align = lang === 'ar' ? 'right' : 'left';
  pdf.fillColor('#111').fontSize(18);
  drawText(pdf.font('Helvetica-Bold'), title, left, pdf.page.margins.top, { width, align, bold: true });
  pdf.fontSize(12);
  drawText(pdf.font('Helvetica'), organization, left, pdf.y + 4, { width, align });
  drawText(pdf.font('Helvetica'), period, left, pdf.y + 4, { width, align });
  pdf.y += 12;
  for (const [label, value] of lines) {
    const y = pdf.y + 6;
    const labelX = lang === 'ar' ? left + width / 3 : left;
    const valueX = lang === 'ar' ? left : left + (2 * width) / 3;
    drawText(pdf.font('Helvetica'), label, labelX, y, { width: (2 * width) / 3, align });
    const after = pdf.y;
    drawText(pdf.font('Helvetica-Bold'), value, valueX, y, { width: width / 3, align: lang === 'ar' ? 'left' : 'right', bold: true });
    pdf.y = Math.max(after, pdf.y);
  }
  pdf.end();
  return done;
}

/** A report's mail: the summary in the body (html) or a short body with the summary attached (pdf). */
export async function reportMail(
  lang: MailLanguage,
  format: ReportFormat,
  frequency: ReportFrequency,
  organization: string,
  figures: ReportFigures,
): Promise<{ subject: string; text: string; html: string; attachments?: MailAttachment[] }> {
  const w = WORDS[lang];
  const title = w[frequency];
  const period = w.period(figures.range.from, figures.range.to);
  const lines = reportLines(lang, figures);
  const subject = `${title}: ${isolate(organization)}`;
  if (format === 'pdf') {
    const pdf = await reportPdf(lang, title, organization, period, lines);
    return {
      subject,
      text: `${title}\n${period}\n\n${w.attached}`,
      html: mailHtml(lang, `<h2>${escapeHtml(title)}</h2><p>${escapeHtml(period)}</p><p>${escapeHtml(w.attached)}</p>`),
      attachments: [{ filename: `insights-${figures.range.from}-${figures.range.to}.pdf`, contentType: 'application/pdf', content: pdf.toString('base64') }],
    };
  }
  const rows = lines
    .map(
      ([label, value]) =>
        `<tr><td style="padding:4px 12px">${escapeHtml(label)}</td><td style="padding:4px 12px"><b dir="ltr">${escapeHtml(value)}</b></td></tr>`,
    )
    .join('');
  return {
    subject,
    text: `${title}\n${period}\n\n${lines.map(([label, value]) => `${label}: ${value}`).join('\n')}`,
    html: mailHtml(lang, `<h2>${escapeHtml(title)}</h2><p><bdi>${escapeHtml(organization)}</bdi></p><p>${escapeHtml(period)}</p><table>${rows}</table>`),
  };
}
