import { describe, expect, it } from 'vitest';
import { pdfText, pdfTextBlocks, renderDocumentPdf } from './document-pdf.service';
import { printableQuotation } from '../../server/test/printables';
import { bidiLines, visualPieces } from '../../server/pdf-bidi';

const reversed = (s: string) => [...s].reverse().join('');

describe('Arabic in printed documents', () => {
  it('orders mixed text by the bidi algorithm', () => {
    expect(visualPieces('Riverside شركة النور')).toEqual([
      { text: 'Riverside ', arabic: false },
      { text: 'شركة النور', arabic: true },
    ]);
    // an Arabic paragraph: read from the right, the word, then 3, then kW (UAX 9: the space between 3 and kW is
    // right to left), so from the left: kW, 3, the word
    expect(visualPieces('مضخة 3 kW')).toEqual([
      { text: 'kW', arabic: false },
      { text: ' ', arabic: true },
      { text: '3', arabic: false },
      { text: 'مضخة ', arabic: true },
    ]);
  });

  it('prints an Arabic customer name in the Arabic font, shaped and in visual order', async () => {
    const pdf = await renderDocumentPdf(printableQuotation('شركة النور', 'Riverside صيانة'));
    expect(pdf.toString('latin1')).toContain('NotoSansArabic');
    const text = pdfText(pdf).split('\n');
    // drawn right to left: the extracted piece is the name reversed
    expect(text).toContain(reversed('شركة النور'));
    const riverside = text.indexOf('Riverside ');
    expect(riverside).toBeGreaterThan(-1);
    expect(text[riverside + 1]).toBe(reversed('صيانة'));
    // shaped: a letter drawn in two contextual forms (final ر in النور, medial/final in شركة) gets two glyphs
    const body = pdf.toString('latin1');
    const raGlyphs = [...body.matchAll(/<0631>/g)].length;
    expect(raGlyphs).toBeGreaterThanOrEqual(2);
  });

  it('wraps a paragraph by words in logical order, then orders each line for drawing', () => {
    // one unit a character: lines of at most 11
    const lines = bidiLines('واحد اثنان ثلاثة أربعة خمسة', 11, (p) => [...p.text].length);
    expect(lines.map((l) => l.text)).toEqual(['واحد اثنان', 'ثلاثة أربعة', 'خمسة']);
    expect(lines.every((l) => l.rtl && l.width <= 11)).toBe(true);
    // an English name broken over two lines of an Arabic paragraph: each line reads from the right on its own
    const mixed = bidiLines('صيانة Riverside Pump للمبنى الشمالي', 16, (p) => [...p.text].length);
    expect(mixed.map((l) => l.text)).toEqual(['صيانة Riverside', 'Pump للمبنى', 'الشمالي']);
    // from the left: the English name, then the Arabic word (drawn right to left, its space at its left end)
    expect(mixed[0].pieces.map((p) => p.text)).toEqual(['Riverside', 'صيانة ']);
    expect(mixed[1].pieces.map((p) => p.text)).toEqual([' للمبنى', 'Pump']);
    // a left-to-right paragraph keeps its Arabic words in their place; a newline starts a paragraph
    const ltr = bidiLines('Pump شركة النور\nسطر', 100, (p) => [...p.text].length);
    expect(ltr.map((l) => [l.text, l.rtl])).toEqual([
      ['Pump شركة النور', false],
      ['سطر', true],
    ]);
    // a word wider than a line is broken between characters
    expect(bidiLines('abcdefghij', 4, (p) => p.text.length).map((l) => l.text)).toEqual(['abcd', 'efgh', 'ij']);
  });

  it('wraps a long Arabic note inside the page, first words on the first line', async () => {
    // the first and last words of letters that never join on their left (ا د ر و): their glyphs read back as
    // themselves (a joined letter's glyph may be shared with a letter of the same shape, and reads back as that one)
    const words = Array.from({ length: 60 }, (_, i) => ['صيانة', 'مضخة', 'شركة'][i % 3]);
    const note = `ورد دور ${words.join(' ')} رواد ادوار`;
    const pdf = await renderDocumentPdf({ ...printableQuotation('شركة النور', 'Pump'), note });
    const blocks = pdfTextBlocks(pdf);
    const noteAt = blocks.findIndex((b) => b.text === 'Note');
    const lines = [...new Set(blocks.slice(noteAt + 1).map((b) => b.y))];
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const onLine = (y: number) =>
      blocks
        .slice(noteAt + 1)
        .filter((b) => b.y === y)
        .map((b) => b.text)
        .join('');
    // drawn right to left: each line's text as extracted is reversed
    expect(onLine(lines[0]).endsWith(reversed('ورد دور'))).toBe(true);
    expect(onLine(lines[lines.length - 1]).startsWith(reversed('ادوار'))).toBe(true);
    // every line starts inside the margin; an Arabic paragraph is right-aligned (its short last line starts further right)
    for (const b of blocks.slice(noteAt + 1)) expect(b.x).toBeGreaterThanOrEqual(48 - 0.01);
    const short = pdfTextBlocks(await renderDocumentPdf({ ...printableQuotation('Acme', 'Pump'), note: 'رواد ادوار' }));
    expect(short[short.findIndex((b) => b.text === 'Note') + 1].x).toBeGreaterThan(48 + 300);
  });

  it('wraps a long Arabic line description inside its column', async () => {
    const description = 'ورد دور صيانة دورية شاملة لمضخة المياه الرئيسية في المبنى الشمالي مع تغيير الحشوات والفلاتر';
    const pdf = await renderDocumentPdf(printableQuotation('شركة النور', description));
    const blocks = pdfTextBlocks(pdf);
    const arabic = blocks.filter((b) => /[\u0600-\u06FF]/.test(b.text) && !b.text.includes(reversed('شركة')));
    expect(new Set(arabic.map((b) => b.y)).size).toBeGreaterThanOrEqual(2);
    // the column is 30% of the 499-point line from x = 48
    for (const b of arabic) expect(b.x).toBeLessThan(48 + 0.3 * (595.28 - 96));
    // the first words on the top line
    const top = Math.max(...arabic.map((b) => b.y));
    expect(
      arabic
        .filter((b) => b.y === top)
        .map((b) => b.text)
        .join(''),
    ).toContain(reversed('ورد دور'));
  });
});
