/**
 * Interval estimates for a lesson's verdict and a class's pool: with few runs, report an interval,
 * not a single number (Agarwal et al., "Deep RL at the Edge of the Statistical Precipice",
 * NeurIPS 2021: percentile bootstrap intervals, the interquartile mean).
 *
 * Every bootstrap here is seeded (mulberry32, model/rng.ts): the same data gives the same interval
 * on every machine. The level is two-sided: 0.9 leaves 5 % in each tail.
 *
 * A verdict from an interval (verdictFrom): holds when the interval lies wholly on the claim's
 * side of its threshold, fails when wholly on the other side, unclear when it straddles it.
 * Engine layer: pure, no DOM.
 */
import { Rng } from '../model/rng.ts';

export interface Estimate {
  /** The statistic on the data as given. */
  value: number;
  /** The interval's ends (percentile bootstrap). */
  lo: number;
  hi: number;
}

export interface BootstrapOptions {
  /** Two-sided coverage, 0.9 by default. */
  level?: number;
  /** Resamples, 2000 by default. */
  reps?: number;
  seed?: number;
}

export const LEVEL = 0.9;
const REPS = 2000;
const SEED = 0x1e7e1;

const mean = (xs: ArrayLike<number>) => { let s = 0; for (let i = 0; i < xs.length; i++) s += xs[i]; return xs.length ? s / xs.length : NaN; };

/** The q-quantile of sorted values (linear interpolation between order statistics). */
export function quantile(sorted: readonly number[], q: number): number {
  if (!sorted.length) return NaN;
  const pos = (sorted.length - 1) * q, i = Math.floor(pos), f = pos - i;
  return i + 1 < sorted.length ? sorted[i] * (1 - f) + sorted[i + 1] * f : sorted[i];
}

/**
 * The percentile bootstrap of any statistic: `stat(draw)` is called `reps` times, each time with a
 * fresh `draw(n)` that gives n indices drawn with replacement from [0, n) (the caller resamples
 * whatever units it has: prompts, steps, students). Non-finite resampled values are dropped;
 * when more than a tenth are, the interval is [NaN, NaN] (the statistic is not defined often enough).
 */
export function bootstrap(stat: (draw: (n: number) => Int32Array) => number, value: number, o: BootstrapOptions = {}): Estimate {
  const level = o.level ?? LEVEL, reps = o.reps ?? REPS;
  const rng = new Rng(o.seed ?? SEED);
  const draw = (n: number) => { const idx = new Int32Array(n); for (let i = 0; i < n; i++) idx[i] = rng.int(n); return idx; };
  const out: number[] = [];
  for (let r = 0; r < reps; r++) { const v = stat(draw); if (Number.isFinite(v)) out.push(v); }
  if (!Number.isFinite(value) || out.length < 0.9 * reps) return { value, lo: NaN, hi: NaN };
  out.sort((a, b) => a - b);
  return { value, lo: quantile(out, (1 - level) / 2), hi: quantile(out, 1 - (1 - level) / 2) };
}

/** The mean of xs with its bootstrap interval (resampling the items). */
export function bootstrapMean(xs: readonly number[], o: BootstrapOptions = {}): Estimate {
  if (xs.length < 2) return { value: xs.length ? xs[0] : NaN, lo: NaN, hi: NaN };
  return bootstrap((draw) => { const idx = draw(xs.length); let s = 0; for (const i of idx) s += xs[i]; return s / idx.length; }, mean(xs), o);
}

/**
 * Paired difference: the mean of b[i] − a[i] over paired items (the same prompts and draws before
 * and after; the same seed under two variants), resampling the pairs together, so what the items
 * share cancels.
 */
export function pairedDiff(a: readonly number[], b: readonly number[], o: BootstrapOptions = {}): Estimate {
  if (a.length !== b.length) throw new Error(`pairedDiff: ${a.length} items before, ${b.length} after`);
  return bootstrapMean(a.map((x, i) => b[i] - x), o);
}

/** The interquartile mean: the mean of the middle half (each value weighted by how much of it lies between the quartiles). */
export function iqm(xs: readonly number[]): number {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  const n = s.length;
  if (!n) return NaN;
  if (n < 4) return mean(s);
  // the middle half of the sorted values, as a continuous range [n/4, 3n/4): partial weights at its ends
  const from = n / 4, to = (3 * n) / 4;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const w = Math.max(0, Math.min(i + 1, to) - Math.max(i, from));
    sum += w * s[i];
  }
  return sum / (to - from);
}

export type IntervalVerdict = 'holds' | 'fails' | 'unclear';

/**
 * The verdict on a claim that its number lies above (strictly) or at-or-below a threshold, from the
 * number's interval: holds when the whole interval is on the claim's side, fails when it is wholly
 * on the other side, unclear when it straddles the threshold (or is not defined).
 */
export function verdictFrom(interval: readonly [number, number], threshold: number, side: 'above' | 'below'): IntervalVerdict {
  const [lo, hi] = interval;
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return 'unclear';
  if (side === 'above') return lo > threshold ? 'holds' : hi <= threshold ? 'fails' : 'unclear';
  return hi <= threshold ? 'holds' : lo > threshold ? 'fails' : 'unclear';
}
