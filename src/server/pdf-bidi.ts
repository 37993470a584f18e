import { createRequire } from 'node:module';
import bidiFactory from 'bidi-js';

/** Arabic letters, marks and presentation forms: what the Arabic font draws. */
const ARABIC = /[\u0600-\u06FF\u0750-\u077F\u0870-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/;

/** True when `text` holds Arabic script (it then needs the Arabic font and the bidi order). */
export const hasArabic = (text: string) => ARABIC.test(text);

/** The Noto Sans Arabic files (fontsource's Arabic subset, WOFF: fontkit reads it) for regular and bold runs. */
function arabicFontFiles() {
  const require = createRequire(import.meta.url);
  const file = (weight: number) => require.resolve(`@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-${weight}-normal.woff`);
  return { regular: file(400), bold: file(700) };
}

export interface VisualPiece {
  /** The characters in logical order (the font's layout puts an Arabic piece right to left and shapes it). */
  text: string;
  arabic: boolean;
}

let bidi: ReturnType<typeof bidiFactory> | null = null;

/** The embedding levels of a paragraph and its direction (the first strong character's; left to right without one). */
function paragraphLevels(text: string) {
  bidi ??= bidiFactory();
  const { levels, paragraphs } = bidi.getEmbeddingLevels(text);
  return { levels, rtl: (paragraphs[0]?.level ?? 0) % 2 === 1 };
}

/**
 * Splits one line into the pieces to draw from left to right (Unicode bidi algorithm, UAX 9, by bidi-js): runs
 * of equal embedding level, reordered by rule L2; inside a right-to-left run, its Arabic and non-Arabic pieces
 * are laid out from the right. The paragraph direction is the first strong character's.
 */
export function visualPieces(text: string): VisualPiece[] {
  return orderLine(text, paragraphLevels(text).levels, 0);
}

/** Rule L2 on the line text[from, from + line.length) with the paragraph's levels; pieces from left to right. */
function orderLine(line: string, levels: ArrayLike<number>, from: number): VisualPiece[] {
  const runs: { start: number; end: number; level: number }[] = [];
  for (let i = 0; i < line.length; i++) {
    const last = runs[runs.length - 1];
    const level = levels[from + i];
    if (last && last.level === level) last.end = i + 1;
    else runs.push({ start: i, end: i + 1, level });
  }
  // L2: from the highest level down to the lowest odd one, reverse every sequence of runs at that level or higher
  const max = Math.max(0, ...runs.map((r) => r.level));
  const lowestOdd = Math.min(...runs.map((r) => r.level).filter((l) => l % 2 === 1), max + 1);
  for (let level = max; level >= lowestOdd; level--) {
    for (let i = 0; i < runs.length; i++) {
      if (runs[i].level < level) continue;
      let j = i;
      while (j + 1 < runs.length && runs[j + 1].level >= level) j++;
      runs.splice(i, j - i + 1, ...runs.slice(i, j + 1).reverse());
      i = j;
    }
  }
  const pieces: VisualPiece[] = [];
  for (const run of runs) {
    const rtl = run.level % 2 === 1;
    const part: VisualPiece[] = [];
    for (const ch of line.slice(run.start, run.end)) {
      // a space inside a right-to-left run stays with its Arabic neighbours (one shaped piece)
      const arabic = ARABIC.test(ch) || (rtl && ch === ' ');
      const last = part[part.length - 1];
      if (last && last.arabic === arabic) last.text += ch;
      else part.push({ text: ch, arabic });
    }
    if (rtl) {
      part.reverse();
      // a non-Arabic piece inside a right-to-left run (punctuation) reads from the right too
      for (const p of part) if (!p.arabic) p.text = [...p.text].reverse().join('');
    }
    pieces.push(...part);
  }
  return pieces;
}

export interface BidiLine {
  /** The line's characters in logical order. */
  text: string;
  /** What to draw, from left to right. */
  pieces: VisualPiece[];
  /** The paragraph's direction (a right-to-left paragraph starts at the right). */
  rtl: boolean;
  width: number;
}

/**
 * Breaks text into lines no wider than `maxWidth` and orders each line for drawing (UAX 9: levels resolved on the
 * whole paragraph, lines broken by words in logical order, then each line reordered by rule L2). A newline starts
 * a paragraph; a word wider than a line is broken between characters. `measure` gives a piece's width in its font.
 */
export function bidiLines(text: string, maxWidth: number, measure: (piece: VisualPiece) => number): BidiLine[] {
  const lines: BidiLine[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    const { levels, rtl } = paragraphLevels(paragraph);
    /** The line paragraph[start, end) as drawn: L1, the spaces at a line's end are dropped (as the break itself). */
    const line = (start: number, end: number): BidiLine => {
      const slice = paragraph.slice(start, end).replace(/\s+$/, '');
      const pieces = orderLine(slice, levels, start);
      return { text: slice, pieces, rtl, width: pieces.reduce((w, p) => w + measure(p), 0) };
    };
    const fits = (start: number, end: number) => line(start, end).width <= maxWidth;
    const words = [...paragraph.matchAll(/\S+\s*/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
    if (words.length === 0) {
      lines.push({ text: '', pieces: [], rtl, width: 0 });
      continue;
    }
    let start = words[0].start;
    let end = start;
    for (const word of words) {
      if (end > start && !fits(start, word.end)) {
        lines.push(line(start, end));
        start = word.start;
      }
      // a word wider than the line on its own: broken between characters (never inside a surrogate pair)
      while (!fits(start, word.end)) {
        let cut = start + 1;
        while (cut < word.end && fits(start, cut + 1)) cut++;
        if (/[\uDC00-\uDFFF]/.test(paragraph[cut] ?? '')) cut++;
        if (cut >= word.end) break;
        lines.push(line(start, cut));
        start = cut;
      }
      end = word.end;
    }
    lines.push(line(start, end));
  }
  return lines;
}

type Pdf = PDFKit.PDFDocument;

/** Registers the Arabic fonts on a document as 'Arabic' and 'Arabic-Bold'. */
export function registerArabicFonts(pdf: Pdf) {
  const fonts = arabicFontFiles();
  pdf.registerFont('Arabic', fonts.regular);
  pdf.registerFont('Arabic-Bold', fonts.bold);
}

/** Registers the Arabic fonts on a new document and collects its bytes: the promise answers them once it has ended. */
export function collectPdf(pdf: Pdf): Promise<Buffer> {
  registerArabicFonts(pdf);
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  return new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
}

export interface BidiTextOptions {
  width: number;
  /** 'start' (the default): left for a left-to-right paragraph, right for a right-to-left one. */
  align?: 'left' | 'right' | 'start';
  bold?: boolean;
}

/** The lines a text takes at the current font size (fonts registered by `registerArabicFonts`). */
function layout(pdf: Pdf, text: string, opts: BidiTextOptions) {
  const latin = opts.bold ? 'Helvetica-Bold' : 'Helvetica';
  const fontOf = (p: VisualPiece) => (p.arabic ? (opts.bold ? 'Arabic-Bold' : 'Arabic') : latin);
  const widthOf = (p: VisualPiece) => pdf.font(fontOf(p)).widthOfString(p.text, { features: [] });
  const lines = bidiLines(text, opts.width, widthOf);
  const fonts = [latin, opts.bold ? 'Arabic-Bold' : 'Arabic'];
  const lineHeight = Math.max(...fonts.map((f) => pdf.font(f).currentLineHeight(true)));
  // one baseline for the line's pieces, under the taller font's ascender (each font's own would differ by points)
  const ascent = Math.max(
    ...fonts.map(
      (f) => ((pdf.font(f) as unknown as { _font: { ascender: number } })._font.ascender / 1000) * (pdf as unknown as { _fontSize: number })._fontSize,
    ),
  );
  pdf.font(latin);
  return { lines, lineHeight, ascent, latin, fontOf, widthOf };
}

/**
 * pdf.text for a document's own words (names, notes, descriptions), wrapped to `width`: text with Arabic is
 * broken into lines (`bidiLines`) and drawn piece by piece in visual order, Arabic pieces in the Arabic font laid
 * out as one run (`features: []`: pdfkit would otherwise lay out word by word, keeping Arabic words in logical
 * order; fontkit still shapes). Other text goes to pdf.text as it is. Leaves pdf.x at `x` and pdf.y under the text.
 */
export function drawText(pdf: Pdf, text: string, x: number | undefined, y: number | undefined, opts: BidiTextOptions) {
  const align = opts.align ?? 'start';
  if (!hasArabic(text)) {
    const o = { width: opts.width, align: align === 'start' ? ('left' as const) : align };
    return x === undefined ? pdf.text(text, o) : pdf.text(text, x, y, o);
  }
  const startX = x ?? pdf.x;
  let top = y ?? pdf.y;
  const { lines, lineHeight, ascent, latin, fontOf, widthOf } = layout(pdf, text, opts);
  const bottom = pdf.page.height - pdf.page.margins.bottom;
  for (const line of lines) {
    if (top + lineHeight > bottom && top > pdf.page.margins.top) {
      pdf.addPage();
      top = pdf.page.margins.top;
    }
    const right = align === 'right' || (align === 'start' && line.rtl);
    let cx = right ? startX + Math.max(0, opts.width - line.width) : startX;
    for (const p of line.pieces) {
      pdf.font(fontOf(p)).text(p.text, cx, top + ascent, { lineBreak: false, features: [], baseline: 'alphabetic' });
      cx += widthOf(p);
    }
    top += lineHeight;
  }
  pdf.font(latin);
  pdf.x = startX;
  pdf.y = top;
  return pdf;
}

/** The height `drawText` takes for `text` at the current font size. */
export function textHeight(pdf: Pdf, text: string, opts: BidiTextOptions) {
  if (!hasArabic(text)) return pdf.font(opts.bold ? 'Helvetica-Bold' : 'Helvetica').heightOfString(text, { width: opts.width });
  const { lines, lineHeight } = layout(pdf, text, opts);
  return lines.length * lineHeight;
}
