import { describe, expect, it } from 'vitest';
import { registerArabicFonts } from '../../server/pdf-bidi';
import { assetLabelsPdf } from './request-portal.labels';

/** Each text run of an uncompressed pdfkit page: its baseline (PDF units, from the bottom), font size and glyph bytes. */
function runsOf(pdf: Buffer) {
  const runs: { y: number; size: number; hex: string }[] = [];
  let size = 0;
  let y = 0;
  for (const m of pdf.toString('latin1').matchAll(/1 0 0 1 [\d.]+ ([\d.]+) Tm|\/F\d+ ([\d.]+) Tf|\[<([0-9a-f]+)>/g)) {
    if (m[1]) y = Number(m[1]);
    else if (m[2]) size = Number(m[2]);
    else runs.push({ y, size, hex: m[3] });
  }
  return runs;
}

describe('asset labels', () => {
  it('on the 24-per-sheet layout the number sits under an Arabic name as drawn, not over it', async () => {
    const number = 'PMP-0002';
    const pdf = await assetLabelsPdf({
      organization: 'Org',
      logo: null,
      origin: 'http://x.localhost',
      layout: 'sheet-24',
      labels: [{ name: 'مضخة الغلاية الرئيسية', number, token: 'abc' }],
    });
    const runs = runsOf(pdf);
    const at = runs.findIndex((r) => r.hex === Buffer.from(number, 'latin1').toString('hex'));
    expect(at).toBeGreaterThan(0);
    expect(runs.slice(0, at).every((r) => r.size > 0)).toBe(true);
    const name = runs.slice(0, at);
    // The line's baseline: the runs' usual one (shaping moves some marks a little above or below it).
    const nameBaseline = name.map((r) => r.y).sort((a, b) => a - b)[Math.floor(name.length / 2)];
    const nameSize = name[name.length - 1].size;
    // The fonts' own metrics: Noto Sans Arabic Bold's descent under the name, Helvetica's ascent above the number.
    const { default: PDFDocument } = await import('pdfkit');
    const doc = new PDFDocument();
    registerArabicFonts(doc);
    const metric = (font: string, key: 'ascender' | 'descender') => (doc.font(font) as unknown as { _font: Record<string, number> })._font[key] / 1000;
    const descent = -metric('Arabic-Bold', 'descender') * nameSize;
    const ascent = metric('Helvetica', 'ascender') * runs[at].size;
    // The two lines' boxes may touch (to a rounding), never overlap.
    expect(nameBaseline - runs[at].y).toBeGreaterThanOrEqual(descent + ascent - 0.01);
  });
});
