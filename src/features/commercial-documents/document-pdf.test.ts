import { describe, expect, it } from 'vitest';
import { pdfText, renderDocumentPdf, type PrintableDocument } from './document-pdf.service';
import { visualPieces } from '../../server/pdf-bidi';

const totals = { rawSubtotal: 100, totalDiscount: 0, untaxed: 100, totalTax: 0, total: 100 };
const line = (name: string) => ({ name, quantity: 1, unitPrice: 100, discount: 0, taxAmount: 0, subtotal: 100, Tax: null }) as never;

function document(partyName: string, lineName: string): PrintableDocument {
  return {
    title: 'Quotation',
    number: 'Q-0001',
    statusLabel: 'Draft',
    currency: 'USD',
    company: { organization: 'Acme', addressStreet1: null, addressStreet2: null, city: null, zipCode: null, country: null, phoneNumber: null, website: null },
    logo: null,
    party: { label: 'Customer', name: partyName, email: null, address: [] },
    person: { label: 'Sales person', name: 'Alex' },
    dates: [],
    serviceLines: [line(lineName)],
    partLines: [],
    totals,
    note: null,
  };
}

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
    const pdf = await renderDocumentPdf(document('شركة النور', 'Riverside صيانة'));
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
});
