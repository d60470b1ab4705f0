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

export type VerdictKind = 'correct' | 'wrong' | 'unparseable';

export const VERDICT = {
  correct: { color: C.green, mark: '✓', word: 'correct' },
  wrong: { color: C.vermillion, mark: '✗', word: 'wrong' },
  unparseable: { color: C.grey, mark: '∅', word: 'unparseable' },
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
