import { describe, expect, it } from 'vitest';
import { printableWorkOrder, workOrderPdf } from '../../server/test/printables';
import { pdfTextBlocks } from '../commercial-documents/document-pdf.service';

const reversed = (s: string) => [...s].reverse().join('');

describe('the printed work order', () => {
  it('prints Arabic in the Arabic font, shaped, right to left and wrapped', async () => {
    const instructions = Array.from({ length: 40 }, (_, i) => ['افحص', 'مضخة', 'المياه'][i % 3]).join(' ');
    const workOrder = printableWorkOrder({
      title: 'صيانة مضخة',
      status: 'assigned',
      priority: 'High',
      asset: { name: 'مضخة رئيسية' },
      assignees: [{ firstName: 'Sara', lastName: 'Haddad' }],
      instructions: `<p>ورد دور ${instructions} رواد</p>`,
    });
    const pdf = await workOrderPdf(workOrder, { organization: 'شركة النور' });
    expect(pdf.toString('latin1')).toContain('NotoSansArabic');
    const blocks = pdfTextBlocks(pdf);
    const texts = blocks.map((b) => b.text);
    expect(texts).toContain(reversed('شركة النور'));
    expect(texts).toContain(reversed('صيانة مضخة'));
    // "Asset: مضخة رئيسية": an English line with the Arabic name after the label
    const asset = texts.indexOf('Asset: ');
    expect(asset).toBeGreaterThan(-1);
    expect(texts[asset + 1]).toBe(reversed('مضخة رئيسية'));
    // the instructions wrap: several lines, the first words on the first, all inside the margins
    const start = texts.indexOf('Instructions');
    const lines = [
      ...new Set(
        blocks
          .slice(start + 1)
          .filter((b) => /[\u0600-\u06FF]/.test(b.text))
          .map((b) => b.y),
      ),
    ];
    expect(lines.length).toBeGreaterThanOrEqual(2);
    const first = blocks
      .slice(start + 1)
      .filter((b) => b.y === lines[0])
      .map((b) => b.text)
      .join('');
    // (words of letters that never join on their left read back as themselves, see document-pdf.test.ts)
    expect(first.endsWith(reversed('ورد دور'))).toBe(true);
    for (const b of blocks) expect(b.x).toBeGreaterThanOrEqual(48 - 0.01);
  });

  // Issue 39, decision 064: times print on the organisation's clock, not the server's (in decision 066's one
  // English format, the month by name). 22:30 UTC on the 6th is 01:30 on the 7th in Riyadh (UTC+3).
  it("prints the times in the organisation's time zone", async () => {
    const workOrder = printableWorkOrder({
      workOrderId: 'WO-0008',
      title: 'Night check',
      status: 'assigned',
      priority: 'High',
      asset: null,
      dueDate: '2030-01-06T22:30:00.000Z',
      instructions: null,
    });
    const text = async (timeZone?: string) =>
      pdfTextBlocks(await workOrderPdf(workOrder, { timeZone }))
        .map((b) => b.text)
        .join(' ');
    expect(await text('Asia/Riyadh')).toContain('Due: 07 Jan 2030, 01:30 AM');
    expect(await text('UTC')).toContain('Due: 06 Jan 2030, 10:30 PM');
  });
});
