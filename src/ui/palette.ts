/**
 * Colours: the Okabe–Ito colour-blind-safe palette, high contrast on white. Verdicts carry a
 * mark as well as a colour (✓ correct, ✗ wrong, ∅ unparseable), never colour alone.
 */
export const C = {
  black: '#000000',
  orange: '#E69F00',
  sky: '#56B4E9',
  green: '#009E73',
  yellow: '#F0E442',
  blue: '#0072B2',
  vermillion: '#D55E00',
  purple: '#CC79A7',
  grey: '#6b6b6b',
} as const;

/**
 * The green, the vermillion and the purple darkened for text on white: C's are for marks, lines
 * and bars (3:1 is enough there), text needs 4.5:1 (WCAG 2.1 AA) — these give 5.3, 5.5 and 5.8.
 */
export const TEXT = { green: '#007a5a', vermillion: '#b34700', purple: '#9a4a7a' } as const;

export type VerdictKind = 'correct' | 'wrong' | 'unparseable';

/** A verdict's colour (its bars, its chip's border), its colour as text, its mark and its word. */
export const VERDICT = {
  correct: { color: C.green, text: TEXT.green, mark: '✓', word: 'correct' },
  wrong: { color: C.vermillion, text: TEXT.vermillion, mark: '✗', word: 'wrong' },
  unparseable: { color: C.grey, text: C.grey, mark: '∅', word: 'unparseable' },
} as const;

export function verdictKind(a: { correct: boolean; formatOk: boolean }): VerdictKind {
  return a.correct ? 'correct' : a.formatOk ? 'wrong' : 'unparseable';
}

/** Compact number for readouts. */
export function fmt(x: number | null | undefined, digits = 3): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  if (x !== 0 && (Math.abs(x) < 1e-3 || Math.abs(x) >= 1e5)) return x.toExponential(1);
  return String(Number(x.toFixed(digits)));
}
