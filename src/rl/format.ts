/**
 * Numbers as the lab writes them in sentences (the page, the class pool, the run doctor, the CLI):
 * one definition each, so the same number reads the same everywhere.
 */

/** Two decimals, a negative with the typographic minus as every signed number beside it (−0.28, never -0.28; a value that rounds to zero is 0.00); '–' where there is no number. */
export const fmt2 = (x: number) => (Number.isFinite(x) ? (Math.abs(x) < 0.005 ? '0.00' : x.toFixed(2).replace('-', '−')) : '–');

/**
 * A signed number (a difference, a change): always its sign, the typographic minus (−0.05, +0.12),
 * `digits` decimals, or with 'precision' `digits` significant digits (small medians: +0.0034);
 * '–' where there is no number.
 */
export function signed(x: number, digits = 2, style: 'fixed' | 'precision' = 'fixed'): string {
  if (!Number.isFinite(x)) return '–';
  const a = Math.abs(x);
  return `${x < 0 ? '−' : '+'}${style === 'fixed' ? a.toFixed(digits) : a.toPrecision(digits)}`;
}
