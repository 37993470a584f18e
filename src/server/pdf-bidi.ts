import { createRequire } from 'node:module';
import bidiFactory from 'bidi-js';

/** Arabic letters, marks and presentation forms: what the Arabic font draws. */
const ARABIC = /[\u0600-\u06FF\u0750-\u077F\u0870-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/;

/** True when `text` holds Arabic script (it then needs the Arabic font and the bidi order). */
export const hasArabic = (text: string) => ARABIC.test(text);

/** The Noto Sans Arabic files (fontsource's Arabic subset, WOFF: fontkit reads it) for regular and bold runs. */
export function arabicFontFiles() {
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

/**
 * Splits one line into the pieces to draw from left to right (Unicode bidi algorithm, UAX 9, by bidi-js): runs
 * of equal embedding level, reordered by rule L2; inside a right-to-left run, its Arabic and non-Arabic pieces
 * are laid out from the right. The paragraph direction is the first strong character's.
 */
export function visualPieces(text: string): VisualPiece[] {
  bidi ??= bidiFactory();
  const { levels } = bidi.getEmbeddingLevels(text);
  const runs: { start: number; end: number; level: number }[] = [];
  for (let i = 0; i < text.length; i++) {
    const last = runs[runs.length - 1];
    if (last && last.level === levels[i]) last.end = i + 1;
    else runs.push({ start: i, end: i + 1, level: levels[i] });
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
    for (const ch of text.slice(run.start, run.end)) {
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
